export interface RateLimit {
  /** Requests allowed per key in each window. */
  limit: number;
  windowMs: number;
}

/**
 * Fixed-window counter per key. `take` answers how many ms to wait when the
 * key is over its limit, or 0 when the request may go ahead.
 */
export interface RateLimiter {
  /** How many ms `key` must wait, or 0 when its request may go ahead (and is counted). */
  take(key: string): number;
}

export function createRateLimiter(config: RateLimit | null, now: () => number): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key) {
      if (!config || config.limit <= 0) return 0;
      const t = now();
      let w = windows.get(key);
      if (!w || t - w.start >= config.windowMs) {
        w = { start: t, count: 0 };
        windows.set(key, w);
        if (windows.size > 10_000)
          for (const [k, v] of windows) if (t - v.start >= config.windowMs) windows.delete(k);
      }
      w.count++;
      return w.count > config.limit ? w.start + config.windowMs - t : 0;
    },
  };
}
