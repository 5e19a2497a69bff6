/** Why an input image could not be had; the engine fails the task with this sentence. */
export class ImageFetchError extends Error {
  override name = 'ImageFetchError';
}

export interface FetchImageOptions {
  fetch?: typeof fetch;
  maxBytes?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

export const IMAGE_MAX_BYTES = 20 * 1024 * 1024;
export const IMAGE_TIMEOUT_MS = 15_000;

/**
 * Fetch the bytes behind an `image_url`: http(s) or a `data:` URI, with a
 * size cap and a time limit. Decoding (and "is this an image") is the
 * generator's job; this only brings the bytes.
 */
export async function fetchImage(
  url: string,
  options: FetchImageOptions = {},
): Promise<Uint8Array> {
  const maxBytes = options.maxBytes ?? IMAGE_MAX_BYTES;
  const label = describe(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ImageFetchError(`${label} is not a valid URL.`);
  }
  if (parsed.protocol === 'data:') return decodeDataUri(url, label, maxBytes);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ImageFetchError(
      `${label} uses ${parsed.protocol} — only http, https and data: URLs can be fetched.`,
    );

  const timeoutMs = options.timeoutMs ?? IMAGE_TIMEOUT_MS;
  const signals = [AbortSignal.timeout(timeoutMs)];
  if (options.signal) signals.push(options.signal);
  const signal = AbortSignal.any(signals);
  let res: Response;
  try {
    res = await (options.fetch ?? fetch)(parsed, { signal, redirect: 'follow' });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    const timedOut = signal.aborted;
    throw new ImageFetchError(
      timedOut
        ? `${label} did not answer within ${Math.round(timeoutMs / 1000)} s.`
        : `${label} could not be reached (${causeOf(err)}).`,
    );
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new ImageFetchError(`${label} answered HTTP ${res.status}.`);
  }
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new ImageFetchError(`${label} is larger than ${maxBytes / 1024 / 1024} MB.`);
  }
  if (!res.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.byteLength;
      if (total > maxBytes)
        throw new ImageFetchError(`${label} is larger than ${maxBytes / 1024 / 1024} MB.`);
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof ImageFetchError) throw err;
    if (options.signal?.aborted) throw err;
    throw new ImageFetchError(
      signal.aborted
        ? `${label} did not finish downloading within ${Math.round(timeoutMs / 1000)} s.`
        : `${label} broke off while downloading (${causeOf(err)}).`,
    );
  }
  return concat(chunks, total);
}

function decodeDataUri(url: string, label: string, maxBytes: number): Uint8Array {
  const comma = url.indexOf(',');
  if (comma < 0) throw new ImageFetchError(`${label} is a malformed data: URI.`);
  const meta = url.slice(5, comma);
  const payload = url.slice(comma + 1);
  if (payload.length > (maxBytes * 4) / 3 + 4)
    throw new ImageFetchError(`${label} is larger than ${maxBytes / 1024 / 1024} MB.`);
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

function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.byteLength;
  }
  return out;
}
