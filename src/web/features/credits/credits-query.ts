import { queryOptions, useQuery } from '@tanstack/react-query';
import { CreditsSchema } from '../../../contract/index.ts';
import { kilnFetch, useKeyScope } from '../../lib/api.ts';
import { useApiKey } from '../key/key-store.ts';

export function creditsQuery(apiKey: string | null, scope: string) {
  return queryOptions({
    queryKey: ['credits', scope],
    queryFn: ({ signal }) => kilnFetch('/api/credits', { apiKey, signal, parse: (b) => CreditsSchema.parse(b) }),
    enabled: apiKey !== null,
  });
}

/** The last known balance and its history (GET /api/credits). */
export function useCredits() {
  const apiKey = useApiKey();
  return useQuery(creditsQuery(apiKey, useKeyScope()));
}
