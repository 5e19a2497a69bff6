import type { Context, Env, MiddlewareHandler } from 'hono';
import { rateLimiter } from 'hono-rate-limiter';
import { ERROR_CODES } from '../../contract/index.ts';
import type { Counters } from '../storage/counters.ts';
import { ApiError } from '../../http/index.ts';

export interface RateLimitOptions<E extends Env> {
  /** Requests per window; 0 turns the limit off. */
  limit: number;
  windowMs: number;
  /** Who is counted. */
  keyOf: (c: Context<E>) => string;
  /** The sentence of the 429, given the seconds to wait. */
  message: (retryAfterS: string) => string;
  counters: Counters;
  now: () => number;
  /** Answers that take their hit back (the create limit: 401 and 403, a key nobody knows). */
  uncounted?: readonly number[];
}

/**
 * hono-rate-limiter, counting in the database (`Counters`), so that every replica counts against
 * one limit; 429 with Retry-After and the spec's error body.
 */
export function rateLimit<E extends Env>(options: RateLimitOptions<E>): MiddlewareHandler<E> {
  let windowMs = options.windowMs;
  const limiter = rateLimiter<E>({
    windowMs: options.windowMs,
    limit: options.limit,
    standardHeaders: 'draft-6',
    keyGenerator: options.keyOf,
    skip: () => options.limit <= 0,
    store: {
      init(config) {
        windowMs = config.windowMs;
      },
      async increment(key) {
        const hit = await options.counters.hit(key, windowMs, options.now());
        return { totalHits: hit.count, resetTime: new Date(hit.resetMs) };
      },
      decrement: () => {},
      resetKey: () => {},
      localKeys: false,
    },
    handler: () => {
      // The wait to the window's end by Kiln's clock (the library's own figure reads Date.now).
      const resetMs = (Math.floor(options.now() / windowMs) + 1) * windowMs;
      const wait = String(Math.max(1, Math.ceil((resetMs - options.now()) / 1000)));
      throw new ApiError(
        429,
        { code: ERROR_CODES.rateLimited, message: options.message(wait) },
        { headers: { 'retry-after': wait } },
      );
    },
  });
  const uncounted = options.uncounted ?? [];
  if (uncounted.length === 0) return limiter;
  return async (c, next) => {
    const hitAt = options.now();
    await limiter(c, next);
    if (options.limit > 0 && uncounted.includes(c.res.status))
      await options.counters.undo(options.keyOf(c), windowMs, hitAt).catch(() => {});
  };
}
