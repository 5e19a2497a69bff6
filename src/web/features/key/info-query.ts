import { queryOptions, useQuery } from '@tanstack/react-query';
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

async function fetchInfo(signal: AbortSignal): Promise<ServerInfo> {
  const res = await fetch('/api/info', { signal });
  if (!res.ok) throw new Error(`Kiln’s server answered ${res.status}.`);
  return parseInfo(await res.json());
}

export const infoQuery = queryOptions({
  queryKey: ['info'],
  queryFn: ({ signal }) => fetchInfo(signal),
  staleTime: Infinity,
});

export function useInfo() {
  return useQuery(infoQuery);
}
