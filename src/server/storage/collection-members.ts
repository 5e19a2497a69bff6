// A collection's members (decision 0087): task ids of its owner's library, added and removed all
// or nothing; removing one never touches the model.
import { sql, type Kysely, type Transaction } from 'kysely';
import { getCollection, type CollectionRow } from './collection-rows.ts';
import { toRow, type LibraryRow } from './library-row.ts';
import type { Tables } from './schema.ts';

/** Ids a members change named that are not the owner's library rows (nothing was applied). */
interface UnknownMembers {
  unknown: { add: string[]; remove: string[] };
}

export interface CollectionMemberStore {
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
}

/** Which of these task ids are the owner's library rows (hidden ones too), 500 at a time. */
async function knownTasks(
  trx: Transaction<Tables>,
  owner: string,
  named: readonly string[],
): Promise<Set<string>> {
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
  return known;
}

/**
 * A members change inside its transaction: `'missing'` when there is no such collection; throws
 * `UnknownMembersError` (undoing it all) when an id is not the owner's.
 */
async function applyChange(
  trx: Transaction<Tables>,
  owner: string,
  id: string,
  change: { add: readonly string[]; remove: readonly string[] },
  nowMs: number,
): Promise<'missing' | 'done'> {
  const add = [...new Set(change.add)];
  const remove = [...new Set(change.remove)];
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
  if (touched.numUpdatedRows === 0n) return 'missing';
  const known = await knownTasks(trx, owner, [...new Set([...add, ...remove])]);
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
  return 'done';
}

export function collectionMembers(db: Kysely<Tables>): CollectionMemberStore {
  const get = (owner: string, id: string) => getCollection(db, owner, id);
  return {
    async changeMembers(owner, id, change, nowMs) {
      const outcome = await db
        .transaction()
        .execute((trx) => applyChange(trx, owner, id, change, nowMs))
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
  };
}

/** Thrown inside a members change to undo it: some ids are not the owner's. */
class UnknownMembersError extends Error {
  constructor(readonly unknown: UnknownMembers['unknown']) {
    super('unknown members');
  }
}
