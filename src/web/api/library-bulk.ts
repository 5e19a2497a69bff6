import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  LIBRARY_BULK_MAX,
  LibraryBulkResultSchema,
  type LibraryBulk,
  type LibraryBulkResult,
} from '../../contract/index.ts';
import { useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { patchCachedEntries } from './library-favourite.ts';
import { queryKeys } from './query-keys.ts';

export { LIBRARY_BULK_MAX };

/**
 * One action on many tasks (`POST /api/library/bulk`), in requests of at most
 * LIBRARY_BULK_MAX ids. Stars show at once; hiding and unhiding refresh the library after.
 */
export function useBulkAction() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: async ({ ids, action }: LibraryBulk): Promise<LibraryBulkResult> => {
      const results: LibraryBulkResult[] = [];
      for (let i = 0; i < ids.length; i += LIBRARY_BULK_MAX)
        results.push(
          await kilnFetch('/api/library/bulk', {
            method: 'POST',
            json: { ids: ids.slice(i, i + LIBRARY_BULK_MAX), action } satisfies LibraryBulk,
            parse: (b) => LibraryBulkResultSchema.parse(b),
          }),
        );
      return {
        object: 'bulk_result',
        action,
        updated: results.flatMap((r) => r.updated),
        not_found: results.flatMap((r) => r.not_found),
      };
    },
    onSuccess: (result) => {
      if (result.action === 'favourite' || result.action === 'unfavourite')
        patchCachedEntries(queryClient, scope, new Set(result.updated), {
          favourite: result.action === 'favourite',
        });
    },
    onSettled: (result) => {
      if (result?.action === 'favourite' || result?.action === 'unfavourite') return;
      return queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) });
    },
  });
}
