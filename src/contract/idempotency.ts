/**
 * Idempotency keys, as Kiln's server and its mock honour them (Stripe's model): a create sent
 * with `Idempotency-Key` is answered once per API key; a repeat with the same body gets the same
 * answer, a different body a 409.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** How long a key is remembered, by Kiln and by its mock (Stripe keeps them a day). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/** 1 to 255 visible ASCII characters. */
export const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;

export const IDEMPOTENCY_KEY_PROBLEM = `${IDEMPOTENCY_HEADER} must be 1 to 255 visible ASCII characters.`;

/**
 * A JSON text with object keys sorted at every depth and no whitespace, so that two bodies that
 * say the same thing compare equal; a text that is not JSON comes back as it is.
 */
export function canonicalJson(text: string): string {
  try {
    return JSON.stringify(sortKeys(JSON.parse(text)));
  } catch {
    return text;
  }
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}
