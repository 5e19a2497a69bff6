import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NotFoundError } from '../../client/errors.ts';
import { ERROR_CODES } from '../../contract/index.ts';
import { useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

/**
 * Stops sharing a model (`DELETE /api/library/{id}/share`): its page, embed and GLB answer 404
 * from then on. A link already gone counts as stopped.
 */
export function useRevokeShare(id: string) {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: async () => {
      try {
        await kilnFetch(`/api/library/${encodeURIComponent(id)}/share`, {
          method: 'DELETE',
          parse: () => null,
        });
      } catch (err) {
        if (!(err instanceof NotFoundError && err.code === ERROR_CODES.shareNotFound)) throw err;
      }
      return null;
    },
    onSuccess: () => {
      queryClient.setQueryData(queryKeys.share(scope, id), null);
      void queryClient.invalidateQueries({
        queryKey: queryKeys.libraryEntry(scope, id),
        exact: true,
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope), exact: true });
    },
  });
}
