import { queryOptions, useQuery } from '@tanstack/react-query';
import { LibraryPageSchema } from '../../contract/index.ts';
import { NO_KEY, useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

/**
 * This key's other completed generations of an entry's input, the same prompt or the same
 * photos (`GET /api/library/{id}/same-input`), newest first: what "Compare with…" offers.
 */
export function sameInputQuery(scope: string, id: string, enabled = true) {
  return queryOptions({
    queryKey: queryKeys.sameInput(scope, id),
    queryFn: ({ signal }) =>
      kilnFetch(`/api/library/${encodeURIComponent(id)}/same-input`, {
        signal,
        parse: (b) => LibraryPageSchema.parse(b).data,
      }),
    enabled: enabled && scope !== NO_KEY,
    staleTime: 30_000,
  });
}

export function useSameInput(id: string, enabled = true) {
  return useQuery(sameInputQuery(useKeyScope(), id, enabled));
}
