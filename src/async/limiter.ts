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
  return Object.assign(run, {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  });
}
export type Limiter = ReturnType<typeof createLimiter>;
