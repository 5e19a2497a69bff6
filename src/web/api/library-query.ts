import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import {
  LibraryEntrySchema,
  LibraryPageSchema,
  type LibraryKind,
  type LibraryPatch,
  type LibrarySort,
  type LibraryStatusFilter,
} from '../../contract/index.ts';
import { NO_KEY, useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

export const LIBRARY_PAGE_SIZE = 24;

/** What `GET /api/library` is asked to keep and in which order (the gallery's filters). */
export interface LibraryFilters {
  /** Words to find in the prompt or a photo's file name. */
  q: string;
  /** One model id, or '' for every model. */
  model: string;
  kind: LibraryKind | '';
  status: LibraryStatusFilter | '';
  /** Only starred tasks. */
  favourite: boolean;
  sort: LibrarySort;
}

export const NO_FILTERS: LibraryFilters = {
  q: '',
  model: '',
  kind: '',
  status: '',
  favourite: false,
  sort: 'newest',
};

/**
 * The filters as query parameters, in one order, defaults left out ("q=chair&sort=credits"):
 * the API's query and the gallery's address alike, so equal filters give equal strings.
 */
export function libraryFilterParams(filters: Partial<LibraryFilters>): URLSearchParams {
  const f = { ...NO_FILTERS, ...filters };
  const params = new URLSearchParams();
  const q = f.q.trim().replace(/\s+/g, ' ');
  if (q) params.set('q', q);
  if (f.model) params.set('model', f.model);
  if (f.kind) params.set('kind', f.kind);
  if (f.status) params.set('status', f.status);
  if (f.favourite) params.set('favourite', '1');
  if (f.sort !== 'newest') params.set('sort', f.sort);
  return params;
}

/**
 * The library's pages (GET /api/library), newest first unless filters say otherwise. Without
 * filters this is the one list the studio, the viewer and the credits page share
 * (`queryKeys.library`); with them, a list of its own under the same prefix.
 */
export function libraryQuery(
  scope: string,
  filters: Partial<LibraryFilters> = {},
  pageSize = LIBRARY_PAGE_SIZE,
) {
  const query = libraryFilterParams(filters).toString();
  const sized = pageSize === LIBRARY_PAGE_SIZE ? query : `${query}&limit=${pageSize}`;
  // eslint-disable-next-line @tanstack/query/exhaustive-deps -- pageSize is in `sized`
  return infiniteQueryOptions({
    queryKey: sized === '' ? queryKeys.library(scope) : queryKeys.libraryList(scope, sized),
    // Another tab (or device) may have changed it: asked again when this tab is looked at.
    refetchOnWindowFocus: true,
    queryFn: ({ signal, pageParam }) => {
      const params = new URLSearchParams(query);
      params.set('limit', String(pageSize));
      if (pageParam) params.set('cursor', pageParam);
      return kilnFetch(`/api/library?${params.toString()}`, {
        signal,
        parse: (b) => LibraryPageSchema.parse(b),
      });
    },
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: scope !== NO_KEY,
  });
}

/**
 * Every task this key made through Kiln (GET /api/library), newest first; with `filters`, the
 * tasks that match, in their order. While another filter loads, the previous one's tasks stay.
 */
export function useLibrary(filters?: Partial<LibraryFilters>, pageSize?: number) {
  const scope = useKeyScope();
  return useInfiniteQuery({
    ...libraryQuery(scope, filters, pageSize),
    // Another key's tasks are never shown, not even for a moment.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === scope ? keepPreviousData(previous) : undefined,
  });
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
