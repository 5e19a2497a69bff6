// Public links to finished models: the owner's link to an entry (read, made, revoked), and what
// a link shows to anyone (no key).
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { NotFoundError } from '../../client/errors.ts';
import { kilnCalls, type Call } from '../../client/kiln/calls.ts';
import {
  ERROR_CODES,
  PublicShareSchema,
  ShareOwnershipSchema,
  ShareSchema,
  type Share,
} from '../../contract/index.ts';
import { inlineShare } from '../lib/inline-share.ts';
import { NO_KEY, queryKeys, useKeyScope } from './query-keys.ts';
import { request, send } from './transport.ts';

/** A link that is not there (never made, or revoked) is `share_not_found`. */
const isNoLink = (err: unknown) =>
  err instanceof NotFoundError && err.code === ERROR_CODES.shareNotFound;

// ---- A link, a model's or a collection's ------------------------------------------------------

/**
 * Revokes the owner's link (`revoke`, a model's or a collection's); an error `gone` says is
 * already stopped (a link already gone counts as stopped).
 */
export async function revokeLink(
  revoke: Call<null>,
  gone: (err: unknown) => boolean,
): Promise<null> {
  try {
    await send(revoke);
  } catch (err) {
    if (!gone(err)) throw err;
  }
  return null;
}

/**
 * How to ask what a public link shows (`call`, which sends no key): null when there is no such
 * link (never made, or revoked); never fresh from a cache (a revoked link must not keep showing).
 */
export function publicLinkFetch<T>(call: Call<T>) {
  return {
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<T | null> => {
      try {
        return await send(call, { signal });
      } catch (err) {
        if (err instanceof NotFoundError) return null;
        throw err;
      }
    },
    staleTime: 0,
  };
}

// ---- The owner's link ------------------------------------------------------------------------

/**
 * The owner's public link to one library entry (`GET /api/library/{id}/share`), or null when
 * the task is not shared.
 */
function shareLinkQuery(scope: string, id: string) {
  return queryOptions({
    queryKey: queryKeys.share(scope, id),
    queryFn: async ({ signal }): Promise<Share | null> => {
      try {
        return await send(kilnCalls.shares.of(id).get(), { signal });
      } catch (err) {
        if (isNoLink(err)) return null;
        throw err;
      }
    },
    enabled: scope !== NO_KEY,
  });
}

export function useShareLink(id: string, options: { enabled?: boolean } = {}) {
  const query = shareLinkQuery(useKeyScope(), id);
  return useQuery({ ...query, enabled: query.enabled !== false && options.enabled !== false });
}

/** The entry and the gallery's pages say whether it is shared: read them again. */
function refreshEntry(queryClient: QueryClient, scope: string, id: string) {
  void queryClient.invalidateQueries({
    queryKey: queryKeys.libraryEntry(scope, id),
    exact: true,
  });
  void queryClient.invalidateQueries({ queryKey: queryKeys.library(scope), exact: true });
}

/**
 * Makes the public link to a finished model (`POST /api/library/{id}/share`), or gets the one
 * there is: sharing twice gives the same link.
 */
export function useCreateShare(id: string) {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: () => send(kilnCalls.shares.of(id).create()),
    onSuccess: (share) => {
      queryClient.setQueryData(queryKeys.share(scope, id), share);
      refreshEntry(queryClient, scope, id);
    },
  });
}

/**
 * Stops sharing a model (`DELETE /api/library/{id}/share`): its page, embed and GLB answer 404
 * from then on. A link already gone counts as stopped.
 */
export function useRevokeShare(id: string) {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: () => revokeLink(kilnCalls.shares.of(id).revoke(), isNoLink),
    onSuccess: () => {
      queryClient.setQueryData(queryKeys.share(scope, id), null);
      refreshEntry(queryClient, scope, id);
    },
  });
}

/**
 * Stops sharing several models at once (`DELETE /api/library/{id}/share` for each, in turn):
 * what a hidden model that is still shared offers (decision 0095). Links already gone count as
 * stopped; the library is read again after, so every card and entry says it is no longer shared.
 */
export function useRevokeShares() {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: async (ids: readonly string[]) => {
      for (const id of ids) {
        await revokeLink(kilnCalls.shares.of(id).revoke(), isNoLink);
        queryClient.setQueryData(queryKeys.share(scope, id), null);
      }
      return ids;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.library(scope) }),
  });
}

/**
 * Makes the link's USDZ for AR Quick Look with `make` (the viewer's export, in this browser) and
 * sends it (`PUT /api/library/{id}/share/model.usdz`); the link then names it (`usdz_url`). The
 * SPA's own (a file this browser made), so sent here rather than by the one client's calls.
 */
export function useUploadShareUsdz(id: string) {
  const queryClient = useQueryClient();
  const scope = useKeyScope();
  return useMutation({
    mutationFn: async (make: () => Promise<Blob>) =>
      request(`/api/library/${encodeURIComponent(id)}/share/model.usdz`, {
        method: 'PUT',
        blob: await make(),
        parse: (b) => ShareSchema.parse(b),
      }),
    onSuccess: (share) => {
      queryClient.setQueryData(queryKeys.share(scope, id), share);
    },
  });
}

// ---- What a link shows -----------------------------------------------------------------------

/**
 * What a public link shows (`GET /api/shares/{token}`), asked without a key; null when there is
 * no such link (never made, or revoked).
 */
const sharedModelQuery = (token: string) =>
  queryOptions({
    queryKey: queryKeys.sharedModel(token),
    ...publicLinkFetch(kilnCalls.shares.public(token)),
    // The facts the server wrote into the page: shown at once, and asked again behind them.
    initialData: () => PublicShareSchema.safeParse(inlineShare(token)).data,
    initialDataUpdatedAt: 0,
  });

export function useSharedModel(token: string) {
  return useQuery(sharedModelQuery(token));
}

/**
 * Whether the link at `token` is this key's own (`GET /api/shares/{token}/mine`): false without
 * a key, for anyone else's link, and while it is being asked. Only the share page asks it, so it
 * is the SPA's own call, not one of the one client's.
 */
export function useOwnsShare(token: string): boolean {
  const scope = useKeyScope();
  const owned = useQuery({
    queryKey: queryKeys.shareOwnership(scope, token),
    queryFn: async ({ signal }): Promise<boolean> => {
      try {
        await request(`/api/shares/${encodeURIComponent(token)}/mine`, {
          signal,
          parse: (b) => ShareOwnershipSchema.parse(b),
        });
        return true;
      } catch (err) {
        if (err instanceof NotFoundError) return false;
        throw err;
      }
    },
    enabled: scope !== NO_KEY,
    retry: false,
  });
  return owned.data === true;
}
