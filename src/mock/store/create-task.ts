import { sql, type Transaction } from 'kysely';
import type { ModelAlias } from '../../contract/index.ts';
import { toRow, type StoredRequest, type TaskRow } from './rows.ts';
import type { MockDatabase, MockDb } from './schema.ts';

/** A create's Idempotency-Key, scoped to its API key, for a day (Stripe's model). */
interface IdempotentCreate {
  key: string;
  bodySha256: string;
  /** Records older than this are forgotten. */
  sinceMs: number;
  nowMs: number;
}

interface NewTask {
  id: string;
  keyHash: string;
  model: ModelAlias;
  request: StoredRequest;
  mode: 'sync' | 'async';
  price: number;
  created: number;
  stage: string;
  idempotency?: IdempotentCreate;
}

type CreateResult =
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

export interface TaskCreation {
  /** Deducts the price and inserts the task atomically, or refuses with the balance. */
  createTask(input: NewTask): Promise<CreateResult>;
  /** Keeps the first answer to an idempotent create, for its repeats. */
  saveIdempotentResponse(keyHash: string, key: string, status: number, json: string): Promise<void>;
}

type Trx = Transaction<MockDatabase>;

export function taskCreation(db: MockDb): TaskCreation {
  return {
    createTask(input) {
      return db.transaction().execute(async (trx): Promise<CreateResult> => {
        const idem = input.idempotency;
        if (idem) {
          const seen = await earlierCreate(trx, input.keyHash, idem);
          if (seen) return seen;
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
        const row = newRow(input, debit.balance);
        await trx.insertInto('tasks').values(row).execute();
        if (idem) await remember(trx, input, idem);
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
  };
}

/**
 * What an Idempotency-Key seen within its day answers (a replay, or a mismatch); undefined when
 * the key is new or its record was past its day (then forgotten, so the create goes ahead).
 */
async function earlierCreate(
  trx: Trx,
  keyHash: string,
  idem: IdempotentCreate,
): Promise<CreateResult | undefined> {
  const seen = await trx
    .selectFrom('idempotency')
    .selectAll()
    .where('key_hash', '=', keyHash)
    .where('idem_key', '=', idem.key)
    .executeTakeFirst();
  if (seen && seen.created_ms >= idem.sinceMs) {
    if (seen.body_sha256 !== idem.bodySha256) return { ok: false, reason: 'idempotency_mismatch' };
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
      .where('key_hash', '=', keyHash)
      .where('idem_key', '=', idem.key)
      .execute();
  return undefined;
}

/** A pending task's row, charged its price; `balance` is what is left after the charge. */
function newRow(input: NewTask, balance: number) {
  return {
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
    credits_remaining: balance,
  };
}

/** Records the key against its task; now and then forgets records past their day. */
async function remember(trx: Trx, input: NewTask, idem: IdempotentCreate): Promise<void> {
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
  // The index on created_ms keeps this cheap.
  if (Math.random() < 0.02)
    await trx.deleteFrom('idempotency').where('created_ms', '<', idem.sinceMs).execute();
}
