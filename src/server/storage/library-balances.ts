// What each key's balance was: the balances the upstream stated outside a task (a 402's message)
// and each task as the balance's ledger reads it (library/ledger.ts, decision 0076).
import type { Kysely } from 'kysely';
import { TERMINAL } from './library-row.ts';
import type { Tables } from './schema.ts';

/** One task as the balance's ledger needs it (library/ledger.ts). */
export interface LedgerTask {
  taskId: string;
  model: string;
  status: string;
  /** The window of its charge: the create was sent, then answered. */
  sentMs: number;
  answeredMs: number;
  /** The window of its refund, when it failed: last seen pending, first seen failed. */
  lastPendingMs: number | null;
  endedMs: number | null;
  creditsConsumed: number | null;
  creditsRemaining: number | null;
  /** Recorded through a recovery path (a replayed create): its figure proves nothing. */
  recovered?: boolean;
}

/** A balance stated by a 402 at a moment between `sentMs` and `answeredMs`. */
export interface Refusal {
  balance: number;
  sentMs: number;
  answeredMs: number;
}

export interface LibraryBalanceStore {
  /**
   * Keeps a balance the upstream stated outside a task (a 402's message): true at a moment
   * between `sentMs` and `nowMs`.
   */
  recordBalance(
    owner: string,
    balance: number,
    nowMs: number,
    taskId: string | null,
    sentMs?: number,
  ): Promise<void>;
  /** The balances stated by refusals, oldest first (the newest `limit`). */
  refusals(owner: string, limit: number): Promise<Refusal[]>;
  /** The owner's newest `limit` tasks as the ledger reads them, hidden ones too, oldest first. */
  ledger(owner: string, limit: number): Promise<LedgerTask[]>;
}

export function libraryBalances(db: Kysely<Tables>): LibraryBalanceStore {
  return {
    async recordBalance(owner, balance, nowMs, taskId, sentMs) {
      await db
        .insertInto('balances')
        .values({ owner, balance, learned_ms: nowMs, task_id: taskId, sent_ms: sentMs ?? nowMs })
        .execute();
    },

    async refusals(owner, limit) {
      const rows = await db
        .selectFrom('balances')
        .select(['balance', 'learned_ms', 'sent_ms'])
        .where('owner', '=', owner)
        .where('task_id', 'is', null)
        .orderBy('seq', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse().map((r) => ({
        balance: r.balance,
        sentMs: Number(r.sent_ms ?? r.learned_ms),
        answeredMs: Number(r.learned_ms),
      }));
    },

    async ledger(owner, limit) {
      const rows = await db
        .selectFrom('library')
        .select([
          'task_id',
          'model',
          'status',
          'created_ms',
          'updated_ms',
          'sent_ms',
          'answered_ms',
          'last_pending_ms',
          'ended_ms',
          'credits_consumed',
          'credits_remaining',
          'recovered',
        ])
        .where('owner', '=', owner)
        .orderBy('seq', 'desc')
        .limit(limit)
        .execute();
      return rows.reverse().map((r) => {
        const created = Number(r.created_ms);
        const answered = r.answered_ms == null ? created : Number(r.answered_ms);
        return {
          taskId: r.task_id,
          model: r.model,
          status: r.status,
          sentMs: r.sent_ms == null ? answered : Number(r.sent_ms),
          answeredMs: answered,
          lastPendingMs: r.last_pending_ms == null ? null : Number(r.last_pending_ms),
          endedMs:
            r.ended_ms != null
              ? Number(r.ended_ms)
              : TERMINAL.includes(r.status)
                ? Number(r.updated_ms)
                : null,
          creditsConsumed: r.credits_consumed,
          creditsRemaining: r.credits_remaining,
          recovered: Number(r.recovered) === 1,
        };
      });
    },
  };
}
