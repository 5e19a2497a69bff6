import type { Generated, Kysely, Migration } from 'kysely';

/**
 * The mock's tables: keys (by hash) with their balances, tasks, and Idempotency-Keys. One SQLite
 * file in DATA_DIR, WAL mode, so it survives a restart and a kill -9.
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

export type MockDb = Kysely<MockDatabase>;

export const migrations: Record<string, Migration> = {
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
