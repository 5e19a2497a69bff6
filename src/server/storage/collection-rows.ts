// Collections themselves (decision 0087): an owner's named groups, made, read, renamed and
// deleted. Their members are in collection-members.ts, their public links in collection-shares.ts.
import type { Kysely } from 'kysely';
import type { Tables } from './schema.ts';

/** A collection as its owner sees it. */
export interface CollectionRow {
  id: string;
  name: string;
  /** How many models are in it (hidden ones included). */
  count: number;
  /** The newest shown member's picture, when one has been drawn. */
  coverSha256: string | null;
  createdMs: number;
  updatedMs: number;
  /** Its public link, when it is shared. */
  share: CollectionShareRow | null;
}

export interface CollectionShareRow {
  token: string;
  createdMs: number;
}

export interface CollectionRowStore {
  /**
   * A new collection; `'name_taken'` when the owner has one by that name regardless of case
   * (two creates of one name at once: one wins, the other is told so).
   */
  create(
    owner: string,
    id: string,
    name: string,
    nowMs: number,
  ): Promise<CollectionRow | 'name_taken'>;
  /** The owner's collections, by name. */
  list(owner: string): Promise<CollectionRow[]>;
  get(owner: string, id: string): Promise<CollectionRow | undefined>;
  /** Undefined when the owner has no such collection. */
  rename(
    owner: string,
    id: string,
    name: string,
    nowMs: number,
  ): Promise<CollectionRow | 'name_taken' | undefined>;
  /** Deletes the collection, its members and its link; false when there was none. */
  remove(owner: string, id: string): Promise<boolean>;
}

/** The key a name is unique by: lower-cased (after NFC, so "é" typed two ways is one name). */
const nameKeyOf = (name: string) => name.normalize('NFC').toLowerCase();

/** A unique constraint said no (SQLite or PostgreSQL). */
function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The owner's collections (one, or all by name) with their counts, covers and links. */
async function readCollections(
  db: Kysely<Tables>,
  owner: string,
  id?: string,
): Promise<CollectionRow[]> {
  let q = db
    .selectFrom('collections as c')
    .leftJoin('collection_shares as s', 's.collection_id', 'c.id')
    .select((eb) => [
      'c.id',
      'c.name',
      'c.created_ms',
      'c.updated_ms',
      's.token',
      's.created_ms as shared_ms',
      eb
        .selectFrom('collection_models as m')
        .innerJoin('library as l', (j) =>
          j.onRef('l.task_id', '=', 'm.task_id').onRef('l.owner', '=', 'c.owner'),
        )
        .whereRef('m.collection_id', '=', 'c.id')
        .select((e) => e.fn.countAll<number>().as('n'))
        .as('count'),
      eb
        .selectFrom('collection_models as m')
        .innerJoin('library as l', (j) =>
          j.onRef('l.task_id', '=', 'm.task_id').onRef('l.owner', '=', 'c.owner'),
        )
        .whereRef('m.collection_id', '=', 'c.id')
        .where('l.hidden', '=', 0)
        .where('l.thumbnail_sha256', 'is not', null)
        .orderBy('l.seq', 'desc')
        .limit(1)
        .select('l.thumbnail_sha256')
        .as('cover'),
    ])
    .where('c.owner', '=', owner);
  if (id !== undefined) q = q.where('c.id', '=', id);
  const rows = await q.orderBy('c.name_key').orderBy('c.id').execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    count: Number(r.count ?? 0),
    coverSha256: r.cover ?? null,
    createdMs: Number(r.created_ms),
    updatedMs: Number(r.updated_ms),
    share:
      r.token != null && r.shared_ms != null
        ? { token: r.token, createdMs: Number(r.shared_ms) }
        : null,
  }));
}

/** One of the owner's collections, or undefined. */
export const getCollection = async (db: Kysely<Tables>, owner: string, id: string) =>
  (await readCollections(db, owner, id))[0];

export function collectionRows(db: Kysely<Tables>): CollectionRowStore {
  const get = (owner: string, id: string) => getCollection(db, owner, id);
  return {
    async create(owner, id, name, nowMs) {
      const r = await db
        .insertInto('collections')
        .values({
          id,
          owner,
          name,
          name_key: nameKeyOf(name),
          created_ms: nowMs,
          updated_ms: nowMs,
        })
        .onConflict((oc) => oc.columns(['owner', 'name_key']).doNothing())
        .executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0n) === 0) return 'name_taken';
      return (await get(owner, id)) ?? 'name_taken';
    },

    list: (owner) => readCollections(db, owner),
    get,

    async rename(owner, id, name, nowMs) {
      try {
        const r = await db
          .updateTable('collections')
          .set({ name, name_key: nameKeyOf(name), updated_ms: nowMs })
          .where('owner', '=', owner)
          .where('id', '=', id)
          .executeTakeFirst();
        if (r.numUpdatedRows === 0n) return undefined;
      } catch (err) {
        if (isUniqueViolation(err)) return 'name_taken';
        throw err;
      }
      return get(owner, id);
    },

    async remove(owner, id) {
      return db.transaction().execute(async (trx) => {
        // The collection's row first: a members change under way on another replica holds it
        // (PostgreSQL), so that change lands before this delete or finds no collection.
        const r = await trx
          .deleteFrom('collections')
          .where('owner', '=', owner)
          .where('id', '=', id)
          .executeTakeFirst();
        if (r.numDeletedRows === 0n) return false;
        await trx.deleteFrom('collection_models').where('collection_id', '=', id).execute();
        await trx.deleteFrom('collection_shares').where('collection_id', '=', id).execute();
        return true;
      });
    },
  };
}
