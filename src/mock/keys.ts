import { createHash } from 'node:crypto';
import { z } from 'zod';

export interface KeyGrant {
  key: string;
  balance: number;
}

const KEY_RE = /^tr_[A-Za-z0-9_-]{4,200}$/;

/**
 * Parse `MOCK_KEYS`: comma-separated `key:balance` pairs, for example
 * `tr_demo_kiln:1000,tr_poor:5`. Throws a sentence naming the bad pair.
 */
export const MockKeysSchema = z.string().transform((raw, ctx): KeyGrant[] => {
  const grants: KeyGrant[] = [];
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [key = '', balanceText = '', ...rest] = part.split(':');
    const balance = Number(balanceText);
    if (
      !KEY_RE.test(key) ||
      rest.length > 0 ||
      !/^\d+$/.test(balanceText) ||
      !Number.isSafeInteger(balance)
    ) {
      ctx.addIssue({
        code: 'custom',
        message: `"${part.replace(/^(tr_.{3}).*?(:|$)/, '$1…$2')}" is not a key:balance pair (the key starts with tr_, the balance is a whole number).`,
      });
      return z.NEVER;
    }
    grants.push({ key, balance });
  }
  if (grants.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'at least one key:balance pair is needed.' });
    return z.NEVER;
  }
  return grants;
});

export const DEMO_KEY = 'tr_demo_kiln';
export const DEFAULT_MOCK_KEYS = `${DEMO_KEY}:1000`;

/** What the mock stores in place of a key: its SHA-256. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
