import { useMemo } from 'react';
import { APIConnectionError, APIError, createClient, type KilnClient } from '../../client/index.ts';
import { currentApiKey, useApiKey } from '../features/key/key-store.ts';

export const API_BASE = '/api/v1';

/** The typed client for the upstream API (through Kiln's proxy), with the current key. */
export function useClient(): KilnClient {
  const apiKey = useApiKey();
  return useMemo(() => createClient({ baseURL: API_BASE, apiKey: apiKey ?? undefined }), [apiKey]);
}

/**
 * Kiln's own API (/api/library, /api/credits, …): the same typed errors as the client.
 * `parse` is the contract schema's parse.
 */
export async function kilnFetch<T>(
  path: string,
  options: { method?: string; signal?: AbortSignal | undefined; parse: (body: unknown) => T },
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const apiKey = currentApiKey();
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  let res: Response;
  try {
    res = await fetch(path, {
      method: options.method ?? 'GET',
      headers,
      signal: options.signal ?? null,
    });
  } catch (err) {
    if (options.signal?.aborted) throw err;
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
  if (!res.ok) throw APIError.from(res.status, body, res.headers, res.statusText);
  return options.parse(res.status === 204 ? undefined : body);
}

/**
 * A key-scoped query key prefix, so switching keys never shows another key's data.
 * A short non-reversible fingerprint, not the key.
 */
export function useKeyScope(): string {
  const key = useApiKey();
  return useMemo(() => (key ? fingerprint(key) : NO_KEY), [key]);
}
export const NO_KEY = 'no-key';

function fingerprint(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return `k${(h >>> 0).toString(36)}`;
}
