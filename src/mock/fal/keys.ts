// The fal mock's accounts: demo keys in fal's documented format, their balances in USD, and the
// one header fal authenticates with (`Authorization: Key <key id>:<key secret>`).

/** One account the mock knows. `admin` keys may read the Platform API's billing (fal's scopes). */
export interface FalMockKey {
  /** `<key id (a UUID)>:<key secret (hex)>`, as fal's dashboard shows a key. */
  key: string;
  /** Credits in USD. */
  balance: number;
  /** An ADMIN-scoped key; fal's billing endpoint answers only those (API-scoped keys get 403). */
  admin: boolean;
  /** The account's username, as the billing endpoint names it. */
  username: string;
}

/**
 * The mock's demo accounts: an ADMIN key whose balance Kiln can read, an API key whose balance it
 * cannot (fal's ordinary key), and an ADMIN key with nothing left (locked, as fal locks it).
 */
export const FAL_DEMO_KEYS: readonly FalMockKey[] = [
  {
    key: '6f1c2a7e-3b4d-4e5f-9a8b-7c6d5e4f3a2b:8d3f1a2b4c5d6e7f8091a2b3c4d5e6f7',
    balance: 10,
    admin: true,
    username: 'kiln-demo',
  },
  {
    key: '0b9e8d7c-6a5f-4e3d-8c2b-1a0f9e8d7c6b:1f2e3d4c5b6a79880f1e2d3c4b5a6978',
    balance: 10,
    admin: false,
    username: 'kiln-demo-api',
  },
  {
    key: 'c4d3e2f1-a0b9-4c8d-9e7f-6a5b4c3d2e1f:0a1b2c3d4e5f60718293a4b5c6d7e8f9',
    balance: 0,
    admin: true,
    username: 'kiln-demo-empty',
  },
];

/** The key in an `Authorization: Key …` header, or undefined. */
export function keyOf(header: string | undefined): string | undefined {
  const match = /^Key\s+(\S+)$/.exec(header?.trim() ?? '');
  return match?.[1];
}

/** Money in USD, kept to a millionth of a dollar so sums of cents stay exact. */
export const usd = (n: number): number => Math.round(n * 1e6) / 1e6;
