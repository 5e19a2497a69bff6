import type { Kysely } from 'kysely';
import type { Tables } from './schema.ts';

/** A create recorded before it is forwarded (decision 0075). */
export interface CreateIntent {
  id: string;
  owner: string;
  /** The process that forwards it. */
  holder: string;
  sentMs: number;
  model: string;
  /** The prompt, or the photos' names, shortened. */
  summary: string;
}

/**
 * Creates in flight. An intent is written before the create goes upstream (a database that
 * cannot take it refuses the create, so nothing is charged unrecorded) and removed once the
 * answer is in the library, or known to have charged nothing. One left behind (its process died
 * between the upstream's answer and the library's write) is a create whose charge Kiln cannot
 * see: the balance says so instead of guessing.
 */
export interface IntentStore {
  record(intent: CreateIntent): Promise<void>;
  remove(id: string): Promise<void>;
  /** One intent by id (a retry reads the first attempt's), if it is still there. */
  get(id: string): Promise<CreateIntent | undefined>;
  /** The owner's intents sent before `beforeMs` and never resolved, oldest first. */
  unresolved(owner: string, beforeMs: number): Promise<CreateIntent[]>;
  /**
   * Makes `holder` the intent's holder as of `nowMs`, only if it is still as `seen` (the same
   * holder and time): one taker wins across replicas. False when another took it or it is gone.
   */
  takeOver(seen: CreateIntent, holder: string, nowMs: number): Promise<boolean>;
}

export function intentStore(db: Kysely<Tables>): IntentStore {
  return {
    async record(i) {
      await db
        .insertInto('create_intents')
        .values({
          id: i.id,
          owner: i.owner,
          holder: i.holder,
          sent_ms: i.sentMs,
          model: i.model,
          summary: i.summary,
        })
        .execute();
    },
    async remove(id) {
      await db.deleteFrom('create_intents').where('id', '=', id).execute();
    },
    async get(id) {
      const row = await db
        .selectFrom('create_intents')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? intentOf(row) : undefined;
    },
    async takeOver(seen, holder, nowMs) {
      const r = await db
        .updateTable('create_intents')
        .set({ holder, sent_ms: nowMs })
        .where('id', '=', seen.id)
        .where('holder', '=', seen.holder)
        .where('sent_ms', '=', seen.sentMs)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
    async unresolved(owner, beforeMs) {
      const rows = await db
        .selectFrom('create_intents')
        .selectAll()
        .where('owner', '=', owner)
        .where('sent_ms', '<', beforeMs)
        .orderBy('sent_ms')
        .limit(100)
        .execute();
      return rows.map(intentOf);
    },
  };
}

function intentOf(r: Tables['create_intents']): CreateIntent {
  return {
    id: r.id,
    owner: r.owner,
    holder: r.holder,
    sentMs: Number(r.sent_ms),
    model: r.model,
    summary: r.summary,
  };
}
