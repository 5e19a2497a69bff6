import { sql } from 'kysely';
import type { ErrorObject } from '../../contract/index.ts';
import { toRow, type TaskRow } from './rows.ts';
import type { MockDb } from './schema.ts';

/** A task's life after its create: read, progress, complete or fail (refunded), list. */
export interface TaskStore {
  task(id: string): Promise<TaskRow | undefined>;
  setProgress(id: string, progress: number, stage: string): Promise<void>;
  complete(id: string, completedAt: number, glbBytes: number, stage: string): Promise<boolean>;
  /** Marks a pending task failed and refunds its credits, in one transaction. Returns the refund. */
  fail(id: string, error: ErrorObject): Promise<number>;
  pendingTasks(): Promise<TaskRow[]>;
  /** True when a pending task other than `exceptId` names the inline input `ref`. */
  inputInUse(ref: string, exceptId: string): Promise<boolean>;
  tasksOf(keyHash: string): Promise<TaskRow[]>;
}

export function taskStore(db: MockDb): TaskStore {
  return {
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
  };
}
