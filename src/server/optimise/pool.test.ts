import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { optimisePlanOf } from '../../contract/index.ts';
import { IMAGE_QUALITY, imageToGlb } from '../../generator/index.ts';
import { photo } from '../../testing/generator.ts';
import { OptimiseInputError } from './pipeline.ts';
import { createOptimisePool } from './pool.ts';

describe('createOptimisePool', () => {
  const pool = createOptimisePool();
  afterAll(() => pool.close());

  it('optimises on another thread while this one keeps running, reporting progress', async () => {
    const chair = await imageToGlb(await photo('chair.png'), IMAGE_QUALITY.high);
    const stages: string[] = [];
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const out = await pool.run(
      chair,
      optimisePlanOf({
        preset: 'custom',
        triangles: 2000,
        texture_format: 'webp',
        compression: 'draco',
      }),
      (_p, stage) => stages.push(stage),
      new AbortController().signal,
    );
    clearInterval(timer);
    expect(out.after.triangles).toBeLessThanOrEqual(2000);
    expect(pool.lastThreadId).toBeDefined();
    expect(pool.lastThreadId).not.toBe(threadId);
    expect(stages[0]).toBe('Reading the model');
    expect(stages).toContain('Compressing geometry (Draco)');
    // The main thread's timers ran while the worker worked.
    expect(ticks).toBeGreaterThan(5);
  });

  it('brings input errors back as OptimiseInputError', async () => {
    const error = await pool
      .run(
        new Uint8Array([1, 2, 3]),
        optimisePlanOf({ preset: 'web' }),
        () => {},
        new AbortController().signal,
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OptimiseInputError);
  });

  it('stops a job when its signal aborts', async () => {
    const chair = await imageToGlb(await photo('chair.png'), IMAGE_QUALITY.high);
    const controller = new AbortController();
    const running = pool.run(
      chair,
      optimisePlanOf({ preset: 'custom', texture_size: 256, texture_format: 'ktx2' }),
      () => controller.abort(new Error('timeout')),
      controller.signal,
    );
    await expect(running).rejects.toThrow();
  });
});
