import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { LibraryPageSchema } from '../../../contract/index.ts';
import { kilnFetch, useKeyScope } from '../../lib/api.ts';
import { useApiKey } from '../key/key-store.ts';

export const LIBRARY_PAGE_SIZE = 24;

export function libraryQuery(apiKey: string | null, scope: string) {
  return infiniteQueryOptions({
    queryKey: ['library', scope],
    queryFn: ({ signal, pageParam }) =>
      kilnFetch(`/api/library?limit=${LIBRARY_PAGE_SIZE}${pageParam ? `&cursor=${pageParam}` : ''}`, {
        apiKey,
        signal,
        parse: (b) => LibraryPageSchema.parse(b),
      }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: apiKey !== null,
  });
}

/** Every task this key made through Kiln, newest first (GET /api/library). */
export function useLibrary() {
  const apiKey = useApiKey();
  return useInfiniteQuery(libraryQuery(apiKey, useKeyScope()));
}

/** Hide one task from the library (DELETE /api/library/{id}). */
export function useHideTask() {
  const apiKey = useApiKey();
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (id: string) =>
      kilnFetch(`/api/library/${encodeURIComponent(id)}`, { apiKey, method: 'DELETE', parse: () => null }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['library', scope] }),
  });
}
