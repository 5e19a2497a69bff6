import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';

const InfoSchema = z.object({ mode: z.enum(['mock', 'upstream']), demoKey: z.string().optional() });
export type ServerInfo = z.infer<typeof InfoSchema>;

async function fetchInfo(signal: AbortSignal): Promise<ServerInfo> {
  const res = await fetch('/api/info', { signal });
  if (!res.ok) throw new Error(`Kiln’s server answered ${res.status}.`);
  return InfoSchema.parse(await res.json());
}

export const infoQuery = queryOptions({
  queryKey: ['info'],
  queryFn: ({ signal }) => fetchInfo(signal),
  staleTime: Infinity,
});

export function useInfo() {
  return useQuery(infoQuery);
}
