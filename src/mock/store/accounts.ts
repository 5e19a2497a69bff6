import type { KeyGrant } from '../keys.ts';
import { hashKey } from '../keys.ts';
import type { MockDb } from './schema.ts';

interface Account {
  keyHash: string;
  startingBalance: number;
  balance: number;
}

export interface AccountStore {
  /** Adds keys not yet known; existing keys keep their balance. */
  grantKeys(grants: readonly KeyGrant[], nowMs: number): Promise<void>;
  account(keyHash: string): Promise<Account | undefined>;
}

export function accountStore(db: MockDb): AccountStore {
  return {
    async grantKeys(grants, nowMs) {
      for (const g of grants)
        await db
          .insertInto('accounts')
          .values({
            key_hash: hashKey(g.key),
            starting_balance: g.balance,
            balance: g.balance,
            created_ms: nowMs,
          })
          .onConflict((oc) => oc.column('key_hash').doNothing())
          .execute();
    },

    async account(keyHash) {
      const r = await db
        .selectFrom('accounts')
        .selectAll()
        .where('key_hash', '=', keyHash)
        .executeTakeFirst();
      return r && { keyHash: r.key_hash, startingBalance: r.starting_balance, balance: r.balance };
    },
  };
}
