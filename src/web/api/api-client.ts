// The upstream API's typed client (src/client) through Kiln's proxy, and the key scope every
// query key carries. Kiln's own endpoints go through kiln-fetch.ts.
import { useMemo } from 'react';
import { createClient, type KilnClient } from '../../client/index.ts';
import { useApiKey } from '../lib/key-store.ts';

export const API_BASE = '/api/v1';

/** The typed client for the upstream API (through Kiln's proxy), with the current key. */
export function useClient(): KilnClient {
  const apiKey = useApiKey();
  return useMemo(() => createClient({ baseURL: API_BASE, apiKey: apiKey ?? undefined }), [apiKey]);
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
