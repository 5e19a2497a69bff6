// What the collection routes' handlers share: their dependencies, how a collection is shown to
// its owner, and the one way a route finds the owner's collection named by `:id`.
import type { Context } from 'hono';
import { ApiError } from '../../http/index.ts';
import { ERROR_CODES, type Collection } from '../../contract/index.ts';
import { ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import type { OwnerOf } from '../owner-id.ts';
import { baseOf } from '../share/public-link.ts';
import { newShareToken } from '../share/service.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { CollectionRow, CollectionStore } from '../storage/collections.ts';
import { collectionView, isCollectionId, newCollectionId } from './service.ts';

export interface CollectionRouteDeps {
  collections: CollectionStore;
  blobs: BlobStore;
  ownerOf: OwnerOf;
  /** Signs the owner's file addresses (a collection's cover); none: bare paths (tests). */
  sign?: (path: string) => string;
  /** PUBLIC_URL: the origin links are made on; else the request's own. */
  publicUrl?: string | undefined;
  now: () => number;
  log?: (message: string) => void;
  /** A new link token (tests may fix it); default: 144 random bits. */
  newToken?: () => string;
  /** A new collection id (tests may fix it). */
  newId?: () => string;
}

export interface CollectionContext {
  deps: CollectionRouteDeps;
  newId: () => string;
  newToken: () => string;
  /** A collection as its owner sees it. */
  view: (c: Context, row: CollectionRow) => Collection;
  /** The owner's collection named by `:id`, or 404 (a malformed id without a read). */
  theCollection: (c: Context<OwnerEnv>) => Promise<CollectionRow>;
}

export const notFound = () =>
  new ApiError(404, {
    code: ERROR_CODES.collectionNotFound,
    message: 'No such collection in your library: it was never made, or it was deleted.',
    param: 'id',
  });

export function collectionContext(deps: CollectionRouteDeps): CollectionContext {
  const sign = deps.sign ?? ((path: string) => path);
  return {
    deps,
    newId: deps.newId ?? newCollectionId,
    newToken: deps.newToken ?? newShareToken,
    view: (c, row) => collectionView(baseOf(c, deps.publicUrl), row, sign),
    theCollection: async (c) => {
      const id = c.req.param('id') ?? '';
      const row = isCollectionId(id) ? await deps.collections.get(theOwner(c), id) : undefined;
      if (!row) throw notFound();
      return row;
    },
  };
}
