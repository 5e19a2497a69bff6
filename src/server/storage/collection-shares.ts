// A collection's public link (decision 0087): made once, resolved to its shown, archived models,
// revoked; the models' own links keep their USDZ and previews.
import type { Kysely } from 'kysely';
import { getCollection, type CollectionShareRow } from './collection-rows.ts';
import type { Tables } from './schema.ts';
import {
  SHARED_MODEL_COLUMNS,
  previewOf,
  setLinkPreview,
  sharedModelOf,
  type SharedModel,
} from './shares.ts';

/** What a collection's public link shows: its name and its shown, archived models, newest first. */
export interface SharedCollection {
  name: string;
  models: SharedModel[];
  /** The link preview picture made last, and the key of what it was made from. */
  preview: { key: string; sha256: string } | null;
}

export interface CollectionShareStore {
  /** The collection's link: the one there is, or a new one with `token`; undefined: no collection. */
  share(
    owner: string,
    id: string,
    token: string,
    nowMs: number,
  ): Promise<CollectionShareRow | undefined>;
  /** Forgets the collection's link; false when there was none. */
  revokeShare(owner: string, id: string): Promise<boolean>;
  /** What a token shows, or undefined: unknown or revoked. */
  resolveShare(token: string): Promise<SharedCollection | undefined>;
  /** The `n`th model a token shows (0 = newest), or undefined. */
  sharedModel(token: string, n: number): Promise<SharedModel | undefined>;
  /** Remembers a link's preview picture and what it was made from (no link: nothing). */
  setPreview(token: string, preview: { key: string; sha256: string }): Promise<void>;
}

/** A member as a collection's page shows it: its USDZ and link preview belong to its own link. */
function sharedMemberOf(r: Parameters<typeof sharedModelOf>[0]): SharedModel | undefined {
  const model = sharedModelOf(r);
  // A model's USDZ and link preview belong to its own link (decisions 0089, 0090), not to a
  // collection's page.
  return model && { ...model, usdzSha256: null, preview: null };
}

/** The shown, archived models of a shared collection, newest first (`offset`/`limit` for one). */
const sharedModels = (db: Kysely<Tables>, token: string) =>
  db
    .selectFrom('collection_shares as s')
    .innerJoin('collections as c', 'c.id', 's.collection_id')
    .innerJoin('collection_models as m', 'm.collection_id', 'c.id')
    .innerJoin('library as l', (j) =>
      j.onRef('l.owner', '=', 'c.owner').onRef('l.task_id', '=', 'm.task_id'),
    )
    .select(SHARED_MODEL_COLUMNS)
    .where('s.token', '=', token)
    .where('l.hidden', '=', 0)
    .where('l.status', '=', 'completed')
    .where('l.asset_sha256', 'is not', null)
    .orderBy('l.seq', 'desc');

export function collectionShares(db: Kysely<Tables>): CollectionShareStore {
  return {
    async share(owner, id, token, nowMs) {
      if (!(await getCollection(db, owner, id))) return undefined;
      await db
        .insertInto('collection_shares')
        .values({ token, collection_id: id, owner, created_ms: nowMs })
        .onConflict((oc) => oc.column('collection_id').doNothing())
        .execute();
      const r = await db
        .selectFrom('collection_shares')
        .select(['token', 'created_ms'])
        .where('collection_id', '=', id)
        .where('owner', '=', owner)
        .executeTakeFirst();
      // Revoked (or deleted) between the insert and the read: the link asked for, as made.
      return r ? { token: r.token, createdMs: Number(r.created_ms) } : { token, createdMs: nowMs };
    },

    async revokeShare(owner, id) {
      const r = await db
        .deleteFrom('collection_shares')
        .where('owner', '=', owner)
        .where('collection_id', '=', id)
        .executeTakeFirst();
      return r.numDeletedRows > 0n;
    },

    async resolveShare(token) {
      const c = await db
        .selectFrom('collection_shares as s')
        .innerJoin('collections as c', (j) =>
          j.onRef('c.id', '=', 's.collection_id').onRef('c.owner', '=', 's.owner'),
        )
        .select(['c.name', 's.preview_key', 's.preview_sha256'])
        .where('s.token', '=', token)
        .executeTakeFirst();
      if (!c) return undefined;
      const rows = await sharedModels(db, token).execute();
      return {
        name: c.name,
        models: rows.map(sharedMemberOf).filter((m): m is SharedModel => m !== undefined),
        preview: previewOf(c),
      };
    },

    async sharedModel(token, n) {
      const r = await sharedModels(db, token).limit(1).offset(n).executeTakeFirst();
      return r && sharedMemberOf(r);
    },

    setPreview: (token, preview) => setLinkPreview(db, 'collection_shares', token, preview),
  };
}
