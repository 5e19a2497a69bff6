import { IMAGE_MAX_BYTES, formatBytes } from '../formats/index.ts';
import { SafeFetchError, exactOrigins, safeFetch, type SafeFetchOptions } from '../net/index.ts';

/** Why an input image could not be had; the engine fails the task with this sentence. */
export class ImageFetchError extends Error {
  override name = 'ImageFetchError';
}

/** Which addresses the mock may fetch images from (DESIGN "The mock's image fetch"). */
export interface ImageFetchPolicy {
  /**
   * Kiln's own addresses (its listening origin, PUBLIC_URL), which may be private: each lets
   * exactly its origin through (scheme, host, effective port), redirects included, never the
   * host's other ports (`exactOrigins`, decision 0093).
   */
  ownOrigins?: () => readonly (string | undefined)[];
  /** MOCK_ALLOW_PRIVATE_FETCH=1: every address (for a LAN image server). */
  allowPrivate?: boolean;
}

export interface FetchImageOptions extends ImageFetchPolicy {
  maxBytes?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The connection layer (tests observe it; see `safeFetch`). */
  request?: SafeFetchOptions['request'];
  lookup?: SafeFetchOptions['lookup'];
}

const IMAGE_TIMEOUT_MS = 15_000;

/**
 * The bytes behind an `image_url`: a `data:` URI, or an http(s) URL fetched like the archive's
 * GLBs (`safeFetch`: public addresses only unless allowed, every hop checked, pinned, capped).
 * A refused or unresolvable address gets one sentence that says nothing about the target, so a
 * failed task cannot be used to map a network. Decoding is the generator's job.
 */
export async function fetchImage(
  url: string,
  options: FetchImageOptions = {},
): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? IMAGE_MAX_BYTES;
  const label = describe(url);
  if (url.startsWith('data:')) return decodeDataUri(url, label, maxBytes);
  const timeoutMs = options.timeoutMs ?? IMAGE_TIMEOUT_MS;
  try {
    const fetched = await safeFetch(url, {
      maxBytes,
      timeoutMs,
      maxRedirects: 5,
      accept: 'image/png, image/jpeg, image/webp, image/*;q=0.8',
      userAgent: 'kiln-mock',
      allowedHosts: exactOrigins(options.ownOrigins?.() ?? []),
      allowPrivate: options.allowPrivate === true,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.request ? { request: options.request } : {}),
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
    return fetched.bytes;
  } catch (err) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (!(err instanceof SafeFetchError)) throw err;
    throw new ImageFetchError(sentenceFor(err, label, { maxBytes, timeoutMs }));
  }
}

function sentenceFor(
  err: SafeFetchError,
  label: string,
  limits: { maxBytes: number; timeoutMs: number },
): string {
  switch (err.code) {
    case 'bad_url':
      return `${label} is not an http, https or data: URL the mock can fetch.`;
    case 'too_large':
      return `${label} is larger than ${formatBytes(limits.maxBytes)}.`;
    case 'timeout':
      return `${label} did not arrive within ${Math.round(limits.timeoutMs / 1000)} s.`;
    case 'http_status':
      return `${label} answered HTTP ${err.status ?? 'with an error'}.`;
    case 'too_many_redirects':
      return `${label} redirects too many times.`;
    case 'blocked_address':
      return refused(label);
    default:
      // DNS failures look like refusals (a name that does not resolve publicly says nothing more);
      // a connection that broke after an allowed address was chosen is "could not be reached".
      return /resolve/.test(err.message) ? refused(label) : `${label} could not be reached.`;
  }
}

const refused = (label: string) =>
  `${label} could not be fetched: the mock fetches images only from public http(s) addresses, data: URIs and Kiln's own uploads.`;

/** A data: URI's bytes; `label` names it in the error ("image_url", "The data: image"). */
export function decodeDataUri(url: string, label: string, maxBytes = IMAGE_MAX_BYTES): Uint8Array {
  const comma = url.indexOf(',');
  if (comma < 0) throw new ImageFetchError(`${label} is a malformed data: URI.`);
  const meta = url.slice(5, comma);
  const payload = url.slice(comma + 1);
  if (payload.length > (maxBytes * 4) / 3 + 4)
    throw new ImageFetchError(`${label} is larger than ${formatBytes(maxBytes)}.`);
  const bytes = meta.endsWith(';base64')
    ? Buffer.from(payload, 'base64')
    : Buffer.from(decodeURIComponent(payload), 'utf8');
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function describe(url: string): string {
  if (url.startsWith('data:')) return 'The data: image';
  const short = url.length > 120 ? `${url.slice(0, 117)}…` : url;
  return `The image at ${short}`;
}
