import { UploadResultSchema, type UploadResult } from '../../contract/index.ts';
import { APIConnectionError, APIError, APIUserAbortError } from '../../client/index.ts';
import { kilnFetch } from './kiln-fetch.ts';

/**
 * POST /api/uploads with upload progress (fetch cannot report it; XHR can).
 * Errors are the client's typed errors, carrying the server's sentence.
 */
export function uploadImage(
  file: Blob,
  options: { onProgress?: (fraction: number) => void; signal?: AbortSignal } = {},
): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/uploads');
    xhr.responseType = 'text';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // keep the text
      }
      if (xhr.status === 201 || xhr.status === 200) {
        const parsed = UploadResultSchema.safeParse(body);
        if (parsed.success) {
          options.onProgress?.(1);
          resolve(parsed.data);
        } else
          reject(APIError.from(502, 'The server answered the upload with an unexpected body.'));
      } else reject(APIError.from(xhr.status, body, responseHeaders(xhr), xhr.statusText));
    };
    xhr.onerror = () => reject(new APIConnectionError('The upload could not reach Kiln’s server.'));
    xhr.onabort = () => reject(new APIUserAbortError('The upload was cancelled.'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** An XHR's response headers (Retry-After on a 429 among them), as fetch would give them. */
function responseHeaders(xhr: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
}

/**
 * POST /api/uploads/from-url: Kiln fetches a pasted image address once (public addresses only),
 * checks it and stores it like an upload, so the preview comes from Kiln and an address that
 * does not work is known before any create.
 */
export function uploadFromUrl(url: string, signal?: AbortSignal): Promise<UploadResult> {
  return kilnFetch('/api/uploads/from-url', {
    method: 'POST',
    json: { url },
    signal,
    parse: (b) => UploadResultSchema.parse(b),
  });
}

/** Where Kiln serves a stored upload (`/api/uploads/{sha}.{ext}`), for previews on this origin. */
export function uploadPath(result: UploadResult): string {
  const fromUrl = /\/api\/uploads\/([a-f0-9]{64}\.(?:png|jpg|webp))(?:$|[?#])/.exec(result.url);
  if (fromUrl) return `/api/uploads/${fromUrl[1]}`;
  const mime = /^data:image\/(png|jpeg|webp)[;,]/.exec(result.url)?.[1];
  const ext = mime === 'jpeg' ? 'jpg' : (mime ?? 'png');
  return `/api/uploads/${result.sha256}.${ext}`;
}
