import { sql, type Generated, type Kysely, type Migration, type Selectable } from 'kysely';
import type { ErrorObject, ModelAlias } from '../contract/index.ts';
import { openSqlite } from '../db/index.ts';
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
    /** The balance right after this task's charge (usage.credits_remaining, frozen). */
    credits_remaining: number | null;
  };
  idempotency: {
    key_hash: string;
    idem_key: string;
    body_sha256: string;
    task_id: string;
    /** The first answer, once it was given (a sync create gives it when its wait ends). */
    response_status: number | null;
    response_json: string | null;
    created_ms: number;
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
  /** The balance right after this task's charge; null for tasks made before it was kept. */
  creditsRemaining: number | null;
}

/**
 * What the engine needs to (re)run a task. Images sent inline (data: URIs) are kept as blobs and
 * named here by `input:sha256` references, so a task row stays small whatever its input.
 */
export interface StoredRequest {
  image_url?: string;
  image_urls?: string[];
  prompt?: string;
}

/** A create's Idempotency-Key, scoped to its API key, for a day (Stripe's model). */
export interface IdempotentCreate {
  key: string;
  bodySha256: string;
  /** Records older than this are forgotten. */
  sinceMs: number;
  nowMs: number;
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
  '002_idempotency_and_frozen_balance': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('tasks').addColumn('credits_remaining', 'integer').execute();
      await db.schema
        .createTable('idempotency')
        .addColumn('key_hash', 'text', (c) => c.notNull())
        .addColumn('idem_key', 'text', (c) => c.notNull())
        .addColumn('body_sha256', 'text', (c) => c.notNull())
        .addColumn('task_id', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_json', 'text')
        .addColumn('created_ms', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_pk', ['key_hash', 'idem_key'])
        .execute();
      await db.schema
        .createIndex('idempotency_created')
        .on('idempotency')
        .column('created_ms')
        .execute();
    },
  },
};

export type CreateResult =
  | { ok: true; task: TaskRow; balance: number }
  | { ok: false; reason: 'insufficient_credits'; balance: number; price: number }
  /** The Idempotency-Key was used with another body. */
  | { ok: false; reason: 'idempotency_mismatch' }
  /** The Idempotency-Key was used with this body: its task, and its first answer if given. */
  | {
      ok: false;
      reason: 'replay';
      task: TaskRow;
      response: { status: number; json: string } | null;
    };

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
    idempotency?: IdempotentCreate;
  }): Promise<CreateResult>;
  /** Keeps the first answer to an idempotent create, for its repeats. */
  saveIdempotentResponse(keyHash: string, key: string, status: number, json: string): Promise<void>;
  task(id: string): Promise<TaskRow | undefined>;
  setProgress(id: string, progress: number, stage: string): Promise<void>;
  complete(id: string, completedAt: number, glbBytes: number, stage: string): Promise<boolean>;
  /** Marks a pending task failed and refunds its credits, in one transaction. Returns the refund. */
  fail(id: string, error: ErrorObject): Promise<number>;
  pendingTasks(): Promise<TaskRow[]>;
  /** True when a pending task other than `exceptId` names the inline input `ref`. */
  inputInUse(ref: string, exceptId: string): Promise<boolean>;
  tasksOf(keyHash: string): Promise<TaskRow[]>;
  close(): Promise<void>;
}

export async function openMockStore(file: string): Promise<MockStore> {
  const db = await openSqlite<MockDatabase>(file, migrations);

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
    creditsRemaining: r.credits_remaining,
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
        const idem = input.idempotency;
        if (idem) {
          const seen = await trx
            .selectFrom('idempotency')
            .selectAll()
            .where('key_hash', '=', input.keyHash)
            .where('idem_key', '=', idem.key)
            .executeTakeFirst();
          if (seen && seen.created_ms >= idem.sinceMs) {
            if (seen.body_sha256 !== idem.bodySha256)
              return { ok: false, reason: 'idempotency_mismatch' };
            const task = await trx
              .selectFrom('tasks')
              .selectAll()
              .where('id', '=', seen.task_id)
              .executeTakeFirstOrThrow();
            const response =
              seen.response_status !== null && seen.response_json !== null
                ? { status: seen.response_status, json: seen.response_json }
                : null;
            return { ok: false, reason: 'replay', task: toRow(task), response };
          }
          if (seen)
            await trx
              .deleteFrom('idempotency')
              .where('key_hash', '=', input.keyHash)
              .where('idem_key', '=', idem.key)
              .execute();
        }
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
          credits_remaining: debit.balance,
        };
        await trx.insertInto('tasks').values(row).execute();
        if (idem)
          await trx
            .insertInto('idempotency')
            .values({
              key_hash: input.keyHash,
              idem_key: idem.key,
              body_sha256: idem.bodySha256,
              task_id: input.id,
              response_status: null,
              response_json: null,
              created_ms: idem.nowMs,
            })
            .execute();
        // Now and then, forget records past their day (the index keeps this cheap).
        if (idem && Math.random() < 0.02)
          await trx.deleteFrom('idempotency').where('created_ms', '<', idem.sinceMs).execute();
        return { ok: true, task: toRow(row), balance: debit.balance };
      });
    },

    async saveIdempotentResponse(keyHash, key, status, json) {
      await db
        .updateTable('idempotency')
        .set({ response_status: status, response_json: json })
        .where('key_hash', '=', keyHash)
        .where('idem_key', '=', key)
        .where('response_status', 'is', null)
        .execute();
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

    async inputInUse(ref, exceptId) {
      const r = await db
        .selectFrom('tasks')
        .select('id')
        .where('status', '=', 'pending')
        .where('id', '!=', exceptId)
        .where('request_json', 'like', `%${ref}%`)
        .executeTakeFirst();
      return r !== undefined;
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
