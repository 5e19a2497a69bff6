import type { Kysely } from 'kysely';
import type { Tables } from './schema.ts';

/**
 * Where a vendor's task moved on to (decision 0114): Meshy's text-to-3d refines under a new vendor
 * id while Kiln's task keeps its own, so every replica asks here which reference to poll.
 */
export interface ProviderRefStore {
  get(taskId: string): Promise<string | undefined>;
  set(taskId: string, ref: string, nowMs: number): Promise<void>;
}

export function providerRefStore(db: Kysely<Tables>): ProviderRefStore {
  return {
    async get(taskId) {
      const row = await db
        .selectFrom('provider_refs')
        .select('ref')
        .where('task_id', '=', taskId)
        .executeTakeFirst();
      return row?.ref;
    },
    async set(taskId, ref, nowMs) {
      await db
        .insertInto('provider_refs')
        .values({ task_id: taskId, ref, updated_ms: nowMs })
        .onConflict((oc) => oc.column('task_id').doUpdateSet({ ref, updated_ms: nowMs }))
        .execute();
    },
  };
}
