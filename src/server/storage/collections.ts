// Collections (decision 0087): an owner's named groups of library models, their members, and
// their public links. A member is a task id of the collection owner's library; removing it, or
// deleting the collection, never touches the model.
import { sql, type Kysely } from 'kysely';
import { toRow, type LibraryRow } from './library-row.ts';
import type { Tables } from './schema.ts';
import {
  SHARED_MODEL_COLUMNS,
  previewOf,
  setLinkPreview,
  sharedModelOf,
  type SharedModel,
} from './shares.ts';

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

/** What a collection's public link shows: its name and its shown, archived models, newest first. */
export interface SharedCollection {
  name: string;
  models: SharedModel[];
  /** The link preview picture made last, and the key of what it was made from. */
  preview: { key: string; sha256: string } | null;
}

/** Ids a members change named that are not the owner's library rows (nothing was applied). */
interface UnknownMembers {
  unknown: { add: string[]; remove: string[] };
}

export interface CollectionStore {
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
  /**
   * Adds and removes members, all or nothing: every id must be one of the owner's library rows
   * (hidden ones too), else nothing is applied and the unknown ones are answered. Adding a
   * member that is there already (another replica at the same moment) is no error. Undefined
   * when the owner has no such collection.
   */
  changeMembers(
    owner: string,
    id: string,
    change: { add: readonly string[]; remove: readonly string[] },
    nowMs: number,
  ): Promise<CollectionRow | UnknownMembers | undefined>;
  /** The owner's collections holding each of these tasks, by task id (one query). */
  memberships(owner: string, taskIds: readonly string[]): Promise<Map<string, string[]>>;
  /** Every member's library row (hidden ones too), newest first. */
  members(owner: string, id: string): Promise<LibraryRow[]>;
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

/** The key a name is unique by: lower-cased (after NFC, so "é" typed two ways is one name). */
const nameKeyOf = (name: string) => name.normalize('NFC').toLowerCase();

/** A unique constraint said no (SQLite or PostgreSQL). */
function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** A member as a collection's page shows it: its USDZ and link preview belong to its own link. */
function sharedMemberOf(r: Parameters<typeof sharedModelOf>[0]): SharedModel | undefined {
  const model = sharedModelOf(r);
  // A model's USDZ and link preview belong to its own link (decisions 0089, 0090), not to a
  // collection's page.
  return model && { ...model, usdzSha256: null, preview: null };
}

export function collectionStore(db: Kysely<Tables>): CollectionStore {
  /** The owner's collections (one, or all by name) with their counts, covers and links. */
  const read = async (owner: string, id?: string): Promise<CollectionRow[]> => {
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
  };
  const get = async (owner: string, id: string) => (await read(owner, id))[0];

  /** The shown, archived models of a shared collection, newest first (`offset`/`limit` for one). */
  const sharedModels = (token: string) =>
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

    list: (owner) => read(owner),
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

    async changeMembers(owner, id, change, nowMs) {
      const add = [...new Set(change.add)];
      const remove = [...new Set(change.remove)];
      const named = [...new Set([...add, ...remove])];
      const outcome = await db
        .transaction()
        .execute(async (trx) => {
          // Touching the collection's row first claims it until this change is done (a delete on
          // another replica waits) and says whether there is one.
          const touched = await trx
            .updateTable('collections')
            .set({
              updated_ms: sql<number>`case when updated_ms > ${nowMs} then updated_ms else ${nowMs} end`,
            })
            .where('owner', '=', owner)
            .where('id', '=', id)
            .executeTakeFirst();
          if (touched.numUpdatedRows === 0n) return 'missing' as const;
          const known = new Set<string>();
          for (let i = 0; i < named.length; i += 500) {
            const rows = await trx
              .selectFrom('library')
              .select('task_id')
              .where('owner', '=', owner)
              .where('task_id', 'in', named.slice(i, i + 500))
              .execute();
            for (const r of rows) known.add(r.task_id);
          }
          const unknown = {
            add: add.filter((t) => !known.has(t)),
            remove: remove.filter((t) => !known.has(t)),
          };
          if (unknown.add.length > 0 || unknown.remove.length > 0) {
            // All or nothing: the touch above is undone with the rest.
            throw new UnknownMembersError(unknown);
          }
          if (add.length > 0)
            await trx
              .insertInto('collection_models')
              .values(add.map((task_id) => ({ collection_id: id, task_id, added_ms: nowMs })))
              .onConflict((oc) => oc.columns(['collection_id', 'task_id']).doNothing())
              .execute();
          if (remove.length > 0)
            await trx
              .deleteFrom('collection_models')
              .where('collection_id', '=', id)
              .where('task_id', 'in', remove)
              .execute();
          return 'done' as const;
        })
        .catch((err: unknown) => {
          if (err instanceof UnknownMembersError) return { unknown: err.unknown };
          throw err;
        });
      if (outcome === 'missing') return undefined;
      if (outcome !== 'done') return outcome;
      return get(owner, id);
    },

    async memberships(owner, taskIds) {
      const found = new Map<string, string[]>();
      if (taskIds.length === 0) return found;
      const rows = await db
        .selectFrom('collection_models as m')
        .innerJoin('collections as c', 'c.id', 'm.collection_id')
        .select(['m.task_id', 'm.collection_id'])
        .where('c.owner', '=', owner)
        .where('m.task_id', 'in', [...new Set(taskIds)])
        .orderBy('c.name_key')
        .orderBy('c.id')
        .execute();
      for (const r of rows)
        found.set(r.task_id, [...(found.get(r.task_id) ?? []), r.collection_id]);
      return found;
    },

    async members(owner, id) {
      const rows = await db
        .selectFrom('collection_models as m')
        .innerJoin('collections as c', 'c.id', 'm.collection_id')
        .innerJoin('library', (j) =>
          j.onRef('library.owner', '=', 'c.owner').onRef('library.task_id', '=', 'm.task_id'),
        )
        .selectAll('library')
        .where('c.owner', '=', owner)
        .where('c.id', '=', id)
        .orderBy('library.seq', 'desc')
        .execute();
      return rows.map(toRow);
    },

    async share(owner, id, token, nowMs) {
      if (!(await get(owner, id))) return undefined;
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
      const rows = await sharedModels(token).execute();
      return {
        name: c.name,
        models: rows.map(sharedMemberOf).filter((m): m is SharedModel => m !== undefined),
        preview: previewOf(c),
      };
    },

    async sharedModel(token, n) {
      const r = await sharedModels(token).limit(1).offset(n).executeTakeFirst();
      return r && sharedMemberOf(r);
    },

    setPreview: (token, preview) => setLinkPreview(db, 'collection_shares', token, preview),
  };
}

/** Thrown inside a members change to undo it: some ids are not the owner's. */
class UnknownMembersError extends Error {
  constructor(readonly unknown: UnknownMembers['unknown']) {
    super('unknown members');
  }
}
