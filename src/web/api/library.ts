// The library, Kiln's record of the tasks a key made (`/api/library`): its pages (searched,
// filtered, sorted), one entry, an entry's other generations of the same input, stars, names, hiding,
// actions on many entries, the pictures browsers draw of models, and the models as one zip.
import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import {
  LIBRARY_BULK_MAX,
  LibraryEntrySchema,
  type LibraryBulk,
  type LibraryBulkResult,
  type LibraryEntry,
  type LibraryPage,
} from '../../contract/index.ts';
import { kilnCalls } from '../../client/kiln/calls.ts';
import { libraryFilterParams, type LibraryFilters } from '../../client/kiln/library-filters.ts';
import { NO_KEY, queryKeys, useKeyScope } from './query-keys.ts';
import { dispositionName, download, request, send } from './transport.ts';

// The gallery's filters have one home, the one client's (what the MCP server and `kiln ls` ask too).
export {
  NO_FILTERS,
  libraryFilterParams,
  type LibraryFilters,
  type ProviderName,
} from '../../client/kiln/library-filters.ts';

// ---- Pages -----------------------------------------------------------------------------------

const LIBRARY_PAGE_SIZE = 24;

/**
 * How soon to read an entry again while its model waits for Kiln's copy (decision 0095): a
 * little after the archive's next try, between 5 s and a minute from `now`, so that what the page
 * says about the wait (a store that cannot be reached, a retry) goes by itself once the copy is
 * kept; false when nothing waits.
 */
export function archiveRecheckMs(
  entry: Pick<LibraryEntry, 'status' | 'archive'> | undefined,
  now = Date.now(),
): number | false {
  const archive = entry?.archive;
  if (entry?.status !== 'completed' || !archive) return false;
  if (archive.state !== 'pending' && archive.state !== 'retrying') return false;
  const next = archive.next_attempt_ms ?? now;
  return Math.min(60_000, Math.max(5_000, next - now + 2_000));
}

/**
 * The same for a list: the soonest of its entries that wait on a first copy or on Kiln's own
 * store (a plain retry, minutes away, is said with its time and read again on focus).
 */
export function listRecheckMs(
  entries: Iterable<Pick<LibraryEntry, 'status' | 'archive'>>,
  now = Date.now(),
): number | false {
  let soonest: number | false = false;
  for (const entry of entries) {
    if (entry.archive?.state !== 'pending' && !entry.archive?.outage) continue;
    const ms = archiveRecheckMs(entry, now);
    if (ms !== false && (soonest === false || ms < soonest)) soonest = ms;
  }
  return soonest;
}

/**
 * The library's pages (GET /api/library), newest first unless filters say otherwise. Without
 * filters this is the one list the studio, the viewer and the credits page share
 * (`queryKeys.library`); with them, a list of its own under the same prefix.
 */
function libraryQuery(
  scope: string,
  filters: Partial<LibraryFilters> = {},
  pageSize = LIBRARY_PAGE_SIZE,
) {
  const query = libraryFilterParams(filters).toString();
  const sized = pageSize === LIBRARY_PAGE_SIZE ? query : `${query}&limit=${pageSize}`;
  // eslint-disable-next-line @tanstack/query/exhaustive-deps -- filters and pageSize are in `sized`
  return infiniteQueryOptions({
    queryKey: sized === '' ? queryKeys.library(scope) : queryKeys.libraryList(scope, sized),
    // Another tab (or device) may have changed it: asked again when this tab is looked at.
    refetchOnWindowFocus: true,
    // A model waiting for Kiln's copy is read again until it is kept.
    refetchInterval: (query: { state: { data?: InfiniteData<LibraryPage> | undefined } }) =>
      listRecheckMs((query.state.data?.pages ?? []).flatMap((p) => p.data)),
    queryFn: ({ signal, pageParam }) =>
      send(kilnCalls.library.list(filters, { limit: pageSize, cursor: pageParam }), { signal }),
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

// ---- One entry -------------------------------------------------------------------------------

/** One library entry (GET /api/library/{id}): inputs, archived model URL, credits. */
export function entryQuery(scope: string, id: string) {
  return queryOptions({
    // Under queryKeys.library(scope) so that refreshing the library refreshes entries too.
    queryKey: queryKeys.libraryEntry(scope, id),
    queryFn: ({ signal }) => send(kilnCalls.library.get(id), { signal }),
    // A model waiting for Kiln's copy is read again until it is kept.
    refetchInterval: (query) => archiveRecheckMs(query.state.data),
    enabled: scope !== NO_KEY,
  });
}

export function useLibraryEntry(id: string) {
  return useQuery(entryQuery(useKeyScope(), id));
}

// ---- Same input ------------------------------------------------------------------------------

/**
 * This key's other completed generations of an entry's input, the same prompt or the same
 * photos (`GET /api/library/{id}/same-input`), newest first: what "Compare with…" offers.
 */
function sameInputQuery(scope: string, id: string, enabled = true) {
  return queryOptions({
    queryKey: queryKeys.sameInput(scope, id),
    queryFn: ({ signal }) => send(kilnCalls.library.sameInput(id), { signal }),
    enabled: enabled && scope !== NO_KEY,
    staleTime: 30_000,
  });
}

export function useSameInput(id: string, enabled = true) {
  return useQuery(sameInputQuery(useKeyScope(), id, enabled));
}

// ---- Stars -----------------------------------------------------------------------------------

/**
 * Changes entries wherever the library is cached (its pages, filtered lists, single entries),
 * so a star shows at once in every list. Lists are not refetched: a card unstarred under
 * "Favourites" stays until the list is read again, instead of jumping away under the pointer.
 */
function patchCachedEntries(
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
      send(kilnCalls.library.patch(id, { favourite })),
    onMutate: ({ id, favourite }) =>
      patchCachedEntries(queryClient, scope, new Set([id]), { favourite }),
    onError: (_err, { id, favourite }) =>
      patchCachedEntries(queryClient, scope, new Set([id]), { favourite: !favourite }),
    onSuccess: (entry) =>
      patchCachedEntries(queryClient, scope, new Set([entry.id]), { favourite: entry.favourite }),
  });
}

// ---- Names ------------------------------------------------------------------------------------

/**
 * Names a task, renames it or clears its name (`PATCH /api/library/{id}` with `name`; null
 * clears it, decision 0085). The new name shows at once everywhere the entry is cached and goes
 * back if the server refuses it (its 400 names `name`: the caller shows it at the field); the
 * library's lists are read again when next shown, so a search sees the name.
 */
export function useRenameTask() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string | null; previous: string | null }) =>
      send(kilnCalls.library.patch(id, { name })),
    onMutate: ({ id, name }) =>
      patchCachedEntries(queryClient, scope, new Set([id]), { name: name?.trim() || null }),
    onError: (_err, { id, previous }) =>
      patchCachedEntries(queryClient, scope, new Set([id]), { name: previous }),
    onSuccess: (entry) =>
      patchCachedEntries(queryClient, scope, new Set([entry.id]), { name: entry.name ?? null }),
    // Every list is marked stale, to be read again when next shown, but none now: a card
    // renamed under a search it no longer matches stays until the search changes, instead of
    // vanishing under the pointer (as a star does).
    onSettled: () =>
      queryClient.invalidateQueries({ queryKey: queryKeys.library(scope), refetchType: 'none' }),
  });
}

// ---- Hide ------------------------------------------------------------------------------------

/** Hide one task from the library (DELETE /api/library/{id}). */
export function useHideTask() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (id: string) => send(kilnCalls.library.hide(id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) }),
  });
}

/** Shows a hidden task again (`PATCH /api/library/{id}`): the gallery's Undo, the task's Unhide. */
export function useUnhideTask() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (id: string) => send(kilnCalls.library.patch(id, { hidden: false })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) }),
  });
}

// ---- Many at once ----------------------------------------------------------------------------

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
          await send(kilnCalls.library.bulk({ ids: ids.slice(i, i + LIBRARY_BULK_MAX), action })),
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

// ---- Pictures --------------------------------------------------------------------------------

/**
 * `PUT /api/library/{id}/thumbnail`: keeps a picture of an entry's model. The SPA's own (a picture
 * this browser drew), so sent here rather than by the one client's calls (JSON bodies only).
 */
function keepThumbnail(id: string, picture: Blob): Promise<LibraryEntry> {
  return request(`/api/library/${encodeURIComponent(id)}/thumbnail`, {
    method: 'PUT',
    blob: picture,
    parse: (b) => LibraryEntrySchema.parse(b),
  });
}

/**
 * Keeps a picture of a library entry's model: the first browser to show an archived model draws
 * it once, and the gallery shows it from then on. A failure costs nothing (the gallery shows the
 * input photo), so it is not reported.
 */
export function useKeepThumbnail(id: string) {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (picture: Blob) => keepThumbnail(id, picture),
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
    mutationFn: ({ id, picture }: { id: string; picture: Blob }) => keepThumbnail(id, picture),
    onSuccess: (entry) => {
      queryClient.setQueryData(queryKeys.libraryEntry(scope, entry.id), entry);
      void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) });
    },
  });
}

// ---- Zip -------------------------------------------------------------------------------------

/** The most task ids one zip takes (the server's limit, `ZIP_MAX_IDS`). */
export const ZIP_MAX_IDS = 100;

/** `GET /api/library/download.zip?ids=…` for these tasks. */
function modelsZipPath(ids: readonly string[]): string {
  return `/api/library/download.zip?ids=${ids.map(encodeURIComponent).join(',')}`;
}

/**
 * One zip of the caller's archived models of these tasks (the server streams it; a task that
 * has none is listed in the zip's README.txt). The key goes in the Authorization header, so the
 * browser cannot fetch it by a plain link: the bytes come here, and the caller saves them.
 * Errors are the client's typed errors (`NotFoundError` when none has a model yet).
 */
export async function downloadModelsZip(
  ids: readonly string[],
  options: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
): Promise<{ blob: Blob; fileName: string }> {
  const { onProgress } = options;
  const { bytes, headers } = await download(modelsZipPath(ids), {
    accept: 'application/zip, application/json',
    signal: options.signal,
    ...(onProgress ? { onProgress: (received: number) => onProgress(received) } : {}),
  });
  const fileName = dispositionName(headers.get('content-disposition')) ?? 'kiln-models.zip';
  return { blob: new Blob([bytes], { type: 'application/zip' }), fileName };
}
