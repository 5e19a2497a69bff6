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
  type MigrationProvider,
  type Selectable,
} from 'kysely';
import type { ErrorObject, ModelAlias } from '../contract/index.ts';
import type { KeyGrant } from './keys.ts';
import { hashKey } from './keys.ts';

/**
 * The mock's state: keys (by hash), balances, tasks. One SQLite file in
 * DATA_DIR, WAL mode, so it survives a restart and a kill -9.
 *
 * Ledger invariant, checked by tests: for every key,
 *   balance = starting_balance − Σ credits of its tasks that are not failed.
 * Every change to a balance happens in the same statement or transaction as
 * the task change that justifies it.
 */
export interface MockDatabase {
  accounts: {
    key_hash: string;
    starting_balance: number;
    balance: number;
    created_ms: number;
  };
  tasks: {
    id: string;
    key_hash: string;
    model: string;
    request_json: string;
    mode: string;
    status: string;
    progress: number;
    progress_stage: string;
    credits: number;
    created: number;
    completed_at: number | null;
    error_json: string | null;
    glb_bytes: number | null;
    seq: Generated<number>;
  };
}

export interface TaskRow {
  id: string;
  keyHash: string;
  model: ModelAlias;
  request: StoredRequest;
  mode: 'sync' | 'async';
  status: 'pending' | 'completed' | 'failed';
  progress: number;
  progressStage: string;
  credits: number;
  created: number;
  completedAt: number | null;
  error: ErrorObject | null;
}

/** What the engine needs to (re)run a task. */
export interface StoredRequest {
  image_url?: string;
  image_urls?: string[];
  prompt?: string;
}

export interface Account {
  keyHash: string;
  startingBalance: number;
  balance: number;
}

const migrations: Record<string, Migration> = {
  '001_init': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('accounts')
        .addColumn('key_hash', 'text', (c) => c.primaryKey())
        .addColumn('starting_balance', 'integer', (c) => c.notNull())
        .addColumn('balance', 'integer', (c) => c.notNull())
        .addColumn('created_ms', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('tasks')
        .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('key_hash', 'text', (c) => c.notNull().references('accounts.key_hash'))
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('request_json', 'text', (c) => c.notNull())
        .addColumn('mode', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('progress', 'integer', (c) => c.notNull())
        .addColumn('progress_stage', 'text', (c) => c.notNull())
        .addColumn('credits', 'integer', (c) => c.notNull())
        .addColumn('created', 'integer', (c) => c.notNull())
        .addColumn('completed_at', 'integer')
        .addColumn('error_json', 'text')
        .addColumn('glb_bytes', 'integer')
        .execute();
      await db.schema.createIndex('tasks_status').on('tasks').column('status').execute();
    },
  },
};

const provider: MigrationProvider = { getMigrations: () => Promise.resolve(migrations) };

export type CreateResult =
  | { ok: true; task: TaskRow; balance: number }
  | { ok: false; reason: 'insufficient_credits'; balance: number; price: number };

export interface MockStore {
  /** Adds keys not yet known; existing keys keep their balance. */
  grantKeys(grants: readonly KeyGrant[], nowMs: number): Promise<void>;
  account(keyHash: string): Promise<Account | undefined>;
  /** Deducts the price and inserts the task atomically, or refuses with the balance. */
  createTask(input: {
    id: string;
    keyHash: string;
    model: ModelAlias;
    request: StoredRequest;
    mode: 'sync' | 'async';
    price: number;
    created: number;
    stage: string;
  }): Promise<CreateResult>;
  task(id: string): Promise<TaskRow | undefined>;
  setProgress(id: string, progress: number, stage: string): Promise<void>;
  complete(id: string, completedAt: number, glbBytes: number, stage: string): Promise<boolean>;
  /** Marks a pending task failed and refunds its credits, in one transaction. Returns the refund. */
  fail(id: string, error: ErrorObject): Promise<number>;
  pendingTasks(): Promise<TaskRow[]>;
  tasksOf(keyHash: string): Promise<TaskRow[]>;
  close(): Promise<void>;
}

export async function openMockStore(file: string): Promise<MockStore> {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<MockDatabase>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error } = await new Migrator({ db, provider }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));

  const toRow = (r: Omit<Selectable<MockDatabase['tasks']>, 'seq'>): TaskRow => ({
    id: r.id,
    keyHash: r.key_hash,
    model: r.model as ModelAlias,
    request: JSON.parse(r.request_json) as StoredRequest,
    mode: r.mode === 'sync' ? 'sync' : 'async',
    status: r.status as TaskRow['status'],
    progress: r.progress,
    progressStage: r.progress_stage,
    credits: r.credits,
    created: r.created,
    completedAt: r.completed_at,
    error: r.error_json ? (JSON.parse(r.error_json) as ErrorObject) : null,
  });

  return {
    async grantKeys(grants, nowMs) {
      for (const g of grants)
        await db
          .insertInto('accounts')
          .values({
            key_hash: hashKey(g.key),
            starting_balance: g.balance,
            balance: g.balance,
            created_ms: nowMs,
          })
          .onConflict((oc) => oc.column('key_hash').doNothing())
          .execute();
    },

    async account(keyHash) {
      const r = await db
        .selectFrom('accounts')
        .selectAll()
        .where('key_hash', '=', keyHash)
        .executeTakeFirst();
      return r && { keyHash: r.key_hash, startingBalance: r.starting_balance, balance: r.balance };
    },

    createTask(input) {
      return db.transaction().execute(async (trx): Promise<CreateResult> => {
        // One conditional UPDATE: the balance can never go below zero, whatever the concurrency.
        const debit = await trx
          .updateTable('accounts')
          .set({ balance: sql`balance - ${input.price}` })
          .where('key_hash', '=', input.keyHash)
          .where('balance', '>=', input.price)
          .returning('balance')
          .executeTakeFirst();
        if (!debit) {
          const acct = await trx
            .selectFrom('accounts')
            .select('balance')
            .where('key_hash', '=', input.keyHash)
            .executeTakeFirst();
          return {
            ok: false,
            reason: 'insufficient_credits',
            balance: acct?.balance ?? 0,
            price: input.price,
          };
        }
        const row = {
          id: input.id,
          key_hash: input.keyHash,
          model: input.model,
          request_json: JSON.stringify(input.request),
          mode: input.mode,
          status: 'pending',
          progress: 0,
          progress_stage: input.stage,
          credits: input.price,
          created: input.created,
          completed_at: null,
          error_json: null,
          glb_bytes: null,
        };
        await trx.insertInto('tasks').values(row).execute();
        return { ok: true, task: toRow(row), balance: debit.balance };
      });
    },

    async task(id) {
      const r = await db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
      return r && toRow(r);
    },

    async setProgress(id, progress, stage) {
      await db
        .updateTable('tasks')
        .set({ progress, progress_stage: stage })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .execute();
    },

    async complete(id, completedAt, glbBytes, stage) {
      const r = await db
        .updateTable('tasks')
        .set({
          status: 'completed',
          progress: 100,
          progress_stage: stage,
          completed_at: completedAt,
          glb_bytes: glbBytes,
        })
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    fail(id, error) {
      return db.transaction().execute(async (trx) => {
        const t = await trx
          .updateTable('tasks')
          .set({ status: 'failed', error_json: JSON.stringify(error) })
          .where('id', '=', id)
          .where('status', '=', 'pending')
          .returning(['credits', 'key_hash'])
          .executeTakeFirst();
        if (!t) return 0;
        await trx
          .updateTable('accounts')
          .set({ balance: sql`balance + ${t.credits}` })
          .where('key_hash', '=', t.key_hash)
          .execute();
        return t.credits;
      });
    },

    async pendingTasks() {
      const rows = await db
        .selectFrom('tasks')
        .selectAll()
        .where('status', '=', 'pending')
        .orderBy('seq')
        .execute();
      return rows.map(toRow);
    },

    async tasksOf(keyHash) {
      const rows = await db
        .selectFrom('tasks')
        .selectAll()
        .where('key_hash', '=', keyHash)
        .orderBy('seq')
        .execute();
      return rows.map(toRow);
    },

    async close() {
      await db.destroy();
    },
  };
}
