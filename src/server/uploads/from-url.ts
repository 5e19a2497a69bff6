// `POST /api/uploads/from-url`: an image someone pasted the address of, fetched once here.
import type { Context } from 'hono';
import { ERROR_CODES } from '../../contract/index.ts';
import { formatBytes } from '../../formats/index.ts';
import { ApiError } from '../../http/index.ts';
import { SafeFetchError } from '../../net/index.ts';
import { readJson } from '../middleware/boundary.ts';
import { safeFileName } from './read-upload.ts';
import type { UploadRoutesDeps } from './route-deps.ts';
import { MIME_OF, storeUpload } from './store-upload.ts';

/** The address a body names, checked: an http(s) URL, or the 400 naming `url`. */
async function pastedUrl(c: Context): Promise<string> {
  const body = await readJson(c, '{ "url": "https://…/photo.jpg" }');
  const url = (body as { url?: unknown } | null)?.url;
  if (typeof url !== 'string' || !/^https?:\/\/\S+$/i.test(url) || !URL.canParse(url))
    throw new ApiError(400, {
      code: ERROR_CODES.invalidValue,
      message: 'The address must be an http or https URL of an image.',
      param: 'url',
    });
  return url;
}

/** The upload a pasted address names, when it is one of this Kiln's own addresses. */
function ownUpload(
  deps: UploadRoutesDeps,
  url: string,
  c: Context,
): { sha256: string; ext: string } | undefined {
  const parsed = new URL(url);
  const origins = [new URL(c.req.url).origin, deps.ownOrigins?.() ?? []].flat();
  if (!origins.includes(parsed.origin)) return undefined;
  const m = /^\/api\/uploads\/([a-f0-9]{64})\.(png|jpg|webp)$/.exec(parsed.pathname);
  return m ? { sha256: m[1]!, ext: m[2]! } : undefined;
}

/** The image at `url`, fetched under the archive's address policy, or the 400 that says why not. */
async function fetched(deps: UploadRoutesDeps, url: string, maxBytes: number) {
  if (!deps.fetchImage)
    throw new ApiError(503, {
      code: ERROR_CODES.serviceUnavailable,
      message: 'This Kiln does not fetch images by address; upload the file instead.',
    });
  try {
    return await deps.fetchImage(url, maxBytes);
  } catch (err) {
    throw new ApiError(400, {
      code: ERROR_CODES.imageDownloadFailed,
      message: fetchProblem(url, err, maxBytes),
      param: 'url',
    });
  }
}

/**
 * An image someone pasted the address of: fetched once, here, under the archive's address
 * policy, checked and stored like an upload. The studio previews it from Kiln (its CSP allows
 * only Kiln's own images) and an address that does not work never costs a create.
 */
export function fromUrlRoute(deps: UploadRoutesDeps, maxBytes: number) {
  return async (c: Context) => {
    const url = await pastedUrl(c);
    // Kiln's own upload, pasted back: taken from the store as it is, not fetched and
    // re-encoded.
    const own = ownUpload(deps, url, c);
    if (own) {
      const kept = await deps.blobs.get('uploads', own.sha256, own.ext);
      if (kept)
        return storeUpload(deps, maxBytes, c, kept, null, {
          ext: own.ext,
          mime: MIME_OF[own.ext]!,
        });
    }
    const bytes = await fetched(deps, url, maxBytes);
    // A content-addressed name (an address copied from Kiln itself) names nothing: the name the
    // image was first uploaded with stays.
    const name = safeFileName(lastSegment(url));
    const fileName = name && !/^[a-f0-9]{64}\.[a-z0-9]+$/i.test(name) ? name : null;
    return storeUpload(deps, maxBytes, c, bytes, fileName);
  };
}

function lastSegment(url: string): string {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Why a pasted address gave no image, in a sentence. An address Kiln will not fetch is refused
 * with the rule, never with what is there (no probing private networks through Kiln).
 */
function fetchProblem(url: string, err: unknown, maxBytes: number): string {
  const code = err instanceof SafeFetchError ? err.code : 'network';
  const at = `The image at ${url.length > 120 ? `${url.slice(0, 117)}…` : url}`;
  switch (code) {
    case 'blocked_address':
    case 'bad_url':
      return `${at} cannot be used: Kiln fetches images only from public http(s) addresses. Download it and upload the file instead.`;
    case 'too_large':
      return `${at} is larger than ${formatBytes(maxBytes)}. Use a smaller image.`;
    case 'timeout':
      return `${at} took too long to arrive. Check the address, or upload the file instead.`;
    case 'http_status':
      return `${at} could not be fetched: the server answered ${(err as SafeFetchError).status ?? 'an error'}. Check the address.`;
    case 'too_many_redirects':
      return `${at} redirects too many times. Use the image's own address.`;
    default:
      return `${at} could not be reached. Check the address, or upload the file instead.`;
  }
}
