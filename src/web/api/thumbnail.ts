import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LibraryEntrySchema } from '../../contract/index.ts';
import { useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

/**
 * Keeps a picture of a library entry's model (`PUT /api/library/{id}/thumbnail`): the first
 * browser to show an archived model draws it once, and the gallery shows it from then on. A
 * failure costs nothing (the gallery shows the input photo), so it is not reported.
 */
export function useKeepThumbnail(id: string) {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (picture: Blob) =>
      kilnFetch(`/api/library/${encodeURIComponent(id)}/thumbnail`, {
        method: 'PUT',
        blob: picture,
        parse: (b) => LibraryEntrySchema.parse(b),
      }),
    onSuccess: (entry) => {
      queryClient.setQueryData(queryKeys.libraryEntry(scope, id), entry);
      // The gallery's pages (not the entries under the same prefix, which are fresh).
      void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope), exact: true });
    },
  });
}

/**
 * The same for any entry (`{ id, picture }`): the gallery draws the pictures no browser has
 * drawn yet, one after another, in the background.
 */
export function useKeepThumbnails() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: ({ id, picture }: { id: string; picture: Blob }) =>
      kilnFetch(`/api/library/${encodeURIComponent(id)}/thumbnail`, {
        method: 'PUT',
        blob: picture,
        parse: (b) => LibraryEntrySchema.parse(b),
      }),
    onSuccess: (entry) => {
      queryClient.setQueryData(queryKeys.libraryEntry(scope, entry.id), entry);
      void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) });
    },
  });
}
