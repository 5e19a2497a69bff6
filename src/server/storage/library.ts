import { sql, type Kysely, type Selectable } from 'kysely';
import type { ErrorObject, LibraryImage } from '../../contract/index.ts';
import type { Tables } from './schema.ts';

/** One task made through Kiln, as stored (owner = HMAC of the API key, never the key). */
export interface LibraryRow {
  owner: string;
  taskId: string;
  model: string;
  mode: 'sync' | 'async';
  images: LibraryImage[];
  prompt: string | null;
  status: string;
  progress: number;
  progressStage: string | null;
  created: number;
  completedAt: number | null;
  createdMs: number;
  updatedMs: number;
  creditsConsumed: number | null;
  creditsRemaining: number | null;
  error: ErrorObject | null;
  upstreamModelUrl: string | null;
  assetSha256: string | null;
  archiveAttempts: number;
  archiveError: string | null;
  /** When the archive is tried again; null when archived or given up. */
  archiveNextMs: number | null;
  hidden: boolean;
  /** The picture of the archived model, when a browser has drawn one. */
  thumbnailSha256: string | null;
  seq: number;
}

/** What a response passing through tells about a task. */
export interface TaskUpdate {
  status: string;
  progress: number;
  progressStage: string | null;
  completedAt: number | null;
  creditsConsumed: number | null;
  creditsRemaining: number | null;
  error: ErrorObject | null;
  upstreamModelUrl: string | null;
}

/** Library rows and balances: every task made through Kiln, and what each key's balance was. */
export interface LibraryStore {
  /** Records a task created through Kiln (no-op when already recorded). */
  insert(
    row: Omit<
      LibraryRow,
      | 'seq'
      | 'archiveAttempts'
      | 'archiveError'
      | 'archiveNextMs'
      | 'hidden'
      | 'assetSha256'
      | 'thumbnailSha256'
    >,
  ): Promise<void>;
  /** Applies what a response showed to every owner's row of this task. Returns the rows after. */
  update(taskId: string, update: TaskUpdate, nowMs: number): Promise<LibraryRow[]>;
  get(owner: string, taskId: string): Promise<LibraryRow | undefined>;
  /** Newest first; `beforeSeq` is the cursor. Hidden rows are left out. */
  list(
    owner: string,
    options: { limit: number; beforeSeq?: number | undefined },
  ): Promise<LibraryRow[]>;
  hide(owner: string, taskId: string): Promise<boolean>;
  /** Shows a hidden task in the library again; false when the owner has no such task. */
  unhide(owner: string, taskId: string): Promise<boolean>;
  archived(taskId: string, sha256: string): Promise<void>;
  /**
   * Keeps a picture of the owner's archived model. The first one stays: false when the task is
   * not the owner's, not archived yet, or already has its picture.
   */
  setThumbnail(owner: string, taskId: string, sha256: string): Promise<boolean>;
  /** Counts a failed attempt; `nextMs` is when to try again, or null to give up. */
  archiveFailed(taskId: string, error: string, nextMs: number | null): Promise<void>;
  /** Completed tasks whose archive is due (never tried, or a retry whose time has come). */
  archiveDue(nowMs: number, limit: number): Promise<LibraryRow[]>;

  /** Appends a balance when it differs from the last one known. */
  recordBalance(
    owner: string,
    balance: number,
    nowMs: number,
    taskId: string | null,
  ): Promise<void>;
  balances(
    owner: string,
    limit: number,
  ): Promise<{ balance: number; learnedMs: number; taskId: string | null }[]>;
}

function toRow(r: Selectable<Tables['library']>): LibraryRow {
  return {
    owner: r.owner,
    taskId: r.task_id,
    model: r.model,
    mode: r.mode === 'sync' ? 'sync' : 'async',
    images: JSON.parse(r.images_json) as LibraryImage[],
    prompt: r.prompt,
    status: r.status,
    progress: r.progress,
    progressStage: r.progress_stage,
    created: Number(r.created),
    completedAt: r.completed_at === null ? null : Number(r.completed_at),
    createdMs: Number(r.created_ms),
    updatedMs: Number(r.updated_ms),
    creditsConsumed: r.credits_consumed,
    creditsRemaining: r.credits_remaining,
    error: r.error_json ? (JSON.parse(r.error_json) as ErrorObject) : null,
    upstreamModelUrl: r.upstream_model_url,
    assetSha256: r.asset_sha256,
    archiveAttempts: r.archive_attempts,
    archiveError: r.archive_error,
    archiveNextMs: r.archive_next_ms === null ? null : Number(r.archive_next_ms),
    hidden: Number(r.hidden) === 1,
    thumbnailSha256: r.thumbnail_sha256 ?? null,
    seq: Number(r.seq),
  };
}

/** A completed, unarchived task that was never tried is due at once. */
const DUE_WHEN_COMPLETED = (status: string) =>
  sql<
    number | null
  >`case when ${status} = 'completed' and asset_sha256 is null and archive_attempts = 0 and archive_next_ms is null then 0 else archive_next_ms end`;

/** Statuses a task never leaves. */
const TERMINAL = ['completed', 'failed'];

export function libraryStore(db: Kysely<Tables>): LibraryStore {
  return {
    async insert(row) {
      await db
        .insertInto('library')
        .values({
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
        })
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
          error_json: u.error ? JSON.stringify(u.error) : null,
          upstream_model_url: sql`coalesce(${u.upstreamModelUrl}, upstream_model_url)`,
          archive_next_ms: DUE_WHEN_COMPLETED(u.status),
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

    async list(owner, { limit, beforeSeq }) {
      let q = db
        .selectFrom('library')
        .selectAll()
        .where('owner', '=', owner)
        .where('hidden', '=', 0);
      if (beforeSeq !== undefined) q = q.where('seq', '<', beforeSeq);
      const rows = await q.orderBy('seq', 'desc').limit(limit).execute();
      return rows.map(toRow);
    },

    async hide(owner, taskId) {
      const r = await db
        .updateTable('library')
        .set({ hidden: 1 })
        .where('owner', '=', owner)
        .where('task_id', '=', taskId)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    async unhide(owner, taskId) {
      const r = await db
        .updateTable('library')
        .set({ hidden: 0 })
        .where('owner', '=', owner)
        .where('task_id', '=', taskId)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    async archived(taskId, sha256) {
      await db
        .updateTable('library')
        .set({
          asset_sha256: sha256,
          archive_error: null,
          archive_next_ms: null,
          archive_attempts: sql`archive_attempts + 1`,
        })
        .where('task_id', '=', taskId)
        .execute();
    },

    async setThumbnail(owner, taskId, sha256) {
      const r = await db
        .updateTable('library')
        .set({ thumbnail_sha256: sha256 })
        .where('owner', '=', owner)
        .where('task_id', '=', taskId)
        .where('asset_sha256', 'is not', null)
        .where('thumbnail_sha256', 'is', null)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    async archiveFailed(taskId, message, nextMs) {
      await db
        .updateTable('library')
        .set({
          archive_error: message,
          archive_next_ms: nextMs,
          archive_attempts: sql`archive_attempts + 1`,
        })
        .where('task_id', '=', taskId)
        .where('asset_sha256', 'is', null)
        .execute();
    },

    async archiveDue(nowMs, limit) {
      const rows = await db
        .selectFrom('library')
        .selectAll()
        .where('archive_next_ms', '<=', nowMs)
        .where('asset_sha256', 'is', null)
        .where('status', '=', 'completed')
        .where('upstream_model_url', 'is not', null)
        .orderBy('archive_next_ms')
        .limit(limit)
        .execute();
      return rows.map(toRow);
    },

    async recordBalance(owner, balance, nowMs, taskId) {
      await db.transaction().execute(async (trx) => {
        const last = await trx
          .selectFrom('balances as b')
          .leftJoin('library as l', (j) =>
            j.onRef('l.task_id', '=', 'b.task_id').onRef('l.owner', '=', 'b.owner'),
          )
          .select(['b.balance', 'l.seq as taskSeq'])
          .where('b.owner', '=', owner)
          .orderBy('b.seq', 'desc')
          .limit(1)
          .executeTakeFirst();
        if (last?.balance === balance) return;
        // A task's usage says the balance right after its own charge: one from a task made
        // before the one the last balance came from is history, not news.
        if (last?.taskSeq != null && taskId !== null) {
          const mine = await trx
            .selectFrom('library')
            .select('seq')
            .where('owner', '=', owner)
            .where('task_id', '=', taskId)
            .executeTakeFirst();
          if (mine && Number(mine.seq) < Number(last.taskSeq)) return;
        }
        await trx
          .insertInto('balances')
          .values({ owner, balance, learned_ms: nowMs, task_id: taskId })
          .execute();
      });
    },

    async balances(owner, limit) {
      const rows = await db
        .selectFrom('balances')
        .select(['balance', 'learned_ms', 'task_id'])
        .where('owner', '=', owner)
        .orderBy('seq', 'desc')
        .limit(limit)
        .execute();
      return rows
        .reverse()
        .map((r) => ({ balance: r.balance, learnedMs: Number(r.learned_ms), taskId: r.task_id }));
    },
  };
}
