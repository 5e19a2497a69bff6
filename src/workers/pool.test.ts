import { createRequire } from 'node:module';
import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import type { FixtureTask } from './fixture-job.ts';
import { createWorkerPool, WorkerPoolFullError, type WorkerPoolOptions } from './index.ts';

class RevivedError extends Error {}

const JOB = new URL('./fixture-job.ts', import.meta.url);
const poolOf = (options: Partial<WorkerPoolOptions<{ message: string }>> = {}) =>
  createWorkerPool<FixtureTask, string, number, { message: string }>({
    job: JOB,
    revive: (f) => new RevivedError(f.message),
    ...options,
  });

describe('createWorkerPool', () => {
  it("has a thread entry that require() loads at once, so piscina's two loads of it never race", () => {
    // piscina loads the entry when a thread starts and again for its first task, each with
    // require() before import(). An entry with a top-level await is refused by require(), and a
    // require() during the other load's import() is a fatal error in Node 20 (worker.mjs).
    const entry = createRequire(import.meta.url)('./worker.mjs') as { default: unknown };
    expect(typeof entry.default).toBe('function');
  });

  const pool = poolOf({ threads: 1, warmThreads: 1 });
  afterAll(() => pool.close());

  it('runs a job on another thread, passing its progress back in order', async () => {
    expect(await pool.run({ kind: 'echo', value: 'hello' })).toBe('hello');
    expect(pool.lastThreadId).toBeDefined();
    expect(pool.lastThreadId).not.toBe(threadId);
    const seen: number[] = [];
    expect(await pool.run({ kind: 'count', to: 5 }, { onProgress: (n) => seen.push(n) })).toBe(
      'counted',
    );
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('revives expected failures as their own error; others reject with their message', async () => {
    const bad = await pool.run({ kind: 'bad-input', message: 'no' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(RevivedError);
    expect((bad as Error).message).toBe('no');
    await expect(pool.run({ kind: 'throw', message: 'broken' })).rejects.toThrow('broken');
  });

  it('ends a running job when its signal aborts, rejecting with the reason, and goes on', async () => {
    const controller = new AbortController();
    const spinning = pool.run({ kind: 'spin' }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop it')), 50);
    await expect(spinning).rejects.toThrow('stop it');
    expect(await pool.run({ kind: 'echo', value: 'after' })).toBe('after');
  });

  it('stops a job past its time limit with a TimeoutError', async () => {
    const error = await pool.run({ kind: 'spin' }, { timeoutMs: 50 }).catch((e: unknown) => e);
    expect((error as Error).name).toBe('TimeoutError');
    expect(await pool.run({ kind: 'echo', value: 'again' })).toBe('again');
  });

  it('never starts a job whose signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await expect(
      pool.run({ kind: 'echo', value: 'x' }, { signal: controller.signal }),
    ).rejects.toThrow('too late');
  });

  it('replaces a thread that dies, failing only its job', async () => {
    await expect(pool.run({ kind: 'die' })).rejects.toThrow();
    expect(await pool.run({ kind: 'echo', value: 'alive' })).toBe('alive');
  });
});

describe('createWorkerPool: queue and shutdown', () => {
  it('bounds the jobs waiting for a thread, and counts them', async () => {
    const pool = poolOf({ threads: 1, maxQueue: 1 });
    try {
      const first = pool.run({ kind: 'wait', ms: 100 });
      const second = pool.run({ kind: 'echo', value: 'second' });
      expect(pool.load).toEqual({ running: 1, waiting: 1 });
      await expect(pool.run({ kind: 'echo', value: 'third' })).rejects.toBeInstanceOf(
        WorkerPoolFullError,
      );
      expect(await Promise.all([first, second])).toEqual(['waited', 'second']);
      expect(pool.load).toEqual({ running: 0, waiting: 0 });
    } finally {
      await pool.close();
    }
  });

  it('finishes the waiting jobs on close, or drops them when asked; later runs reject', async () => {
    const drained = poolOf({ threads: 1 });
    const a = drained.run({ kind: 'wait', ms: 50 });
    const b = drained.run({ kind: 'echo', value: 'b' });
    await drained.close();
    expect(await Promise.all([a, b])).toEqual(['waited', 'b']);
    await expect(drained.run({ kind: 'echo', value: 'c' })).rejects.toThrow(/closed/);

    const dropped = poolOf({ threads: 1 });
    // A thread that has started takes the next job at once: only jobs still waiting are dropped.
    await dropped.run({ kind: 'echo', value: 'warm' });
    const c = dropped.run({ kind: 'wait', ms: 50 });
    const d = dropped.run({ kind: 'echo', value: 'd' });
    await dropped.close({ dropQueued: true });
    expect(await c).toBe('waited');
    await expect(d).rejects.toThrow();
  });
});
