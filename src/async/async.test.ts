import { describe, expect, it, vi } from 'vitest';
import { createAbortGroup, createLimiter, raceSignal, sleep } from './index.ts';

describe('sleep and raceSignal', () => {
  it('sleeps, and rejects with the reason when aborted', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
    const ac = new AbortController();
    const slept = sleep(60_000, ac.signal);
    ac.abort(new Error('stop'));
    await expect(slept).rejects.toThrow('stop');
    await expect(sleep(1, ac.signal)).rejects.toThrow('stop');
  });

  it('races a promise that ignores the signal', async () => {
    const ac = new AbortController();
    const never = new Promise<number>(() => {});
    const raced = raceSignal(never, ac.signal);
    ac.abort(new Error('gone'));
    await expect(raced).rejects.toThrow('gone');
    await expect(raceSignal(Promise.resolve(3), undefined)).resolves.toBe(3);
  });
});

describe('createAbortGroup', () => {
  it('aborts every child with one listener at most, without Node warnings', async () => {
    const warn = vi.fn();
    process.on('warning', warn);
    const group = createAbortGroup();
    const sleeps = Array.from({ length: 50 }, () => {
      const child = group.child();
      return sleep(60_000, child.signal).finally(child.release);
    });
    group.abort(new Error('closing'));
    const results = await Promise.allSettled(sleeps);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(group.child().signal.aborted).toBe(true);
    await new Promise((r) => setImmediate(r));
    process.off('warning', warn);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('createLimiter', () => {
  it('runs at most n at once, in order', async () => {
    const limit = createLimiter(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const all = Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        limit(async () => {
          running++;
          peak = Math.max(peak, running);
          await sleep(5);
          order.push(i);
          running--;
        }),
      ),
    );
    await sleep(1);
    // Counted live: two running, four waiting.
    expect([limit.active, limit.waiting]).toEqual([2, 4]);
    await all;
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(limit.active).toBe(0);
    expect(() => createLimiter(0)).toThrow(RangeError);
  });
});
