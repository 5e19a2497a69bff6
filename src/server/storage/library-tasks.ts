// The library's task rows one by one: recorded on create, moved forward by what passes through,
// read, starred, named, hidden and shown again.
import { sql, type Kysely } from 'kysely';
import type { ErrorObject } from '../../contract/index.ts';
import { TERMINAL, toRow, type LibraryRow } from './library-row.ts';
import type { Tables } from './schema.ts';

/** What a response passing through tells about a task. */
interface TaskUpdate {
  status: string;
  progress: number;
  progressStage: string | null;
  completedAt: number | null;
  creditsConsumed: number | null;
  creditsRemaining: number | null;
  /** A vendor's task's cost so far, when its answer says it. */
  cost?: LibraryRow['cost'] | undefined;
  error: ErrorObject | null;
  upstreamModelUrl: string | null;
}

/** A new row: what the create and its answer told (the rest starts empty). */
type NewLibraryRow = Omit<
  LibraryRow,
  | 'seq'
  | 'archiveAttempts'
  | 'archiveError'
  | 'archiveNextMs'
  | 'hidden'
  | 'assetSha256'
  | 'thumbnailSha256'
  | 'favourite'
  | 'name'
  | 'sentMs'
  | 'answeredMs'
  | 'lastPendingMs'
  | 'endedMs'
  | 'cost'
> & {
  sentMs?: number | null;
  answeredMs?: number | null;
  recovered?: boolean;
  cost?: LibraryRow['cost'] | undefined;
};

/** One of the actions of `POST /api/library/bulk`. */
type LibraryBulkAction = 'hide' | 'unhide' | 'favourite' | 'unfavourite';

export interface LibraryTaskStore {
  /** Records a task created through Kiln (no-op when already recorded). */
  insert(row: NewLibraryRow): Promise<void>;
  /** Applies what a response showed to every owner's row of this task. Returns the rows after. */
  update(taskId: string, update: TaskUpdate, nowMs: number): Promise<LibraryRow[]>;
  get(owner: string, taskId: string): Promise<LibraryRow | undefined>;
  /** Stars or unstars one task; false when the owner has no such task. */
  setFavourite(owner: string, taskId: string, favourite: boolean): Promise<boolean>;
  /** Names a task, or clears its name (null); false when the owner has no such task. */
  setName(owner: string, taskId: string, name: string | null): Promise<boolean>;
  /** One action on several of the owner's tasks; returns the ids the owner has (the others are not touched). */
  bulk(owner: string, taskIds: readonly string[], action: LibraryBulkAction): Promise<string[]>;
  hide(owner: string, taskId: string): Promise<boolean>;
  /** Shows a hidden task in the library again; false when the owner has no such task. */
  unhide(owner: string, taskId: string): Promise<boolean>;
}

/** A completed, unarchived task that was never tried is due at once. */
const DUE_WHEN_COMPLETED = (status: string) =>
  sql<
    number | null
  >`case when ${status} = 'completed' and asset_sha256 is null and archive_attempts = 0 and archive_next_ms is null then 0 else archive_next_ms end`;

type Db = Kysely<Tables>;
type Part<K extends keyof LibraryTaskStore> = Pick<LibraryTaskStore, K>;

/** A new row's columns: what the create and its answer told, the refund's windows started. */
function newRowValues(row: NewLibraryRow) {
  return {
    owner: row.owner,
    task_id: row.taskId,
    model: row.model,
    mode: row.mode,
    images_json: JSON.stringify(row.images),
    prompt: row.prompt,
    status: row.status,
    progress: row.progress,
    progress_stage: row.progressStage,
    created: row.created,
    completed_at: row.completedAt,
    created_ms: row.createdMs,
    updated_ms: row.updatedMs,
    credits_consumed: row.creditsConsumed,
    credits_remaining: row.creditsRemaining,
    error_json: row.error ? JSON.stringify(row.error) : null,
    upstream_model_url: row.upstreamModelUrl,
    archive_next_ms: row.status === 'completed' ? 0 : null,
    sent_ms: row.sentMs ?? null,
    answered_ms: row.answeredMs ?? null,
    last_pending_ms: TERMINAL.includes(row.status) ? null : (row.answeredMs ?? row.updatedMs),
    ended_ms: TERMINAL.includes(row.status) ? (row.answeredMs ?? row.updatedMs) : null,
    recovered: row.recovered ? 1 : 0,
    cost_amount: row.cost?.amount ?? null,
    cost_unit: row.cost?.unit ?? null,
  };
}

/** A task's rows as what passes through records them: made on create, moved forward, read. */
function records(db: Db): Part<'insert' | 'update' | 'get'> {
  return {
    async insert(row) {
      await db
        .insertInto('library')
        .values(newRowValues(row))
        .onConflict((oc) => oc.columns(['owner', 'task_id']).doNothing())
        .execute();
    },

    async update(taskId, u, nowMs) {
      await db
        .updateTable('library')
        .set({
          status: u.status,
          progress: u.progress,
          progress_stage: u.progressStage,
          completed_at: u.completedAt,
          // Once a task has ended, this is when: a later read of it (after a restart, on another
          // replica) does not move its end to now.
          updated_ms: sql`case when status in ('completed', 'failed') then updated_ms else ${nowMs} end`,
          credits_consumed: sql`coalesce(${u.creditsConsumed}, credits_consumed)`,
          credits_remaining: sql`coalesce(${u.creditsRemaining}, credits_remaining)`,
          ...(u.cost ? { cost_amount: u.cost.amount, cost_unit: u.cost.unit } : {}),
          error_json: u.error ? JSON.stringify(u.error) : null,
          upstream_model_url: sql`coalesce(${u.upstreamModelUrl}, upstream_model_url)`,
          archive_next_ms: DUE_WHEN_COMPLETED(u.status),
          // The windows of the refund (decision 0076): last seen pending, first seen ended.
          ...(TERMINAL.includes(u.status)
            ? { ended_ms: sql`coalesce(ended_ms, ${nowMs})` }
            : { last_pending_ms: sql`${nowMs}` }),
        })
        .where('task_id', '=', taskId)
        // Forward only: two replicas polling one task at once may answer out of order, and a
        // late "pending 40" must not undo a "completed" (nor a lower percentage a higher one).
        .where((eb) =>
          TERMINAL.includes(u.status)
            ? eb.or([eb('status', 'not in', TERMINAL), eb('status', '=', u.status)])
            : eb.and([eb('status', 'not in', TERMINAL), eb('progress', '<=', u.progress)]),
        )
        .execute();
      const rows = await db
        .selectFrom('library')
        .selectAll()
        .where('task_id', '=', taskId)
        .execute();
      return rows.map(toRow);
    },

    async get(owner, taskId) {
      const r = await db
        .selectFrom('library')
        .selectAll()
        .where('owner', '=', owner)
        .where('task_id', '=', taskId)
        .executeTakeFirst();
      return r && toRow(r);
    },
  };
}

/** Sets one flag of the owner's task; false when the owner has no such task. */
const setFlag =
  (db: Db) =>
  async (
    owner: string,
    taskId: string,
    set: { hidden: number } | { favourite: number } | { name: string | null },
  ) => {
    const r = await db
      .updateTable('library')
      .set(set)
      .where('owner', '=', owner)
      .where('task_id', '=', taskId)
      .executeTakeFirst();
    return r.numUpdatedRows > 0n;
  };
/** What the owner marks a task with: a star, a name, hidden or shown, one task or several. */
function marks(db: Db): Part<'setFavourite' | 'setName' | 'bulk' | 'hide' | 'unhide'> {
  const flag = setFlag(db);
  return {
    setFavourite: (owner, taskId, favourite) =>
      flag(owner, taskId, { favourite: favourite ? 1 : 0 }),

    setName: (owner, taskId, name) => flag(owner, taskId, { name }),

    async bulk(owner, taskIds, action) {
      const ids = [...new Set(taskIds)];
      if (ids.length === 0) return [];
      const set =
        action === 'hide'
          ? { hidden: 1 }
          : action === 'unhide'
            ? { hidden: 0 }
            : { favourite: action === 'favourite' ? 1 : 0 };
      return db.transaction().execute(async (trx) => {
        await trx
          .updateTable('library')
          .set(set)
          .where('owner', '=', owner)
          .where('task_id', 'in', ids)
          .execute();
        const found = await trx
          .selectFrom('library')
          .select('task_id')
          .where('owner', '=', owner)
          .where('task_id', 'in', ids)
          .execute();
        const mine = new Set(found.map((r) => r.task_id));
        return ids.filter((id) => mine.has(id));
      });
    },

    hide: (owner, taskId) => flag(owner, taskId, { hidden: 1 }),
    unhide: (owner, taskId) => flag(owner, taskId, { hidden: 0 }),
  };
}

export function libraryTasks(db: Db): LibraryTaskStore {
  return { ...records(db), ...marks(db) };
}
