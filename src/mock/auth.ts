import type { MiddlewareHandler } from 'hono';
import { ERROR_CODES, isApiKeyShaped } from '../contract/index.ts';
import { ApiError } from '../http/index.ts';
import { hashKey } from './keys.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { MockStore } from './store.ts';

/** What the key check leaves for the routes after it: the caller's key, hashed. */
export type KeyEnv = { Variables: { keyHash: string } };

/**
 * Bearer auth and the per-key rate limit (spec 2.1 and 6), for every route but the model files
 * and the mock-only prompt check: a missing, malformed or unknown key is a 401, a key over its
 * limit a 429 with Retry-After.
 */
export function apiKeyAuth(deps: {
  /** Resolves once the keys are granted. */
  ready: Promise<void>;
  store: Pick<MockStore, 'account'>;
  limiter: RateLimiter;
}): MiddlewareHandler<KeyEnv> {
  // Accounts are never removed: a key seen once is known for good.
  const knownKeys = new Set<string>();
  return async (c, next) => {
    await deps.ready;
    const header = c.req.header('authorization');
    if (!header)
      throw new ApiError(401, {
        code: ERROR_CODES.missingApiKey,
        message: 'No API key. Send it as "Authorization: Bearer tr_…".',
      });
    const key = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
    if (!key || !isApiKeyShaped(key))
      throw new ApiError(401, {
        code: ERROR_CODES.invalidApiKey,
        message:
          'The Authorization header must be "Bearer " followed by an API key starting with tr_.',
      });
    const keyHash = hashKey(key);
    if (!knownKeys.has(keyHash) && (await deps.store.account(keyHash))) knownKeys.add(keyHash);
    if (!knownKeys.has(keyHash))
      throw new ApiError(401, {
        code: ERROR_CODES.invalidApiKey,
        message: 'This API key is not valid. Check it in your account settings under API keys.',
      });
    const waitMs = deps.limiter.take(keyHash);
    if (waitMs > 0) {
      const seconds = String(Math.max(1, Math.ceil(waitMs / 1000)));
      throw new ApiError(
        429,
        {
          code: ERROR_CODES.rateLimited,
          message: `Too many requests for this API key. Try again in ${seconds} s.`,
        },
        { headers: { 'Retry-After': seconds } },
      );
    }
    c.set('keyHash', keyHash);
    await next();
  };
}
