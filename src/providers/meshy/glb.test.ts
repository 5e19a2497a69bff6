// A completed Meshy mock task's GLB is a real model from Kiln's generator, valid by the Khronos
// validator: fetched over HTTP from the signed address the adapter reports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGeneratorPool, type GeneratorPool } from '../../generator/runtime/pool.ts';
import { pooledGenerator } from '../../mock/create.ts';
import { MESHY_KEY, pollMeshy, serveMeshy, type ServedMeshy } from '../../testing/meshy.ts';
import { photoDataUri } from '../../testing/mock.ts';
import type { ProviderTask } from '../types.ts';

// The generator on worker threads, as a server runs it, so the mock keeps answering polls.
let pool: GeneratorPool;
let meshy: ServedMeshy;
beforeAll(async () => {
  pool = createGeneratorPool({ threads: 1 });
  meshy = await serveMeshy({ generator: pooledGenerator(pool) });
});
afterAll(async () => {
  await meshy.close();
  await pool.close();
});

const ended = (t: ProviderTask) => t.status === 'succeeded' || t.status === 'failed';

async function validGlb(url: string) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('model/gltf-binary');
  const bytes = new Uint8Array(await res.arrayBuffer());
  const { validateBytes } = await import('gltf-validator');
  const report = await validateBytes(bytes);
  expect(report.issues.numErrors).toBe(0);
  return report;
}

describe("the Meshy mock's GLBs", () => {
  it('a photo task gives a valid, non-empty GLB', async () => {
    const { adapter } = meshy;
    const t = await adapter.create(MESHY_KEY, 'meshy-6', {
      kind: 'image',
      imageUrl: photoDataUri('chair.png'),
    });
    const done = (await pollMeshy(adapter, MESHY_KEY, t.ref, ended)).at(-1)!;
    expect(done.status).toBe('succeeded');
    const report = await validGlb(done.result!.glbUrl);
    expect(report.info?.totalTriangleCount ?? 0).toBeGreaterThan(100);
  });

  it('a text task, after its refine, gives a valid GLB', async () => {
    const { adapter } = meshy;
    const t = await adapter.create(MESHY_KEY, 'meshy-5', { kind: 'text', prompt: 'a red mug' });
    const preview = (await pollMeshy(adapter, MESHY_KEY, t.ref, (x) => !!x.awaitingContinue)).at(
      -1,
    )!;
    const refine = await adapter.continue!(MESHY_KEY, preview.ref);
    const done = (await pollMeshy(adapter, MESHY_KEY, refine.ref, ended)).at(-1)!;
    expect(done.status).toBe('succeeded');
    await validGlb(done.result!.glbUrl);
  });
});
