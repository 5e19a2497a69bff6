import { sql, type Kysely } from 'kysely';
import type { Tables } from './schema.ts';

/**
 * Named leases in the database: at most one holder at a time across every replica; a holder
 * that dies loses its lease when the time runs out, and another may take it.
 */
export interface Leases {
  /** Takes `name` for `ttlMs` when it is free, expired, or already this holder's. */
  claim(name: string, holder: string, nowMs: number, ttlMs: number): Promise<boolean>;
  release(name: string, holder: string): Promise<void>;
}

export function leases(db: Kysely<Tables>): Leases {
  return {
    async claim(name, holder, nowMs, ttlMs) {
      const r = await db
        .insertInto('leases')
        .values({ name, holder, until_ms: nowMs + ttlMs })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet({ holder, until_ms: nowMs + ttlMs })
            .where(sql<boolean>`leases.until_ms < ${nowMs} or leases.holder = ${holder}`),
        )
        .returning('name')
        .executeTakeFirst();
      return r !== undefined;
    },
    async release(name, holder) {
      await db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
    },
  };
}
