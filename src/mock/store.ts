import { openSqlite } from '../db/index.ts';
import { accountStore, type AccountStore } from './store/accounts.ts';
import { taskCreation, type TaskCreation } from './store/create-task.ts';
import { migrations, type MockDatabase } from './store/schema.ts';
import { taskStore, type TaskStore } from './store/tasks.ts';

export type { StoredRequest, TaskRow } from './store/rows.ts';

/**
 * The mock's state: keys (by hash), balances, tasks, Idempotency-Keys (`store/schema.ts`), in
 * three parts: accounts, creates (the charge and the Idempotency-Key), and a task's life after.
 *
 * Ledger invariant, checked by tests: for every key,
 *   balance = starting_balance − Σ credits of its tasks that are not failed.
 * Every change to a balance happens in the same statement or transaction as
 * the task change that justifies it.
 */
export interface MockStore extends AccountStore, TaskCreation, TaskStore {
  close(): Promise<void>;
}

export async function openMockStore(file: string): Promise<MockStore> {
  const db = await openSqlite<MockDatabase>(file, migrations);
  return {
    ...accountStore(db),
    ...taskCreation(db),
    ...taskStore(db),
    async close() {
      await db.destroy();
    },
  };
}
