// The Meshy adapter against the Meshy mock over real HTTP on 127.0.0.1: every input kind, every
// status the mock produces, each fault, and the balance against the mock's ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MESHY_KEY,
  MESHY_POOR_KEY,
  pollMeshy,
  serveMeshy,
  type ServedMeshy,
} from '../../testing/meshy.ts';
import { photoDataUri } from '../../testing/mock.ts';
import type { ProviderTask } from '../types.ts';
import { rejection } from '../../testing/provider-errors.ts';

let meshy: ServedMeshy;
beforeAll(async () => {
  meshy = await serveMeshy();
});
afterAll(() => meshy.close());

const photo = photoDataUri('chair.png');
const ended = (t: ProviderTask) => t.status === 'succeeded' || t.status === 'failed';

describe('the Meshy adapter against its mock', () => {
  it('makes a model from one photo: queued, running with progress, succeeded with a GLB', async () => {
    const { adapter } = meshy;
    const before = await adapter.balance(MESHY_KEY);
    const created = await adapter.create(MESHY_KEY, 'meshy-6', { kind: 'image', imageUrl: photo });
    expect(created).toMatchObject({ status: 'queued', progress: 0, cost: { amount: 30 } });
    const seen = await pollMeshy(adapter, MESHY_KEY, created.ref, ended);
    const statuses = seen.map((t) => t.status);
    expect(statuses).toContain('queued');
    expect(statuses).toContain('running');
    const running = seen.filter((t) => t.status === 'running').map((t) => t.progress ?? -1);
    expect(running.every((p) => p >= 1 && p <= 95)).toBe(true);
    expect(running).toEqual([...running].sort((a, b) => a - b));
    const done = seen.at(-1)!;
    expect(done).toMatchObject({ status: 'succeeded', progress: 100, cost: { amount: 30 } });
    const glb = await fetch(done.result!.glbUrl);
    expect(glb.status).toBe(200);
    expect(done.result!.expiresMs).toBeGreaterThan(Date.now() + 2 * 24 * 3600_000);
    expect((await adapter.balance(MESHY_KEY))!.amount).toBe(before!.amount - 30);
  });

  it('sends 2–4 views in front, right, back, left order as one multi-image task', async () => {
    const { adapter } = meshy;
    const views = [
      { side: 'left' as const, url: photoDataUri('horse.png') },
      { side: 'front' as const, url: photo },
    ];
    const created = await adapter.create(MESHY_KEY, 'meshy-5', { kind: 'multiview', views });
    expect(created.ref).toMatch(/^multi\.meshy-5\./);
    const done = (await pollMeshy(adapter, MESHY_KEY, created.ref, ended)).at(-1)!;
    expect(done).toMatchObject({ status: 'succeeded', cost: { amount: 15 } });
  });

  it('shows text as one task of two charged steps: preview, continue, refine', async () => {
    const { adapter, mock } = meshy;
    const before = mock.balanceOf(MESHY_KEY)!;
    const created = await adapter.create(MESHY_KEY, 'meshy-6', {
      kind: 'text',
      prompt: 'a red vase',
    });
    expect(created.step).toEqual({ index: 1, of: 2, name: 'Preview' });
    expect(created.cost).toEqual({ amount: 20, unit: 'credits' });
    const preview = (
      await pollMeshy(adapter, MESHY_KEY, created.ref, (t) => !!t.awaitingContinue)
    ).at(-1)!;
    expect(preview).toMatchObject({ status: 'running', progress: 50, awaitingContinue: true });
    expect(preview.result).toBeUndefined();
    const refine = await adapter.continue!(MESHY_KEY, preview.ref);
    expect(refine.step).toEqual({ index: 2, of: 2, name: 'Refine' });
    const seen = await pollMeshy(adapter, MESHY_KEY, refine.ref, ended);
    expect(seen.every((t) => (t.progress ?? 100) >= 50)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ status: 'succeeded', progress: 100, cost: { amount: 10 } });
    expect(mock.balanceOf(MESHY_KEY)).toBe(before - 30);
    // A refine's own ref has no next stage.
    expect((await rejection(adapter.continue!(MESHY_KEY, refine.ref))).kind).toBe('invalid_input');
  });

  it('says why a task failed, in words, and the mock refunds it as Meshy does', async () => {
    const { adapter, mock } = meshy;
    const before = mock.balanceOf(MESHY_KEY)!;
    const created = await adapter.create(MESHY_KEY, 'meshy-6', {
      kind: 'image',
      imageUrl: `${photo}`,
    });
    await pollMeshy(adapter, MESHY_KEY, created.ref, ended);
    const failing = await adapter.create(MESHY_KEY, 'meshy-6', {
      kind: 'text',
      prompt: 'mock:fail',
    });
    const failed = (await pollMeshy(adapter, MESHY_KEY, failing.ref, ended)).at(-1)!;
    expect(failed).toMatchObject({ status: 'failed', progress: null, refunded: true });
    expect(failed.error).toEqual({
      code: 'generation_failed',
      message: expect.stringContaining(
        'Meshy could not make the preview mesh (stage 1 of 2)',
      ) as string,
    });
    const busy = await adapter.create(MESHY_KEY, 'meshy-6', { kind: 'text', prompt: 'mock:busy' });
    const busyEnd = (await pollMeshy(adapter, MESHY_KEY, busy.ref, ended)).at(-1)!;
    expect(busyEnd.error?.code).toBe('vendor_busy');
    expect(busyEnd.error?.message).toMatch(/too busy/);
    expect(mock.balanceOf(MESHY_KEY)).toBe(before - 30);
  });

  it('a failed refine keeps the preview charged and refunds the refine', async () => {
    const { adapter, mock } = meshy;
    const before = mock.balanceOf(MESHY_KEY)!;
    const t = await adapter.create(MESHY_KEY, 'meshy-6', {
      kind: 'text',
      prompt: 'a mug mock:fail-refine',
    });
    const preview = (await pollMeshy(adapter, MESHY_KEY, t.ref, (x) => !!x.awaitingContinue)).at(
      -1,
    )!;
    const refine = await adapter.continue!(MESHY_KEY, preview.ref);
    const end = (await pollMeshy(adapter, MESHY_KEY, refine.ref, ended)).at(-1)!;
    expect(end).toMatchObject({ status: 'failed', refunded: true, step: { index: 2 } });
    expect(end.error?.message).toMatch(/stage 2 of 2.*preview stage stays charged/);
    expect(mock.balanceOf(MESHY_KEY)).toBe(before - 20);
  });
});

describe('Meshy faults as ProviderError kinds', () => {
  it('429 from a create is rate_limited with Retry-After, and charges nothing', async () => {
    const before = meshy.mock.balanceOf(MESHY_KEY);
    const err = await rejection(
      meshy.adapter.create(MESHY_KEY, 'meshy-6', { kind: 'text', prompt: 'mock:429' }),
    );
    expect(err).toMatchObject({ kind: 'rate_limited', details: { status: 429, retryAfterS: 2 } });
    expect(meshy.mock.balanceOf(MESHY_KEY)).toBe(before);
  });

  it('a 5xx is upstream_error and charges nothing', async () => {
    const before = meshy.mock.balanceOf(MESHY_KEY);
    const err = await rejection(
      meshy.adapter.create(MESHY_KEY, 'meshy-6', { kind: 'text', prompt: 'mock:5xx' }),
    );
    expect(err).toMatchObject({ kind: 'upstream_error', details: { status: 500 } });
    expect(meshy.mock.balanceOf(MESHY_KEY)).toBe(before);
  });

  it('an unknown key is invalid_key; a short balance is insufficient_credits', async () => {
    const bad = await rejection(meshy.adapter.balance('msy_notAKeyTheMockKnows00000000000000000'));
    expect(bad).toMatchObject({ kind: 'invalid_key', details: { status: 401 } });
    const poor = await rejection(
      meshy.adapter.create(MESHY_POOR_KEY, 'meshy-6', { kind: 'image', imageUrl: photo }),
    );
    expect(poor).toMatchObject({ kind: 'insufficient_credits', details: { status: 402 } });
    expect((await meshy.adapter.balance(MESHY_POOR_KEY))?.amount).toBe(10);
  });

  it('an unknown task is not_found; bad input is refused before anything is sent', async () => {
    const missing = await rejection(meshy.adapter.get(MESHY_KEY, 'image.meshy-6.0000-nope'));
    expect(missing).toMatchObject({ kind: 'not_found', details: { status: 404 } });
    const long = await rejection(
      meshy.adapter.create(MESHY_KEY, 'meshy-6', { kind: 'text', prompt: 'x'.repeat(601) }),
    );
    expect(long).toMatchObject({ kind: 'invalid_input', details: { param: 'prompt' } });
    const model = await rejection(
      meshy.adapter.create(MESHY_KEY, 'meshy-9', { kind: 'text', prompt: 'a cup' }),
    );
    expect(model).toMatchObject({ kind: 'invalid_input', details: { param: 'model' } });
  });

  it("defaults to Meshy's public API; a closed port is unreachable", async () => {
    const { createMeshyAdapter, MESHY_DEFAULT_BASE_URL } = await import('./index.ts');
    expect(MESHY_DEFAULT_BASE_URL).toBe('https://api.meshy.ai');
    const adapter = createMeshyAdapter({ baseUrl: 'http://127.0.0.1:9' });
    expect((await rejection(adapter.balance(MESHY_KEY))).kind).toBe('unreachable');
  });

  it("recognises keys by Meshy's msy_ prefix", () => {
    expect(meshy.adapter.recognisesKey('msy_dummy_api_key_for_test_mode_12345678')).toBe(true);
    expect(meshy.adapter.recognisesKey(MESHY_KEY)).toBe(true);
    expect(meshy.adapter.recognisesKey('tr_demo_kiln')).toBe(false);
    expect(meshy.adapter.recognisesKey('tsk_abcdefghijkl')).toBe(false);
  });
});

describe('limits, expiry and retries', () => {
  it('the per-key request rate gives 429 rate_limited with Retry-After', async () => {
    const m = await serveMeshy({ requestsPerSecond: 2 });
    try {
      await m.adapter.balance(MESHY_KEY);
      await m.adapter.balance(MESHY_KEY);
      const err = await rejection(m.adapter.balance(MESHY_KEY));
      expect(err).toMatchObject({ kind: 'rate_limited', details: { status: 429, retryAfterS: 1 } });
    } finally {
      await m.close();
    }
  });

  it('a full queue is too_many_tasks', async () => {
    const m = await serveMeshy({ queueTasks: 1 });
    try {
      await m.adapter.create(MESHY_KEY, 'meshy-5', { kind: 'text', prompt: 'a cup' });
      const err = await rejection(
        m.adapter.create(MESHY_KEY, 'meshy-5', { kind: 'text', prompt: 'a cup' }),
      );
      expect(err).toMatchObject({ kind: 'too_many_tasks', details: { status: 429 } });
    } finally {
      await m.close();
    }
  });

  it('a result address stops working when Meshy stops keeping the model (3 days)', async () => {
    const m = await serveMeshy();
    try {
      const t = await m.adapter.create(MESHY_KEY, 'meshy-6', { kind: 'image', imageUrl: photo });
      const done = (await pollMeshy(m.adapter, MESHY_KEY, t.ref, ended)).at(-1)!;
      const { glbUrl, expiresMs } = done.result!;
      expect((await fetch(glbUrl)).status).toBe(200);
      m.advance(expiresMs! - Date.now() + 1000);
      expect((await fetch(glbUrl)).status).toBe(403);
      // Polled again, the task still names the same (now dead) address and when it died.
      const again = await m.adapter.get(MESHY_KEY, t.ref);
      expect(again.result?.expiresMs).toBe(expiresMs);
    } finally {
      await m.close();
    }
  });

  it('a retried create makes and charges a second task: Meshy has no idempotency key', async () => {
    const m = await serveMeshy();
    try {
      const input = { kind: 'image' as const, imageUrl: photo };
      const a = await m.adapter.create(MESHY_KEY, 'meshy-6', input, { idempotencyKey: 'intent-1' });
      const b = await m.adapter.create(MESHY_KEY, 'meshy-6', input, { idempotencyKey: 'intent-1' });
      expect(a.ref).not.toBe(b.ref);
      expect(m.mock.balanceOf(MESHY_KEY)).toBe(1000 - 60);
      await pollMeshy(m.adapter, MESHY_KEY, b.ref, ended);
      expect((await m.adapter.balance(MESHY_KEY))!.amount).toBe(m.mock.balanceOf(MESHY_KEY));
    } finally {
      await m.close();
    }
  });

  it('the balance equals the mock ledger after every kind of task', async () => {
    const bal = await meshy.adapter.balance(MESHY_KEY);
    expect(bal).toMatchObject({ amount: meshy.mock.balanceOf(MESHY_KEY), unit: 'credits' });
    // 1000 − image 30 − multi 15 − text 30 − (image 30 + failed 0 + busy 0) − preview 20.
    expect(bal!.amount).toBe(1000 - 30 - 15 - 30 - 30 - 20);
  });
});
