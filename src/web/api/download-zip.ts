import { currentApiKey } from '../lib/key-store.ts';

/** The most task ids one zip takes (the server's limit, `ZIP_MAX_IDS`). */
export const ZIP_MAX_IDS = 100;

/** `GET /api/library/download.zip?ids=…` for these tasks. */
export function modelsZipPath(ids: readonly string[]): string {
  return `/api/library/download.zip?ids=${ids.map(encodeURIComponent).join(',')}`;
}

/** The file name a Content-Disposition header gives, or undefined. */
export function dispositionName(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // fall back to the plain name
    }
  }
  return (
    /filename\s*=\s*"([^"]+)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1]
  );
}

/**
 * One zip of the caller's archived models of these tasks (the server streams it; a task that
 * has none is listed in the zip's README.txt). The key goes in the Authorization header, so the
 * browser cannot fetch it by a plain link: the bytes come here, and the caller saves them.
 * Errors are the client's typed errors (`NotFoundError` when none has a model yet).
 */
export async function downloadModelsZip(
  ids: readonly string[],
  options: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
): Promise<{ blob: Blob; fileName: string }> {
  const headers: Record<string, string> = { accept: 'application/zip, application/json' };
  const apiKey = currentApiKey();
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  let res: Response;
  try {
    res = await fetch(modelsZipPath(ids), { headers, signal: options.signal ?? null });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    const { APIConnectionError } = await import('../../client/errors.ts');
    throw new APIConnectionError('Kiln’s server could not be reached. Check that it is running.', {
      cause: err,
    });
  }
  if (!res.ok) {
    const { APIError, parseBody } = await import('../../client/errors.ts');
    throw APIError.from(res.status, parseBody(await res.text()), res.headers, res.statusText);
  }
  const fileName = dispositionName(res.headers.get('content-disposition')) ?? 'kiln-models.zip';
  if (!res.body || !options.onProgress) return { blob: await res.blob(), fileName };
  const reader = res.body.getReader();
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    received += value.byteLength;
    options.onProgress(received);
  }
  return { blob: new Blob(parts, { type: 'application/zip' }), fileName };
}
