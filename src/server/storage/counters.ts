import { sql, type Kysely } from 'kysely';
import type { Tables } from './schema.ts';

/** Fixed-window counters in the database, so that every replica counts against one limit. */
export interface Counters {
  /**
   * Adds one to `name` in the window that holds `nowMs`; answers the count after and when the
   * window ends.
   */
  hit(name: string, windowMs: number, nowMs: number): Promise<{ count: number; resetMs: number }>;
  /** Takes one hit back (a request that turned out not to count); the row goes at zero. */
  undo(name: string, windowMs: number, nowMs: number): Promise<void>;
}

export function counters(db: Kysely<Tables>): Counters {
  let hits = 0;
  return {
    async hit(name, windowMs, nowMs) {
      const start = Math.floor(nowMs / windowMs) * windowMs;
      const r = await db
        .insertInto('counters')
        .values({ name, window_start_ms: start, count: 1 })
        .onConflict((oc) =>
          oc.columns(['name', 'window_start_ms']).doUpdateSet({ count: sql`counters.count + 1` }),
        )
        .returning('count')
        .executeTakeFirstOrThrow();
      // Now and then, forget windows long past.
      if (++hits % 200 === 0)
        await db
          .deleteFrom('counters')
          .where('window_start_ms', '<', start - windowMs)
          .execute();
      return { count: Number(r.count), resetMs: start + windowMs };
    },
    async undo(name, windowMs, nowMs) {
      const start = Math.floor(nowMs / windowMs) * windowMs;
      await db
        .updateTable('counters')
        .set({ count: sql`count - 1` })
        .where('name', '=', name)
        .where('window_start_ms', '=', start)
        .execute();
      await db
        .deleteFrom('counters')
        .where('name', '=', name)
        .where('window_start_ms', '=', start)
        .where('count', '<=', 0)
        .execute();
    },
  };
}
