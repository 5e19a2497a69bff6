import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { LibraryEntrySchema, type LibraryEntry, type LibraryPatch } from '../../contract/index.ts';
import { useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

/**
 * Changes entries wherever the library is cached (its pages, filtered lists, single entries),
 * so a star shows at once in every list. Lists are not refetched: a card unstarred under
 * "Favourites" stays until the list is read again, instead of jumping away under the pointer.
 */
export function patchCachedEntries(
  queryClient: QueryClient,
  scope: string,
  ids: ReadonlySet<string>,
  patch: Partial<LibraryEntry>,
) {
  const apply = (entry: LibraryEntry) => (ids.has(entry.id) ? { ...entry, ...patch } : entry);
  queryClient.setQueriesData({ queryKey: queryKeys.library(scope) }, (data: unknown) => {
    if (!data || typeof data !== 'object') return data;
    if ('pages' in data && Array.isArray(data.pages))
      return {
        ...data,
        pages: (data.pages as { data: LibraryEntry[] }[]).map((page) => ({
          ...page,
          data: page.data.map(apply),
        })),
      };
    if ('data' in data && Array.isArray(data.data))
      return { ...data, data: (data.data as LibraryEntry[]).map(apply) };
    if ('id' in data && typeof data.id === 'string') return apply(data as LibraryEntry);
    return data;
  });
}

/** Stars or unstars one task (`PATCH /api/library/{id}` with `favourite`), shown at once. */
export function useSetFavourite() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: ({ id, favourite }: { id: string; favourite: boolean }) =>
      kilnFetch(`/api/library/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        json: { favourite } satisfies LibraryPatch,
        parse: (b) => LibraryEntrySchema.parse(b),
      }),
    onMutate: ({ id, favourite }) =>
      patchCachedEntries(queryClient, scope, new Set([id]), { favourite }),
    onError: (_err, { id, favourite }) =>
      patchCachedEntries(queryClient, scope, new Set([id]), { favourite: !favourite }),
    onSuccess: (entry) =>
      patchCachedEntries(queryClient, scope, new Set([entry.id]), { favourite: entry.favourite }),
  });
}
