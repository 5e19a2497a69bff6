import type { Kysely } from 'kysely';
import type { Tables } from './schema.ts';

/**
 * Where a vendor's task moved on to (decision 0114): Meshy's text-to-3d refines under a new vendor
 * id while Kiln's task keeps its own, so every replica asks here which reference to poll.
 */
export interface ProviderRefStore {
  /** The reference to poll, and what the stages before it cost (decision 0117). */
  get(taskId: string): Promise<{ ref: string; priorCost: number } | undefined>;
  set(taskId: string, ref: string, nowMs: number, priorCost?: number): Promise<void>;
}

export function providerRefStore(db: Kysely<Tables>): ProviderRefStore {
  return {
    async get(taskId) {
      const row = await db
        .selectFrom('provider_refs')
        .select(['ref', 'prior_cost'])
        .where('task_id', '=', taskId)
        .executeTakeFirst();
      return row && { ref: row.ref, priorCost: Number(row.prior_cost) };
    },
    async set(taskId, ref, nowMs, priorCost = 0) {
      const values = { ref, updated_ms: nowMs, prior_cost: priorCost };
      await db
        .insertInto('provider_refs')
        .values({ task_id: taskId, ...values })
        .onConflict((oc) => oc.column('task_id').doUpdateSet(values))
        .execute();
    },
  };
}
