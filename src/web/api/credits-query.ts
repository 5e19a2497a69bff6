import { queryOptions, useQuery } from '@tanstack/react-query';
import { CreditsSchema } from '../../contract/index.ts';
import { NO_KEY, useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

export function creditsQuery(scope: string) {
  return queryOptions({
    queryKey: queryKeys.credits(scope),
    queryFn: ({ signal }) =>
      kilnFetch('/api/credits', { signal, parse: (b) => CreditsSchema.parse(b) }),
    enabled: scope !== NO_KEY,
    refetchOnWindowFocus: true,
  });
}

/** The last known balance and its history (GET /api/credits). */
export function useCredits() {
  return useQuery(creditsQuery(useKeyScope()));
}
