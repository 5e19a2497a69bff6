import { threadId } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { GeneratorInputError, imageToGlb } from '../index.ts';
import { createGeneratorPool } from './pool.ts';
import { inspectGlb, photo } from '../../testing/generator.ts';

describe('createGeneratorPool', () => {
  const pool = createGeneratorPool({ threads: 2 });
  afterAll(() => pool.close());

  it('builds the same GLB as the direct call, on another thread, reporting the phase', async () => {
    const chair = await photo('chair.png');
    const phases: string[] = [];
    const [pooled, direct] = await Promise.all([
      pool.imageToGlb(chair, { onPhase: (p) => phases.push(p) }),
      imageToGlb(chair),
    ]);
    expect(Buffer.from(pooled).equals(Buffer.from(direct))).toBe(true);
    expect(pool.lastThreadId).toBeDefined();
    expect(pool.lastThreadId).not.toBe(threadId);
    expect(phases).toEqual(['processing']);
  });

  it('runs views and prompts too', async () => {
    const [views, prompt] = await Promise.all([
      pool.viewsToGlb([await photo('robot.png'), await photo('horse.png')]),
      pool.promptToGlb('a red mug'),
    ]);
    for (const glb of [views, prompt]) {
      expect((await inspectGlb(glb)).report.issues.numErrors).toBe(0);
    }
  });

  it('draws a photo’s cut-out on a thread, and says why a photo cannot be modelled', async () => {
    const cutout = await pool.cutout(await photo('robot.png'));
    expect(cutout.usable).toBe(true);
    expect(cutout.usable && cutout.overlayPng?.byteLength).toBeGreaterThan(100);
    expect(await pool.cutout(new TextEncoder().encode('not an image'))).toMatchObject({
      usable: false,
      reason: 'not_an_image',
    });
  });

  it('passes input errors back as GeneratorInputError, with the image position', async () => {
    const chair = await photo('chair.png');
    const error: unknown = await pool
      .viewsToGlb([chair, new TextEncoder().encode('not an image')])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GeneratorInputError);
    expect((error as GeneratorInputError).imageIndex).toBe(1);
    expect((error as Error).message).toMatch(/^Image 2 is plain text; use a PNG/);
    expect((error as GeneratorInputError).reason).toBe('not_an_image');
    await expect(pool.promptToGlb('   ')).rejects.toMatchObject({ reason: 'empty_prompt' });
  });

  it('says what kind of input problem it was, across the thread boundary', async () => {
    const sharp = (await import('sharp')).default;
    const white = await sharp({
      create: { width: 64, height: 64, channels: 3, background: '#ffffff' },
    })
      .png()
      .toBuffer();
    const error: unknown = await pool.imageToGlb(new Uint8Array(white)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GeneratorInputError);
    expect((error as GeneratorInputError).reason).toBe('no_subject');
  });
});
