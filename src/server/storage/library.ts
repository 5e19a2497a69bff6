import { sql, type ExpressionBuilder, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type {
  ErrorObject,
  LibraryImage,
  LibraryKind,
  LibrarySort,
  LibraryStatusFilter,
} from '../../contract/index.ts';
import { isPostgres } from './dialect.ts';
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
  /** Starred by its owner. */
  favourite: boolean;
  seq: number;
  /**
   * The windows of its charge and refund (decision 0076): the create was sent at `sentMs` and
   * answered at `answeredMs`; the task was last seen pending at `lastPendingMs` and first seen
   * ended at `endedMs`. Null on rows older than migration 008.
   */
  sentMs: number | null;
  answeredMs: number | null;
  lastPendingMs: number | null;
  endedMs: number | null;
}

/** What a list keeps (all given ones at once). */
export interface LibraryFilter {
  /**
   * Words that must each be in the prompt or in one of the photos' file names
   * (case-insensitive, as typed: `%` and `_` are plain characters).
   */
  words?: readonly string[] | undefined;
  model?: string | undefined;
  kind?: LibraryKind | undefined;
  status?: LibraryStatusFilter | undefined;
  favourite?: boolean | undefined;
}

/**
 * Where the previous page ended: the last row's seq, and for the credits order its credits
 * (`creditsKey`: credits consumed, or -1 when none are known).
 */
export interface LibraryCursor {
  seq: number;
  creditsKey?: number | undefined;
}

/** The credits order's key of a row: what it cost, or -1 (after every 0) when not known. */
export function creditsKeyOf(row: Pick<LibraryRow, 'creditsConsumed'>): number {
  return row.creditsConsumed ?? -1;
}

export interface LibraryListOptions {
  limit: number;
  /** The newest-first cursor of old (`after: { seq }` with the default order). */
  beforeSeq?: number | undefined;
  filter?: LibraryFilter | undefined;
  /** newest (default), oldest, or credits (most first, then newest). */
  sort?: LibrarySort | undefined;
  after?: LibraryCursor | undefined;
}

/** One of the actions of `POST /api/library/bulk`. */
export type LibraryBulkAction = 'hide' | 'unhide' | 'favourite' | 'unfavourite';

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

/** One task as the balance's ledger needs it (library/ledger.ts). */
export interface LedgerTask {
  taskId: string;
  model: string;
  status: string;
  /** The window of its charge: the create was sent, then answered. */
  sentMs: number;
  answeredMs: number;
  /** The window of its refund, when it failed: last seen pending, first seen failed. */
  lastPendingMs: number | null;
  endedMs: number | null;
  creditsConsumed: number | null;
  creditsRemaining: number | null;
}

/** A balance stated by a 402 at a moment between `sentMs` and `answeredMs`. */
export interface Refusal {
  balance: number;
  sentMs: number;
  answeredMs: number;
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
      | 'favourite'
      | 'sentMs'
      | 'answeredMs'
      | 'lastPendingMs'
      | 'endedMs'
    > & { sentMs?: number | null; answeredMs?: number | null },
  ): Promise<void>;
  /** Applies what a response showed to every owner's row of this task. Returns the rows after. */
  update(taskId: string, update: TaskUpdate, nowMs: number): Promise<LibraryRow[]>;
  get(owner: string, taskId: string): Promise<LibraryRow | undefined>;
  /**
   * One page of the owner's rows in the order asked (newest first by default), after the cursor,
   * kept by the filter. Hidden rows are left out.
   */
  list(owner: string, options: LibraryListOptions): Promise<LibraryRow[]>;
  /** Stars or unstars one task; false when the owner has no such task. */
  setFavourite(owner: string, taskId: string, favourite: boolean): Promise<boolean>;
  /** One action on several of the owner's tasks; returns the ids the owner has (the others are not touched). */
  bulk(owner: string, taskIds: readonly string[], action: LibraryBulkAction): Promise<string[]>;
  /**
   * The owner's other completed, shown tasks made from the same input as this one (the same
   * prompt, or the same photos in the same order), newest first.
   */
  sameInput(owner: string, taskId: string, limit: number): Promise<LibraryRow[]>;
  hide(owner: string, taskId: string): Promise<boolean>;
  /** Whether the owner's library holds this archived model (glb) or picture (webp). */
  ownsAsset(owner: string, sha256: string, ext: 'glb' | 'webp'): Promise<boolean>;
  /** Shows a hidden task in the library again; false when the owner has no such task. */
  unhide(owner: string, taskId: string): Promise<boolean>;
  archived(taskId: string, sha256: string): Promise<void>;
  /**
   * Keeps a picture of the owner's archived model. The first one stays: false when the task is
   * not the owner's, not archived yet, or already has its picture.
   */
  setThumbnail(owner: string, taskId: string, sha256: string): Promise<boolean>;
  /**
   * Notes a failed attempt (counted unless `counted` is false: an outage of Kiln's own storage);
   * `nextMs` is when to try again, or null to give up.
   */
  archiveFailed(
    taskId: string,
    error: string,
    nextMs: number | null,
    counted?: boolean,
  ): Promise<void>;
  /** Completed tasks whose archive is due (never tried, or a retry whose time has come). */
  archiveDue(nowMs: number, limit: number): Promise<LibraryRow[]>;
  /** How many completed tasks wait for their archive (due now or later): the archive's queue. */
  archiveWaiting(): Promise<number>;

  /**
   * Keeps a balance the upstream stated outside a task (a 402's message): true at a moment
   * between `sentMs` and `nowMs`.
   */
  recordBalance(
    owner: string,
    balance: number,
    nowMs: number,
    taskId: string | null,
    sentMs?: number,
  ): Promise<void>;
  /** The balances stated by refusals, oldest first (the newest `limit`). */
  refusals(owner: string, limit: number): Promise<Refusal[]>;
  /** The owner's newest `limit` tasks as the ledger reads them, hidden ones too, oldest first. */
  ledger(owner: string, limit: number): Promise<LedgerTask[]>;
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
    favourite: Number(r.favourite ?? 0) === 1,
    seq: Number(r.seq),
    sentMs: r.sent_ms == null ? null : Number(r.sent_ms),
    answeredMs: r.answered_ms == null ? null : Number(r.answered_ms),
    lastPendingMs: r.last_pending_ms == null ? null : Number(r.last_pending_ms),
    endedMs: r.ended_ms == null ? null : Number(r.ended_ms),
  };
}

/** A completed, unarchived task that was never tried is due at once. */
const DUE_WHEN_COMPLETED = (status: string) =>
  sql<
    number | null
  >`case when ${status} = 'completed' and asset_sha256 is null and archive_attempts = 0 and archive_next_ms is null then 0 else archive_next_ms end`;

/** Statuses a task never leaves. */
const TERMINAL = ['completed', 'failed'];

/** `word` as a LIKE pattern that finds it anywhere, lower-cased, with `\`, `%` and `_` escaped. */
export function containsPattern(word: string): string {
  return `%${word.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** How many images a row's input has (its `images_json` array), in either dialect. */
function imageCount(pg: boolean) {
  return pg
    ? sql<number>`json_array_length(library.images_json::json)`
    : sql<number>`json_array_length(library.images_json)`;
}

/** Whether one of a row's images has a file name like the pattern, in either dialect. */
function nameLike(pg: boolean, pattern: string) {
  return pg
    ? sql<SqlBool>`exists (select 1 from json_array_elements(library.images_json::json) as i where lower(i->>'name') like ${pattern} escape '\\')`
    : sql<SqlBool>`exists (select 1 from json_each(library.images_json) as i where lower(json_extract(i.value, '$.name')) like ${pattern} escape '\\')`;
}

/** The identity of one input image: Kiln's upload when it is one, else the address sent. */
function imageIdentity(image: LibraryImage): string | null {
  if (image.upload) return image.upload;
  return image.url.startsWith('data:') ? null : image.url;
}

/** The input of a row as one string, or null when it cannot be told apart (inline images). */
export function inputIdentity(row: Pick<LibraryRow, 'images' | 'prompt'>): string | null {
  if (row.images.length === 0) return row.prompt === null ? null : `prompt:${row.prompt.trim()}`;
  const ids = row.images.map(imageIdentity);
  return ids.every((id) => id !== null) ? `images:${ids.join('\n')}` : null;
}

type LibraryExpressions = ExpressionBuilder<Tables, 'library'>;

export function libraryStore(db: Kysely<Tables>): LibraryStore {
  // Searching inside the images' JSON is written once per dialect.
  const pg = isPostgres(db as unknown as Kysely<unknown>);
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
          sent_ms: row.sentMs ?? null,
          answered_ms: row.answeredMs ?? null,
          last_pending_ms: TERMINAL.includes(row.status) ? null : (row.answeredMs ?? row.updatedMs),
          ended_ms: TERMINAL.includes(row.status) ? (row.answeredMs ?? row.updatedMs) : null,
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

    async list(owner, { limit, beforeSeq, filter = {}, sort = 'newest', after }) {
      const cursor = after ?? (beforeSeq !== undefined ? { seq: beforeSeq } : undefined);
      const creditsKey = sql<number>`coalesce(library.credits_consumed, -1)`;
      let q = db
        .selectFrom('library')
        .selectAll()
        .where('owner', '=', owner)
        .where('hidden', '=', 0);
      for (const word of filter.words ?? []) {
        const pattern = containsPattern(word);
        q = q.where((eb: LibraryExpressions) =>
          eb.or([
            sql<SqlBool>`lower(library.prompt) like ${pattern} escape '\\'`,
            nameLike(pg, pattern),
          ]),
        );
      }
      if (filter.model !== undefined) q = q.where('model', '=', filter.model);
      if (filter.kind === 'prompt') q = q.where(imageCount(pg), '=', 0);
      if (filter.kind === 'photo') q = q.where(imageCount(pg), '=', 1);
      if (filter.kind === 'views') q = q.where(imageCount(pg), '>', 1);
      if (filter.status === 'pending') q = q.where('status', 'not in', TERMINAL);
      else if (filter.status !== undefined) q = q.where('status', '=', filter.status);
      if (filter.favourite !== undefined) q = q.where('favourite', '=', filter.favourite ? 1 : 0);

      if (sort === 'oldest') {
        if (cursor) q = q.where('seq', '>', cursor.seq);
        q = q.orderBy('seq', 'asc');
      } else if (sort === 'credits') {
        if (cursor) {
          const key = cursor.creditsKey ?? -1;
          q = q.where((eb: LibraryExpressions) =>
            eb.or([
              eb(creditsKey, '<', key),
              eb.and([eb(creditsKey, '=', key), eb('seq', '<', cursor.seq)]),
            ]),
          );
        }
        q = q.orderBy(creditsKey, 'desc').orderBy('seq', 'desc');
      } else {
        if (cursor) q = q.where('seq', '<', cursor.seq);
        q = q.orderBy('seq', 'desc');
      }
      const rows = await q.limit(limit).execute();
      return rows.map(toRow);
    },

    async setFavourite(owner, taskId, favourite) {
      const r = await db
        .updateTable('library')
        .set({ favourite: favourite ? 1 : 0 })
        .where('owner', '=', owner)
        .where('task_id', '=', taskId)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

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

    async sameInput(owner, taskId, limit) {
      const found = await db
        .selectFrom('library')
        .selectAll()
        .where('owner', '=', owner)
        .where('task_id', '=', taskId)
        .executeTakeFirst();
      const self = found && toRow(found);
      const identity = self && inputIdentity(self);
      if (!self || !identity) return [];
      let q = db
        .selectFrom('library')
        .selectAll()
        .where('owner', '=', owner)
        .where('hidden', '=', 0)
        .where('status', '=', 'completed')
        .where('task_id', '!=', taskId);
      const first = self.images[0];
      if (!first)
        q = q
          .where(sql`trim(library.prompt)`, '=', self.prompt?.trim() ?? '')
          .where('images_json', '=', '[]');
      else {
        // The first image's upload or address narrows the rows; its whole input is compared below.
        const id = imageIdentity(first) ?? '';
        const needle = first.upload ? id : JSON.stringify(id).slice(1, -1);
        q = q.where('images_json', 'like', sql<string>`${containsPattern(needle)} escape '\\'`);
      }
      // Enough candidates to find `limit` matches among near misses (same first photo, other views).
      const rows = await q
        .orderBy('seq', 'desc')
        .limit(limit * 4)
        .execute();
      return rows
        .map(toRow)
        .filter((r) => inputIdentity(r) === identity)
        .slice(0, limit);
    },

    async ownsAsset(owner, sha256, ext) {
      const r = await db
        .selectFrom('library')
        .select('task_id')
        .where('owner', '=', owner)
        .where(ext === 'glb' ? 'asset_sha256' : 'thumbnail_sha256', '=', sha256)
        .limit(1)
        .executeTakeFirst();
      return r !== undefined;
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

    async archiveFailed(taskId, message, nextMs, counted = true) {
      await db
        .updateTable('library')
        .set({
          archive_error: message,
          archive_next_ms: nextMs,
          archive_attempts: counted ? sql`archive_attempts + 1` : sql`archive_attempts`,
        })
        .where('task_id', '=', taskId)
        .where('asset_sha256', 'is', null)
        .execute();
    },

    async archiveWaiting() {
      const r = await db
        .selectFrom('library')
        .select(sql<number | string>`count(*)`.as('n'))
        .where('archive_next_ms', 'is not', null)
        .where('asset_sha256', 'is', null)
        .where('status', '=', 'completed')
        .executeTakeFirst();
      return Number(r?.n ?? 0);
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

    async recordBalance(owner, balance, nowMs, taskId, sentMs) {
      await db
        .insertInto('balances')
        .values({ owner, balance, learned_ms: nowMs, task_id: taskId, sent_ms: sentMs ?? nowMs })
        .execute();
    },

    async refusals(owner, limit) {
      const rows = await db
        .selectFrom('balances')
        .select(['balance', 'learned_ms', 'sent_ms'])
        .where('owner', '=', owner)
        .where('task_id', 'is', null)
        .orderBy('seq', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse().map((r) => ({
        balance: r.balance,
        sentMs: Number(r.sent_ms ?? r.learned_ms),
        answeredMs: Number(r.learned_ms),
      }));
    },

    async ledger(owner, limit) {
      const rows = await db
        .selectFrom('library')
        .select([
          'task_id',
          'model',
          'status',
          'created_ms',
          'updated_ms',
          'sent_ms',
          'answered_ms',
          'last_pending_ms',
          'ended_ms',
          'credits_consumed',
          'credits_remaining',
        ])
        .where('owner', '=', owner)
        .orderBy('seq', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse().map((r) => {
        const created = Number(r.created_ms);
        const answered = r.answered_ms == null ? created : Number(r.answered_ms);
        return {
          taskId: r.task_id,
          model: r.model,
          status: r.status,
          sentMs: r.sent_ms == null ? answered : Number(r.sent_ms),
          answeredMs: answered,
          lastPendingMs: r.last_pending_ms == null ? null : Number(r.last_pending_ms),
          endedMs:
            r.ended_ms != null
              ? Number(r.ended_ms)
              : TERMINAL.includes(r.status)
                ? Number(r.updated_ms)
                : null,
          creditsConsumed: r.credits_consumed,
          creditsRemaining: r.credits_remaining,
        };
      });
    },
  };
}
