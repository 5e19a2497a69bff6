import {
  infiniteQueryOptions,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { LibraryEntrySchema, LibraryPageSchema, type LibraryPatch } from '../../contract/index.ts';
import { NO_KEY, useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

export const LIBRARY_PAGE_SIZE = 24;

export function libraryQuery(scope: string) {
  return infiniteQueryOptions({
    queryKey: queryKeys.library(scope),
    queryFn: ({ signal, pageParam }) =>
      kilnFetch(
        `/api/library?limit=${LIBRARY_PAGE_SIZE}${pageParam ? `&cursor=${pageParam}` : ''}`,
        {
          signal,
          parse: (b) => LibraryPageSchema.parse(b),
        },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: scope !== NO_KEY,
  });
}

/** Every task this key made through Kiln, newest first (GET /api/library). */
export function useLibrary() {
  return useInfiniteQuery(libraryQuery(useKeyScope()));
}

/** Hide one task from the library (DELETE /api/library/{id}). */
export function useHideTask() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (id: string) =>
      kilnFetch(`/api/library/${encodeURIComponent(id)}`, { method: 'DELETE', parse: () => null }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) }),
  });
}

/** Shows a hidden task again (`PATCH /api/library/{id}`): the gallery's Undo, the task's Unhide. */
export function useUnhideTask() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (id: string) =>
      kilnFetch(`/api/library/${encodeURIComponent(id)}`, {
        method: 'PATCH',
        json: { hidden: false } satisfies LibraryPatch,
        parse: (b) => LibraryEntrySchema.parse(b),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) }),
  });
}
