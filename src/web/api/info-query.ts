import { queryOptions, useQuery } from '@tanstack/react-query';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

export interface ServerInfo {
  mode: 'mock' | 'upstream';
  demoKey?: string;
}

/** Checked by hand: the shell stays free of zod (its weight goes with the pages). */
function parseInfo(body: unknown): ServerInfo {
  const b = body as { mode?: unknown; demoKey?: unknown } | null;
  if (!b || (b.mode !== 'mock' && b.mode !== 'upstream'))
    throw new Error('Kiln’s server sent unexpected /api/info.');
  return { mode: b.mode, ...(typeof b.demoKey === 'string' ? { demoKey: b.demoKey } : {}) };
}

export const infoQuery = queryOptions({
  queryKey: queryKeys.info(),
  queryFn: ({ signal }) => kilnFetch('/api/info', { signal, auth: false, parse: parseInfo }),
  staleTime: Infinity,
});

export function useInfo() {
  return useQuery(infoQuery);
}
