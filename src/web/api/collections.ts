// Collections (decision 0087): the owner's named groups of library models (listed, made, renamed,
// deleted), who is in them, each one as a zip, and its public, revocable page; and what such a
// page shows to anyone (no key).
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { NotFoundError } from '../../client/errors.ts';
import { kilnCalls, membersSteps } from '../../client/kiln/calls.ts';
import type { Collection, Share } from '../../contract/index.ts';
import { NO_KEY, queryKeys, useKeyScope } from './query-keys.ts';
import { publicLinkFetch, revokeLink } from './share.ts';
import { dispositionName, download, send } from './transport.ts';

/** Gone already (deleted, here or in another tab): as good as done for a delete or a revoke. */
const isGone = (err: unknown) => err instanceof NotFoundError;

// ---- The list --------------------------------------------------------------------------------

/** The owner's collections, by name (`GET /api/collections`). */
function collectionsQuery(scope: string) {
  return queryOptions({
    queryKey: queryKeys.collections(scope),
    queryFn: ({ signal }) => send(kilnCalls.collections.list(), { signal }),
    enabled: scope !== NO_KEY,
    // Another tab may have added one: asked again when this tab is looked at.
    refetchOnWindowFocus: true,
  });
}

export function useCollections() {
  return useQuery(collectionsQuery(useKeyScope()));
}

/**
 * After any change: the collections (names, counts, covers, links) and the library (each entry's
 * `collections`, and the gallery filtered by one) are read again.
 */
function refresh(queryClient: QueryClient, scope: string) {
  void queryClient.invalidateQueries({ queryKey: queryKeys.collections(scope) });
  void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) });
}

/** One collection changed: shown at once in the cached list, before it is read again. */
function patchCached(
  queryClient: QueryClient,
  scope: string,
  id: string,
  change: (c: Collection) => Collection | null,
) {
  queryClient.setQueryData<Collection[]>(queryKeys.collections(scope), (list) =>
    list?.flatMap((c) => {
      if (c.id !== id) return [c];
      const next = change(c);
      return next ? [next] : [];
    }),
  );
}

// ---- Made, renamed, deleted -----------------------------------------------------------------

/**
 * A new collection (`POST /api/collections` `{ name }`). A bad name is a 400 naming `name`, one
 * the owner already uses (whatever its case) a 409 naming `name`: the caller shows either at the
 * field (`describeError`).
 */
export function useCreateCollection() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (name: string) => send(kilnCalls.collections.create(name)),
    onSuccess: (made) => {
      queryClient.setQueryData<Collection[]>(queryKeys.collections(scope), (list) =>
        list ? [...list.filter((c) => c.id !== made.id), made] : list,
      );
      refresh(queryClient, scope);
    },
  });
}

/** Renames a collection (`PATCH /api/collections/{id}` `{ name }`); refusals as for a new one. */
export function useRenameCollection() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      send(kilnCalls.collections.rename(id, name)),
    onSuccess: (renamed) => {
      patchCached(queryClient, scope, renamed.id, () => renamed);
      refresh(queryClient, scope);
    },
  });
}

/**
 * Deletes a collection (`DELETE /api/collections/{id}`): its models stay in the library, and its
 * public page (if any) stops working. One already gone counts as deleted.
 */
export function useDeleteCollection() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: async (id: string) => {
      try {
        await send(kilnCalls.collections.remove(id));
      } catch (err) {
        if (!isGone(err)) throw err;
      }
      return id;
    },
    onSuccess: (id) => {
      patchCached(queryClient, scope, id, () => null);
      refresh(queryClient, scope);
    },
  });
}

// ---- Members ---------------------------------------------------------------------------------

/** What `useCollectionMembers` is asked: library ids to add to a collection, or remove from it. */
export interface MembersChange {
  id: string;
  add?: readonly string[];
  remove?: readonly string[];
}

/**
 * Adds models to a collection and removes others (`POST /api/collections/{id}/models`), in
 * requests of at most COLLECTION_MEMBERS_MAX ids; answers the collection as it then is. Ids that
 * are not the owner's are a 400 naming `add` or `remove` (nothing of that request applied).
 */
export function useCollectionMembers() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: async ({ id, add, remove }: MembersChange): Promise<Collection> => {
      let last: Collection | undefined;
      for (const step of membersSteps(add, remove))
        last = await send(kilnCalls.collections.members(id, step));
      if (!last) throw new Error('Choose at least one model.');
      return last;
    },
    onSuccess: (collection) => patchCached(queryClient, scope, collection.id, () => collection),
    onSettled: () => refresh(queryClient, scope),
  });
}

// ---- The zip ---------------------------------------------------------------------------------

/**
 * Every archived model in a collection as one zip (`GET /api/collections/{id}/download.zip`),
 * named after the collection. The key goes in the Authorization header, so the bytes come here
 * and the caller saves them (as the gallery's selection zip does).
 */
export async function downloadCollectionZip(
  id: string,
  options: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
): Promise<{ blob: Blob; fileName: string }> {
  const { onProgress } = options;
  const { bytes, headers } = await download(
    `/api/collections/${encodeURIComponent(id)}/download.zip`,
    {
      accept: 'application/zip, application/json',
      signal: options.signal,
      ...(onProgress ? { onProgress: (received: number) => onProgress(received) } : {}),
    },
  );
  const fileName = dispositionName(headers.get('content-disposition')) ?? 'kiln-collection.zip';
  return { blob: new Blob([bytes], { type: 'application/zip' }), fileName };
}

// ---- The public link -------------------------------------------------------------------------

/**
 * Makes the public page of a collection (`POST /api/collections/{id}/share`), or answers the one
 * there is. The collection's `share` says it from then on.
 */
export function useShareCollection() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (id: string) => send(kilnCalls.collections.share(id).create()),
    onSuccess: (share: Share, id) => {
      patchCached(queryClient, scope, id, (c) => ({
        ...c,
        share: { url: share.url, created_ms: share.created_ms, embed_html: share.embed_html },
      }));
      void queryClient.invalidateQueries({ queryKey: queryKeys.collections(scope) });
    },
  });
}

/**
 * Stops sharing a collection (`DELETE /api/collections/{id}/share`): its page, pictures and
 * models answer 404 at once. A link already gone counts as stopped.
 */
export function useUnshareCollection() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: (id: string) => revokeLink(kilnCalls.collections.share(id).revoke(), isGone),
    onSuccess: (_none, id) => {
      patchCached(queryClient, scope, id, (c) => ({ ...c, share: null }));
      void queryClient.invalidateQueries({ queryKey: queryKeys.collections(scope) });
    },
  });
}

// ---- What a link shows -----------------------------------------------------------------------

/**
 * What a collection's public page shows (`GET /api/collection-shares/{token}`), asked without a
 * key; null when there is no such link (never made, revoked, or the collection deleted).
 */
const sharedCollectionQuery = (token: string) =>
  queryOptions({
    queryKey: queryKeys.sharedCollection(token),
    ...publicLinkFetch(kilnCalls.collections.public(token)),
  });

export function useSharedCollection(token: string) {
  return useQuery(sharedCollectionQuery(token));
}
