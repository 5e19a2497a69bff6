import { queryOptions, useQuery } from '@tanstack/react-query';
import { NotFoundError } from '../../client/errors.ts';
import { ERROR_CODES, ShareSchema, type Share } from '../../contract/index.ts';
import { NO_KEY, useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

/**
 * The owner's public link to one library entry (`GET /api/library/{id}/share`), or null when
 * the task is not shared.
 */
export function shareLinkQuery(scope: string, id: string) {
  return queryOptions({
    queryKey: queryKeys.share(scope, id),
    queryFn: async ({ signal }): Promise<Share | null> => {
      try {
        return await kilnFetch(`/api/library/${encodeURIComponent(id)}/share`, {
          signal,
          parse: (b) => ShareSchema.parse(b),
        });
      } catch (err) {
        if (err instanceof NotFoundError && err.code === ERROR_CODES.shareNotFound) return null;
        throw err;
      }
    },
    enabled: scope !== NO_KEY,
  });
}

export function useShareLink(id: string, options: { enabled?: boolean } = {}) {
  const query = shareLinkQuery(useKeyScope(), id);
  return useQuery({ ...query, enabled: query.enabled !== false && options.enabled !== false });
}
