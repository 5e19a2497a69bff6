// Collections (decision 0087): an owner's named groups of library models, their members, and
// their public links. A member is a task id of the collection owner's library; removing it, or
// deleting the collection, never touches the model. One store in parts by concern: the
// collections themselves (collection-rows.ts), their members (collection-members.ts) and their
// public links (collection-shares.ts).
import type { Kysely } from 'kysely';
import { collectionMembers, type CollectionMemberStore } from './collection-members.ts';
import { collectionRows, type CollectionRowStore } from './collection-rows.ts';
import { collectionShares, type CollectionShareStore } from './collection-shares.ts';
import type { Tables } from './schema.ts';

export type { CollectionRow, CollectionShareRow } from './collection-rows.ts';
export type { SharedCollection } from './collection-shares.ts';

export interface CollectionStore
  extends CollectionRowStore, CollectionMemberStore, CollectionShareStore {}

export function collectionStore(db: Kysely<Tables>): CollectionStore {
  return { ...collectionRows(db), ...collectionMembers(db), ...collectionShares(db) };
}
