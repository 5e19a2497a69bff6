import { currentApiKey } from '../lib/key-store.ts';

/**
 * The one fetcher for Kiln's own API (`/api/info`, `/api/library`, `/api/credits`, …): the
 * current key as a bearer token, the body parsed by `parse` (a contract schema's parse), and the
 * same typed errors as the upstream client (`APIError` by status, `APIConnectionError`). The
 * error classes (and zod, which they use) load only when a request fails, so the app shell that
 * asks `/api/info` stays small.
 */
export async function kilnFetch<T>(
  path: string,
  options: {
    method?: string;
    signal?: AbortSignal | undefined;
    parse: (body: unknown) => T;
    /** Send the API key (default true; `/api/info` needs none). */
    auth?: boolean;
    /** A JSON body. */
    json?: unknown;
    /** A binary body (an image), sent with its own type. */
    blob?: Blob;
  },
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const apiKey = options.auth === false ? null : currentApiKey();
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  else if (options.blob) headers['content-type'] = options.blob.type || 'application/octet-stream';
  let res: Response;
  try {
    res = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      signal: options.signal ?? null,
      ...(options.json !== undefined
        ? { body: JSON.stringify(options.json) }
        : options.blob
          ? { body: options.blob }
          : {}),
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
    const { APIConnectionError } = await import('../../client/errors.ts');
    throw new APIConnectionError('Kiln’s server could not be reached. Check that it is running.', {
      cause: err,
    });
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : '';
  } catch {
    // keep the text
  }
  if (!res.ok) {
    const { APIError } = await import('../../client/errors.ts');
    throw APIError.from(res.status, body, res.headers, res.statusText);
  }
  return options.parse(res.status === 204 ? undefined : body);
}
