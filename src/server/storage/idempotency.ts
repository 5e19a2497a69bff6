import type { Kysely } from 'kysely';
import type { Tables } from './schema.ts';

/** An answer kept for the repeats of an idempotent create. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

interface IdempotencyRecord {
  bodySha256: string;
  state: 'in_flight' | 'done';
  holder: string | null;
  leaseUntilMs: number;
  response: StoredResponse | undefined;
  createdMs: number;
}

/**
 * Idempotency records, per owner and key. A create is recorded *in flight* (held by one
 * process, under a lease it renews) before it is forwarded, so that a repeat anywhere waits for
 * its answer instead of creating a second task, and a crash leaves a record another process can
 * take over once the lease runs out.
 */
export interface IdempotencyStore {
  /** Records the key in flight, held by `holder`; false when the key already has a record. */
  claim(
    owner: string,
    key: string,
    bodySha256: string,
    holder: string,
    nowMs: number,
    leaseMs: number,
  ): Promise<boolean>;
  get(owner: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Takes over an in-flight record whose lease ran out; false when someone else did. */
  takeOver(
    owner: string,
    key: string,
    holder: string,
    nowMs: number,
    leaseMs: number,
  ): Promise<boolean>;
  /** Extends the lease of a record this holder still holds; false when it does not. */
  renew(owner: string, key: string, holder: string, untilMs: number): Promise<boolean>;
  /** Keeps the answer for the repeats. */
  finish(owner: string, key: string, holder: string, response: StoredResponse): Promise<void>;
  /** Forgets the record (an answer not worth repeating: 5xx, 429), so a retry forwards again. */
  release(owner: string, key: string, holder: string): Promise<void>;
  /** Ends every lease (embedded mode, at start: no other process can be holding one). */
  expireAllLeases(): Promise<number>;
  /** Forgets records created before `beforeMs`. */
  purge(beforeMs: number): Promise<void>;
}

const table = 'idempotency_keys' as const;

type Db = Kysely<Tables>;
type Part<K extends keyof IdempotencyStore> = Pick<IdempotencyStore, K>;

/** A record made (claimed in flight) and read back, its answer with it once there is one. */
function records(db: Db): Part<'claim' | 'get'> {
  return {
    async claim(owner, key, bodySha256, holder, nowMs, leaseMs) {
      const r = await db
        .insertInto(table)
        .values({
          owner,
          key,
          body_sha256: bodySha256,
          state: 'in_flight',
          holder,
          lease_until_ms: nowMs + leaseMs,
          status: null,
          headers_json: null,
          body: null,
          created_ms: nowMs,
        })
        .onConflict((oc) => oc.columns(['owner', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      return r !== undefined;
    },

    async get(owner, key) {
      const r = await db
        .selectFrom(table)
        .selectAll()
        .where('owner', '=', owner)
        .where('key', '=', key)
        .executeTakeFirst();
      if (!r) return undefined;
      const done = r.state === 'done' && r.status !== null && r.body !== null;
      return {
        bodySha256: r.body_sha256,
        state: done ? 'done' : 'in_flight',
        holder: r.holder,
        leaseUntilMs: Number(r.lease_until_ms),
        response: done
          ? {
              status: r.status!,
              headers: JSON.parse(r.headers_json ?? '{}') as Record<string, string>,
              body: new Uint8Array(r.body!),
            }
          : undefined,
        createdMs: Number(r.created_ms),
      };
    },
  };
}

/** The lease on an in-flight record: taken over, renewed, ended with an answer or let go. */
function leases(db: Db): Part<'takeOver' | 'renew' | 'finish' | 'release' | 'expireAllLeases'> {
  return {
    async takeOver(owner, key, holder, nowMs, leaseMs) {
      const r = await db
        .updateTable(table)
        .set({ holder, lease_until_ms: nowMs + leaseMs })
        .where('owner', '=', owner)
        .where('key', '=', key)
        .where('state', '=', 'in_flight')
        .where('lease_until_ms', '<', nowMs)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    async renew(owner, key, holder, untilMs) {
      const r = await db
        .updateTable(table)
        .set({ lease_until_ms: untilMs })
        .where('owner', '=', owner)
        .where('key', '=', key)
        .where('holder', '=', holder)
        .where('state', '=', 'in_flight')
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    async finish(owner, key, holder, response) {
      await db
        .updateTable(table)
        .set({
          state: 'done',
          holder: null,
          status: response.status,
          headers_json: JSON.stringify(response.headers),
          body: response.body,
        })
        .where('owner', '=', owner)
        .where('key', '=', key)
        .where('holder', '=', holder)
        .execute();
    },

    async release(owner, key, holder) {
      await db
        .deleteFrom(table)
        .where('owner', '=', owner)
        .where('key', '=', key)
        .where('holder', '=', holder)
        .where('state', '=', 'in_flight')
        .execute();
    },

    async expireAllLeases() {
      const r = await db
        .updateTable(table)
        .set({ lease_until_ms: 0 })
        .where('state', '=', 'in_flight')
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },
  };
}

export function idempotencyStore(db: Db): IdempotencyStore {
  return {
    ...records(db),
    ...leases(db),
    async purge(beforeMs) {
      await db.deleteFrom(table).where('created_ms', '<', beforeMs).execute();
    },
  };
}
