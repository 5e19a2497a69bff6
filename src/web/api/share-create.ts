import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ShareSchema } from '../../contract/index.ts';
import { useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

/**
 * Makes the public link to a finished model (`POST /api/library/{id}/share`), or gets the one
 * there is: sharing twice gives the same link.
 */
export function useCreateShare(id: string) {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: () =>
      kilnFetch(`/api/library/${encodeURIComponent(id)}/share`, {
        method: 'POST',
        parse: (b) => ShareSchema.parse(b),
      }),
    onSuccess: (share) => {
      queryClient.setQueryData(queryKeys.share(scope, id), share);
      // The entry and the gallery's pages say whether it is shared.
      void queryClient.invalidateQueries({
        queryKey: queryKeys.libraryEntry(scope, id),
        exact: true,
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope), exact: true });
    },
  });
}
