// The Tripo adapter against the Tripo mock over real HTTP on 127.0.0.1: every status, each
// fault, the balance against the mock's ledger, and a completed task's GLB through the validator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photo } from '../../testing/images.ts';
import { freePort } from '../../testing/ports.ts';
import { serveTripoMock, type ServedTripoMock } from '../../testing/tripo-mock.ts';
import { ProviderError, type ProviderAdapter, type ProviderTask } from '../types.ts';
import { createTripoAdapter, TRIPO_DEFAULT_API_URL } from './adapter.ts';
import { RESULT_TTL_MS } from './mapping.ts';

const KEY = 'tsk_test_rich';
const POOR = 'tsk_test_poor';
const KEYS = [
  { key: KEY, balance: 1000 },
  { key: POOR, balance: 15 },
];
const H = 'v2.5-20250123';
const dataUri = (bytes: Uint8Array) =>
  `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;

/** Polls until the task has ended, keeping every state seen. */
async function settle(adapter: ProviderAdapter, key: string, ref: string) {
  const seen: ProviderTask[] = [];
  for (let i = 0; i < 300; i++) {
    const task = await adapter.get(key, ref);
    seen.push(task);
    if (task.status === 'succeeded' || task.status === 'failed') return { task, seen };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`task ${ref} did not end`);
}

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ProviderError))
    throw new Error(`expected a ProviderError, got ${String(err)}`);
  return err;
}

let served: ServedTripoMock;
let adapter: ProviderAdapter;
let skewMs = 0;
/** The mock's clock stands still at this time while it is set. */
let frozenAt: number | undefined;
const clock = () => frozenAt ?? Date.now() + skewMs;
beforeAll(async () => {
  served = await serveTripoMock({ keys: KEYS, now: clock });
  adapter = createTripoAdapter({ baseUrl: served.baseUrl, now: clock });
});
afterAll(() => served.close());

describe('the Tripo adapter', () => {
  it('knows Tripo keys by their documented prefix, and its public URL', () => {
    expect(adapter.recognisesKey('tsk_abc123')).toBe(true);
    expect(adapter.recognisesKey('msy_abc123')).toBe(false);
    expect(adapter.recognisesKey('tr_demo_kiln')).toBe(false);
    expect(TRIPO_DEFAULT_API_URL).toBe('https://api.tripo3d.ai/v2/openapi');
    expect(createTripoAdapter({ baseUrl: '' }).name).toBe('tripo');
  });

  it('lists the documented models with their prices in credits', async () => {
    const models = await adapter.models(KEY);
    expect(models.map((m) => m.id)).toEqual([
      'v3.1-20260211',
      'v3.0-20250812',
      'v2.5-20250123',
      'P1-20260311',
    ]);
    expect(models.find((m) => m.id === H)?.price).toEqual({ text: 20, image: 30, multiview: 30 });
    expect(models.find((m) => m.id === 'P1-20260311')?.price.image).toBe(50);
  });

  it('maps queued, running and success, with progress, and the result that expires', async () => {
    frozenAt = Date.now();
    const created = await adapter.create(KEY, H, { kind: 'text', prompt: 'a wooden chair' });
    expect(created).toMatchObject({ status: 'queued', progress: 0, cost: { amount: 20 } });
    const queued = await adapter.get(KEY, created.ref);
    expect(queued).toMatchObject({ status: 'queued', progress: 0, queuePosition: 0 });
    // The fast speed queues 300 ms and runs 1500 ms: stop the clock 40% of the way through.
    frozenAt += 300 + 600;
    const running = await adapter.get(KEY, created.ref);
    expect(running).toMatchObject({ status: 'running', progress: 40 });
    expect(running.stage).toMatch(/about 1 s left/);
    frozenAt = undefined;
    const { task } = await settle(adapter, KEY, created.ref);
    expect(task).toMatchObject({ status: 'succeeded', progress: 100 });
    const expires = task.result?.expiresMs ?? 0;
    expect(expires).toBeGreaterThan(Date.now());
    expect(expires).toBeLessThanOrEqual(Date.now() + RESULT_TTL_MS + 1000);
    const glb = await fetch(task.result?.glbUrl ?? '');
    expect(glb.headers.get('content-type')).toBe('model/gltf-binary');
    const { validateBytes } = await import('gltf-validator');
    const report = await validateBytes(new Uint8Array(await glb.arrayBuffer()));
    expect(report.issues.numErrors).toBe(0);
  });

  it('uploads a data: photo for an image task, and makes a real model of it', async () => {
    const created = await adapter.create(KEY, 'v3.1-20260211', {
      kind: 'image',
      imageUrl: dataUri(photo('chair.png')),
    });
    expect(created.cost).toEqual({ amount: 30, unit: 'credits' });
    const { task } = await settle(adapter, KEY, created.ref);
    expect(task.status).toBe('succeeded');
  });

  it('puts named views in their slots, and makes a model of two views', async () => {
    const chair = dataUri(photo('chair.png'));
    const created = await adapter.create(KEY, H, {
      kind: 'multiview',
      views: [
        { side: 'left', url: chair },
        { side: 'front', url: chair },
      ],
    });
    const { task } = await settle(adapter, KEY, created.ref);
    expect(task.status).toBe('succeeded');
  });

  it.each([
    ['mock:fail', 'tripo_failed', true],
    ['mock:banned', 'tripo_banned', true],
    ['mock:expired', 'tripo_expired', true],
    ['mock:cancelled', 'tripo_cancelled', true],
    ['mock:unknown', 'tripo_unknown', false],
  ])('maps a task that ends %s to a failure a person reads', async (trigger, code, refunded) => {
    const before = served.mock.ledger(KEY);
    const created = await adapter.create(KEY, H, { kind: 'text', prompt: `a lamp ${trigger}` });
    const { task } = await settle(adapter, KEY, created.ref);
    expect(task).toMatchObject({ status: 'failed', progress: null, refunded, error: { code } });
    expect(task.error?.message).toMatch(/Tripo/);
    expect(task.error?.message.length).toBeGreaterThan(40);
    const after = served.mock.ledger(KEY);
    // Refunded: the balance is whole again; unknown: the price stays frozen.
    expect(after?.balance).toBe((before?.balance ?? 0) - (refunded ? 0 : 20));
    expect(after?.frozen).toBe((before?.frozen ?? 0) + (refunded ? 0 : 20));
  });
});

describe('faults', () => {
  it('a 429 is rate_limited with Retry-After', async () => {
    const err = await rejection(adapter.create(KEY, H, { kind: 'text', prompt: 'mock:429 a cup' }));
    expect(err).toMatchObject({ kind: 'rate_limited', details: { status: 429, vendorCode: 2000 } });
    expect(err.details.retryAfterS).toBeGreaterThanOrEqual(1);
  });

  it('the concurrency limit is a 429 that says when a task ends', async () => {
    const small = await serveTripoMock({
      keys: KEYS,
      concurrency: 2,
      speed: { queuedMs: 3000, runningMs: 3000 },
    });
    try {
      const a = createTripoAdapter({ baseUrl: small.baseUrl });
      await a.create(KEY, H, { kind: 'text', prompt: 'a cup' });
      await a.create(KEY, H, { kind: 'text', prompt: 'a bowl' });
      const err = await rejection(a.create(KEY, H, { kind: 'text', prompt: 'a vase' }));
      expect(err.kind).toBe('rate_limited');
      expect(err.details.retryAfterS).toBeGreaterThanOrEqual(3);
      expect(small.mock.ledger(KEY)).toMatchObject({ balance: 960, frozen: 40 });
    } finally {
      await small.close();
    }
  });

  it('a 5xx is upstream_error, and nothing is charged', async () => {
    const before = served.mock.ledger(KEY)?.balance;
    const err = await rejection(adapter.create(KEY, H, { kind: 'text', prompt: 'mock:500 a cup' }));
    expect(err).toMatchObject({
      kind: 'upstream_error',
      details: { status: 500, vendorCode: 1000 },
    });
    expect(served.mock.ledger(KEY)?.balance).toBe(before);
  });

  it('an unknown key is invalid_key, on every call', async () => {
    const bad = 'tsk_nobody';
    const calls = [
      () => adapter.balance(bad),
      () => adapter.create(bad, H, { kind: 'text', prompt: 'a cup' }),
      () => adapter.get(bad, '1ec04ced-4b87-44f6-a296-beee80777941'),
    ];
    for (const call of calls) {
      expect(await rejection(call())).toMatchObject({
        kind: 'invalid_key',
        details: { status: 401, vendorCode: 1002 },
      });
    }
  });

  it('a balance short of the price is insufficient_credits (403, 2010)', async () => {
    const err = await rejection(adapter.create(POOR, H, { kind: 'text', prompt: 'a cup' }));
    expect(err).toMatchObject({
      kind: 'insufficient_credits',
      details: { status: 403, vendorCode: 2010 },
    });
    expect(await adapter.balance(POOR)).toMatchObject({ amount: 15, frozen: 0 });
  });

  it('a result address stops working when it expires, and the adapter said when', async () => {
    const created = await adapter.create(KEY, H, { kind: 'text', prompt: 'a teapot' });
    const { task } = await settle(adapter, KEY, created.ref);
    const url = task.result?.glbUrl ?? '';
    expect((await fetch(url)).status).toBe(200);
    skewMs = (task.result?.expiresMs ?? 0) - Date.now() + 1000;
    try {
      expect((await fetch(url)).status).toBe(403);
      // A later poll gives the same expired address (the mock signs it once, at success).
      const again = await adapter.get(KEY, created.ref);
      expect(again.result?.glbUrl).toBe(url);
      expect(again.result?.expiresMs ?? Infinity).toBeLessThan(Date.now() + skewMs);
    } finally {
      skewMs = 0;
    }
  });

  it('an unknown task, model, or view set is refused in Kiln words', async () => {
    expect(await rejection(adapter.get(KEY, '00000000-0000-0000-0000-000000000000'))).toMatchObject(
      { kind: 'not_found', details: { status: 404, vendorCode: 2001 } },
    );
    expect(await rejection(adapter.get(KEY, '../user/balance'))).toMatchObject({
      kind: 'not_found',
    });
    expect(await rejection(adapter.create(KEY, 'v9', { kind: 'text', prompt: 'x' }))).toMatchObject(
      { kind: 'invalid_input', details: { param: 'model' } },
    );
    const one = {
      kind: 'multiview',
      views: [{ side: 'front', url: 'https://example.com/a.png' }],
    } as const;
    expect(await rejection(adapter.create(KEY, H, one))).toMatchObject({
      kind: 'invalid_input',
      details: { param: 'views' },
    });
    const noFront = {
      kind: 'multiview',
      views: [
        { side: 'left', url: 'https://example.com/a.png' },
        { side: 'back', url: 'https://example.com/b.png' },
      ],
    } as const;
    expect(await rejection(adapter.create(KEY, H, noFront))).toMatchObject({
      kind: 'invalid_input',
    });
    const empty = await rejection(adapter.create(KEY, H, { kind: 'text', prompt: '  ' }));
    expect(empty).toMatchObject({
      kind: 'invalid_input',
      details: { status: 400, vendorCode: 1004 },
    });
  });

  it('an address nobody answers is unreachable', async () => {
    const nowhere = createTripoAdapter({
      baseUrl: `http://127.0.0.1:${await freePort()}/v2/openapi`,
    });
    expect(await rejection(nowhere.balance(KEY))).toMatchObject({ kind: 'unreachable' });
  });
});

describe('credits', () => {
  it('a retried create is a second task, charged again: Tripo documents no idempotency', async () => {
    const before = served.mock.ledger(KEY);
    const input = { kind: 'text', prompt: 'a stool' } as const;
    const first = await adapter.create(KEY, H, input, { idempotencyKey: 'intent-1' });
    const second = await adapter.create(KEY, H, input, { idempotencyKey: 'intent-1' });
    expect(second.ref).not.toBe(first.ref);
    expect(served.mock.ledger(KEY)?.balance).toBe((before?.balance ?? 0) - 40);
    await settle(adapter, KEY, first.ref);
    await settle(adapter, KEY, second.ref);
  });

  it('the balance, with its frozen part, is the mock ledger after tasks', async () => {
    const fresh = await serveTripoMock({ keys: [{ key: KEY, balance: 500 }] });
    try {
      const a = createTripoAdapter({ baseUrl: fresh.baseUrl });
      const ok = await a.create(KEY, H, { kind: 'text', prompt: 'a table' });
      const p1 = await a.create(KEY, 'P1-20260311', { kind: 'text', prompt: 'a bench' });
      const bad = await a.create(KEY, H, { kind: 'text', prompt: 'a desk mock:fail' });
      expect(await a.balance(KEY)).toMatchObject({
        amount: 500 - 20 - 40 - 20,
        frozen: 80,
        unit: 'credits',
      });
      for (const t of [ok, p1, bad]) await settle(a, KEY, t.ref);
      const balance = await a.balance(KEY);
      expect(balance).toMatchObject({ amount: 500 - 20 - 40, frozen: 0 });
      expect(fresh.mock.ledger(KEY)).toEqual({
        balance: balance?.amount,
        frozen: 0,
        spent: 60,
        refunded: 20,
      });
    } finally {
      await fresh.close();
    }
  });
});
