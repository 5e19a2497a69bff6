import { queryOptions, useQuery } from '@tanstack/react-query';
import { NotFoundError } from '../../client/errors.ts';
import { PublicShareSchema, type PublicShare } from '../../contract/index.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

/**
 * What a public link shows (`GET /api/shares/{token}`), asked without a key; null when there is
 * no such link (never made, or revoked).
 */
export function sharedModelQuery(token: string) {
  return queryOptions({
    queryKey: queryKeys.sharedModel(token),
    queryFn: async ({ signal }): Promise<PublicShare | null> => {
      try {
        return await kilnFetch(`/api/shares/${encodeURIComponent(token)}`, {
          signal,
          auth: false,
          parse: (b) => PublicShareSchema.parse(b),
        });
      } catch (err) {
        if (err instanceof NotFoundError) return null;
        throw err;
      }
    },
    // A revoked link must not keep showing from a cache.
    staleTime: 0,
  });
}

export function useSharedModel(token: string) {
  return useQuery(sharedModelQuery(token));
}
