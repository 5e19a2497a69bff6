import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  Kysely,
  Migrator,
  SqliteDialect,
  sql,
  type Generated,
  type Migration,
  type Selectable,
} from 'kysely';
import type { ErrorObject, LibraryImage } from '../../contract/index.ts';
import type { LibraryRow, LibraryStore } from './library.ts';

interface Tables {
  library: {
    seq: Generated<number>;
    owner: string;
    task_id: string;
    model: string;
    mode: string;
    images_json: string;
    prompt: string | null;
    status: string;
    progress: number;
    progress_stage: string | null;
    created: number;
    completed_at: number | null;
    created_ms: number;
    updated_ms: number;
    credits_consumed: number | null;
    credits_remaining: number | null;
    error_json: string | null;
    upstream_model_url: string | null;
    asset_sha256: string | null;
    archive_attempts: Generated<number>;
    archive_error: string | null;
    hidden: Generated<number>;
  };
  balances: {
    seq: Generated<number>;
    owner: string;
    balance: number;
    learned_ms: number;
    task_id: string | null;
  };
  idempotency: {
    owner: string;
    key: string;
    body_sha256: string;
    status: number;
    headers_json: string;
    body: Uint8Array;
    created_ms: number;
  };
}

const migrations: Record<string, Migration> = {
  '001_library': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('library')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('task_id', 'text', (c) => c.notNull())
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('images_json', 'text', (c) => c.notNull())
        .addColumn('prompt', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('progress', 'integer', (c) => c.notNull())
        .addColumn('progress_stage', 'text')
        .addColumn('created', 'integer', (c) => c.notNull())
        .addColumn('completed_at', 'integer')
        .addColumn('created_ms', 'integer', (c) => c.notNull())
        .addColumn('updated_ms', 'integer', (c) => c.notNull())
        .addColumn('credits_consumed', 'integer')
        .addColumn('credits_remaining', 'integer')
        .addColumn('error_json', 'text')
        .addColumn('upstream_model_url', 'text')
        .addColumn('asset_sha256', 'text')
        .addColumn('archive_attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('archive_error', 'text')
        .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('library_owner_task', ['owner', 'task_id'])
        .execute();
      await db.schema.createIndex('library_task').on('library').column('task_id').execute();
      await db.schema
        .createTable('balances')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('balance', 'integer', (c) => c.notNull())
        .addColumn('learned_ms', 'integer', (c) => c.notNull())
        .addColumn('task_id', 'text')
        .execute();
      await db.schema
        .createIndex('balances_owner')
        .on('balances')
        .columns(['owner', 'seq'])
        .execute();
      await db.schema
        .createTable('idempotency')
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('body_sha256', 'text', (c) => c.notNull())
        .addColumn('status', 'integer', (c) => c.notNull())
        .addColumn('headers_json', 'text', (c) => c.notNull())
        .addColumn('body', 'blob', (c) => c.notNull())
        .addColumn('created_ms', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_pk', ['owner', 'key'])
        .execute();
    },
  },
};

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
    created: r.created,
    completedAt: r.completed_at,
    createdMs: r.created_ms,
    updatedMs: r.updated_ms,
    creditsConsumed: r.credits_consumed,
    creditsRemaining: r.credits_remaining,
    error: r.error_json ? (JSON.parse(r.error_json) as ErrorObject) : null,
    upstreamModelUrl: r.upstream_model_url,
    assetSha256: r.asset_sha256,
    archiveAttempts: r.archive_attempts,
    archiveError: r.archive_error,
    hidden: r.hidden === 1,
    seq: r.seq,
  };
}

/** The library in one SQLite file (WAL: survives restarts and kill -9). */
export async function openSqliteLibrary(file: string): Promise<LibraryStore> {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error } = await new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
  }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));

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
          updated_ms: nowMs,
          credits_consumed: sql`coalesce(${u.creditsConsumed}, credits_consumed)`,
          credits_remaining: sql`coalesce(${u.creditsRemaining}, credits_remaining)`,
          error_json: u.error ? JSON.stringify(u.error) : null,
          upstream_model_url: sql`coalesce(${u.upstreamModelUrl}, upstream_model_url)`,
        })
        .where('task_id', '=', taskId)
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

    async archived(taskId, sha256) {
      await db
        .updateTable('library')
        .set({
          asset_sha256: sha256,
          archive_error: null,
          archive_attempts: sql`archive_attempts + 1`,
        })
        .where('task_id', '=', taskId)
        .execute();
    },

    async archiveFailed(taskId, message) {
      await db
        .updateTable('library')
        .set({ archive_error: message, archive_attempts: sql`archive_attempts + 1` })
        .where('task_id', '=', taskId)
        .execute();
    },

    async recordBalance(owner, balance, nowMs, taskId) {
      await db.transaction().execute(async (trx) => {
        const last = await trx
          .selectFrom('balances')
          .select('balance')
          .where('owner', '=', owner)
          .orderBy('seq', 'desc')
          .limit(1)
          .executeTakeFirst();
        if (last?.balance === balance) return;
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
        .map((r) => ({ balance: r.balance, learnedMs: r.learned_ms, taskId: r.task_id }));
    },

    async getIdempotent(owner, key, sinceMs) {
      const r = await db
        .selectFrom('idempotency')
        .selectAll()
        .where('owner', '=', owner)
        .where('key', '=', key)
        .where('created_ms', '>=', sinceMs)
        .executeTakeFirst();
      return (
        r && {
          bodySha256: r.body_sha256,
          status: r.status,
          headers: JSON.parse(r.headers_json) as Record<string, string>,
          body: new Uint8Array(r.body),
          createdMs: r.created_ms,
        }
      );
    },

    async putIdempotent(owner, key, res) {
      await db
        .insertInto('idempotency')
        .values({
          owner,
          key,
          body_sha256: res.bodySha256,
          status: res.status,
          headers_json: JSON.stringify(res.headers),
          body: res.body,
          created_ms: res.createdMs,
        })
        .onConflict((oc) =>
          oc.columns(['owner', 'key']).doUpdateSet({
            body_sha256: res.bodySha256,
            status: res.status,
            headers_json: JSON.stringify(res.headers),
            body: res.body,
            created_ms: res.createdMs,
          }),
        )
        .execute();
    },

    async purgeIdempotent(beforeMs) {
      await db.deleteFrom('idempotency').where('created_ms', '<', beforeMs).execute();
    },

    async close() {
      await db.destroy();
    },
  };
}
