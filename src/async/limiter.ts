/** At most `n` calls of the returned function run at once; the rest wait their turn, in order. */
export function createLimiter(n: number) {
  if (!(n >= 1)) throw new RangeError('a limiter needs at least one slot');
  let active = 0;
  const queue: (() => void)[] = [];
  const run = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((resolve) => queue.push(resolve));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
  // Getters defined on the function itself (Object.assign would copy their values once).
  return Object.defineProperties(run, {
    active: { get: () => active, enumerable: true },
    waiting: { get: () => queue.length, enumerable: true },
  }) as typeof run & { readonly active: number; readonly waiting: number };
}
export type Limiter = ReturnType<typeof createLimiter>;
