// The fal adapter against the fal mock over real HTTP (127.0.0.1 only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeGenerator, photoDataUri } from '../../testing/mock.ts';
import { FAL_DEMO_KEYS } from '../../mock/fal/app.ts';
import { serveFalMock, type ServedFalMock } from '../../mock/fal/testing.ts';
import { type ProviderAdapter, type ProviderTask } from '../types.ts';
import {
  createFalAdapter,
  FAL_DEFAULT_API_URL,
  FAL_DEFAULT_PLATFORM_URL,
  FAL_RESULT_LIFETIME_S,
} from './adapter.ts';
import { rejection } from '../../testing/provider-errors.ts';

const [ADMIN, API_ONLY, EMPTY] = FAL_DEMO_KEYS.map((k) => k.key) as [string, string, string];
const PHOTO = photoDataUri('chair.png');

let mock: ServedFalMock;
let fal: ProviderAdapter;

beforeAll(async () => {
  mock = await serveFalMock({ generator: fakeGenerator, concurrency: 1 });
  fal = createFalAdapter({ baseUrl: mock.url, platformUrl: `${mock.url}/v1`, now: mock.now });
});
afterAll(() => mock.close());

/** Polls until the task is finished, keeping every status seen. */
async function settle(key: string, task: ProviderTask, seen: ProviderTask[] = []) {
  let t = task;
  const deadline = Date.now() + 20_000;
  while (t.status === 'queued' || t.status === 'running') {
    if (Date.now() > deadline) throw new Error(`still ${t.status}`);
    await new Promise((r) => setTimeout(r, 60));
    t = await fal.get(key, t.ref);
    seen.push(t);
  }
  return t;
}

describe('fal adapter', () => {
  it('lists the documented models with their USD prices, and knows a fal key', async () => {
    const models = await fal.models(ADMIN);
    expect(models.map((m) => [m.id, m.inputs, m.price, m.unit])).toEqual([
      ['fal-ai/trellis', ['image'], { image: 0.02 }, 'USD'],
      ['fal-ai/trellis/multi', ['multiview'], { multiview: 0.02 }, 'USD'],
      ['fal-ai/hunyuan3d/v2', ['image'], { image: 0.48 }, 'USD'],
    ]);
    expect(FAL_DEMO_KEYS.every((k) => fal.recognisesKey(k.key))).toBe(true);
    expect(fal.recognisesKey('msy_abcdef0123456789')).toBe(false);
    expect(fal.recognisesKey('tsk_0123')).toBe(false);
    expect(FAL_DEFAULT_API_URL).toBe('https://queue.fal.run');
    expect(FAL_DEFAULT_PLATFORM_URL).toBe('https://api.fal.ai/v1');
  });

  it('maps IN_QUEUE (with its place), IN_PROGRESS (logs, no %) and COMPLETED to Kiln', async () => {
    const before = mock.balanceOf(ADMIN) ?? 0;
    const first = await fal.create(ADMIN, 'fal-ai/trellis', { kind: 'image', imageUrl: PHOTO });
    const second = await fal.create(ADMIN, 'fal-ai/hunyuan3d/v2', {
      kind: 'image',
      imageUrl: PHOTO,
    });
    expect(first).toMatchObject({
      status: 'queued',
      progress: null,
      cost: { amount: 0.02, unit: 'USD' },
    });
    const third = await fal.create(ADMIN, 'fal-ai/trellis', { kind: 'image', imageUrl: PHOTO });
    // One runner: the third waits behind at least one other.
    const waiting = await fal.get(ADMIN, third.ref);
    expect(waiting).toMatchObject({ status: 'queued', progress: null });
    expect(waiting.queuePosition).toBeGreaterThanOrEqual(1);
    const seen: ProviderTask[] = [];
    const done = await settle(ADMIN, first, seen);
    const running = seen.find((t) => t.status === 'running');
    expect(running?.progress).toBeNull();
    expect(running?.logs?.length).toBeGreaterThan(0);
    expect(running?.stage).toBe(running?.logs?.at(-1));
    expect(done.status).toBe('succeeded');
    expect(done.progress).toBeNull();
    expect(done.result?.glbUrl).toMatch(new RegExp(`^${mock.url}/files/`));
    expect(done.result?.expiresMs).toBe((done.createdMs ?? 0) + FAL_RESULT_LIFETIME_S * 1000);
    expect((await settle(ADMIN, second)).status).toBe('succeeded');
    expect((await settle(ADMIN, third)).status).toBe('succeeded');
    expect(mock.balanceOf(ADMIN)).toBeCloseTo(before - 0.02 - 0.48 - 0.02, 6);
  });

  it('sends 2–4 views in front, right, back, left order to trellis/multi', async () => {
    const bodies: unknown[] = [];
    const spy = createFalAdapter({
      baseUrl: mock.url,
      fetch: (input, init) => {
        if (init?.method === 'POST') bodies.push(JSON.parse(String(init.body)));
        return fetch(input, init);
      },
    });
    const url = (n: string) => `${PHOTO}#${n}`;
    const task = await spy.create(ADMIN, 'fal-ai/trellis/multi', {
      kind: 'multiview',
      views: [
        { side: 'back', url: url('back') },
        { side: 'front', url: url('front') },
        { side: 'left', url: url('left') },
      ],
    });
    expect(bodies).toEqual([{ image_urls: [url('front'), url('back'), url('left')] }]);
    expect((await settle(ADMIN, task)).status).toBe('succeeded');
    await expect(
      spy.create(ADMIN, 'fal-ai/trellis/multi', {
        kind: 'multiview',
        views: [{ side: 'front', url: PHOTO }],
      }),
    ).rejects.toMatchObject({ kind: 'invalid_input', details: { param: 'views' } });
    await expect(
      spy.create(ADMIN, 'fal-ai/trellis', { kind: 'text', prompt: 'a chair' }),
    ).rejects.toMatchObject({
      kind: 'invalid_input',
    });
  });

  it('a crashed runner (mock:fail) is a failure fal does not charge', async () => {
    const before = mock.balanceOf(ADMIN) ?? 0;
    const task = await fal.create(ADMIN, 'fal-ai/trellis', {
      kind: 'image',
      imageUrl: `${PHOTO}#mock:fail`,
    });
    const done = await settle(ADMIN, task);
    expect(done).toMatchObject({
      status: 'failed',
      refunded: true,
      error: { code: 'runner_server_error' },
    });
    expect(done.error?.message).toMatch(/crashed.*does not charge/);
    expect(mock.balanceOf(ADMIN)).toBe(before);
  });

  it('an input the model rejects (422) is a failure fal may charge', async () => {
    const before = mock.balanceOf(ADMIN) ?? 0;
    const task = await fal.create(ADMIN, 'fal-ai/trellis', {
      kind: 'image',
      imageUrl: 'data:text/plain,hello',
    });
    const done = await settle(ADMIN, task);
    expect(done).toMatchObject({
      status: 'failed',
      refunded: false,
      error: { code: 'image_load_error' },
    });
    expect(done.error?.message).toMatch(/could not use the input/);
    expect(mock.balanceOf(ADMIN)).toBeCloseTo(before - 0.02, 6);
  });

  it('a request cancelled while queued is a failure with nothing charged', async () => {
    const task = await fal.create(ADMIN, 'fal-ai/trellis', { kind: 'image', imageUrl: PHOTO });
    const requestId = task.ref.split('~')[0];
    const res = await fetch(`${mock.url}/fal-ai/trellis/requests/${requestId}/cancel`, {
      method: 'PUT',
      headers: { authorization: `Key ${ADMIN}` },
    });
    expect(res.status).toBe(202);
    const done = await fal.get(ADMIN, task.ref);
    expect(done).toMatchObject({
      status: 'failed',
      refunded: true,
      error: { code: 'client_cancelled' },
    });
  });

  it('a status Kiln does not know becomes a failure, never a crash', async () => {
    const odd = createFalAdapter({
      baseUrl: 'http://127.0.0.1:9',
      fetch: () => Promise.resolve(Response.json({ status: 'CANCELED' })),
    });
    const t = await odd.get(ADMIN, 'abc~1~fal-ai~trellis');
    expect(t).toMatchObject({ status: 'failed', error: { code: 'fal_canceled' } });
  });
});

describe('fal adapter faults', () => {
  it('429 is rate_limited with Retry-After', async () => {
    const err = await rejection(
      fal.create(ADMIN, 'fal-ai/trellis', {
        kind: 'image',
        imageUrl: 'https://example.com/mock:429.png',
      }),
    );
    expect(err).toMatchObject({ kind: 'rate_limited', details: { status: 429, retryAfterS: 2 } });
  });

  it('5xx is upstream_error, and the client does not resend the submit', async () => {
    let posts = 0;
    const counted = createFalAdapter({
      baseUrl: mock.url,
      fetch: (input, init) => {
        if (init?.method === 'POST') posts++;
        return fetch(input, init);
      },
    });
    const err = await rejection(
      counted.create(ADMIN, 'fal-ai/trellis', {
        kind: 'image',
        imageUrl: 'https://example.com/mock:500.png',
      }),
    );
    expect(err).toMatchObject({
      kind: 'upstream_error',
      details: { status: 500, vendorCode: 'internal_error' },
    });
    expect(posts).toBe(1);
  });

  it('a wrong key is invalid_key; an account with nothing left is insufficient_credits', async () => {
    const wrong = '00000000-0000-4000-8000-000000000000:00000000000000000000000000000000';
    expect(
      await rejection(fal.create(wrong, 'fal-ai/trellis', { kind: 'image', imageUrl: PHOTO })),
    ).toMatchObject({
      kind: 'invalid_key',
      details: { status: 401 },
    });
    expect(await rejection(fal.balance(wrong))).toMatchObject({ kind: 'invalid_key' });
    const broke = await rejection(
      fal.create(EMPTY, 'fal-ai/trellis', { kind: 'image', imageUrl: PHOTO }),
    );
    expect(broke).toMatchObject({ kind: 'insufficient_credits', details: { status: 403 } });
    expect(broke.message).toMatch(/Exhausted balance/);
  });

  it('an unknown request is not_found; a closed port is unreachable', async () => {
    const ref = '11111111-2222-4333-8444-555555555555~1~fal-ai~trellis';
    expect(await rejection(fal.get(ADMIN, ref))).toMatchObject({
      kind: 'not_found',
      details: { status: 404 },
    });
    expect(await rejection(fal.get(ADMIN, 'nonsense'))).toMatchObject({ kind: 'not_found' });
    const down = createFalAdapter({ baseUrl: 'http://127.0.0.1:9' });
    expect(await rejection(down.get(ADMIN, ref))).toMatchObject({ kind: 'unreachable' });
  });

  it('a result URL stops working when its lifetime ends, as expiresMs says', async () => {
    const done = await settle(
      ADMIN,
      await fal.create(ADMIN, 'fal-ai/trellis', { kind: 'image', imageUrl: PHOTO }),
    );
    const url = done.result?.glbUrl ?? '';
    expect((await fetch(url)).status).toBe(200);
    // expiresMs is a lower bound (the file was made after the submit): past it, and a minute
    // more than the task took, the address is gone.
    mock.advance((done.result?.expiresMs ?? 0) - mock.now() - 1_000);
    expect((await fetch(url)).status).toBe(200);
    mock.advance(61_000);
    expect((await fetch(url)).status).toBe(404);
  });
});

describe('fal adapter: charges and balance', () => {
  it('a retried create is charged twice: fal documents no idempotency key', async () => {
    const before = mock.balanceOf(ADMIN) ?? 0;
    const input = { kind: 'image', imageUrl: PHOTO } as const;
    const a = await fal.create(ADMIN, 'fal-ai/trellis', input, { idempotencyKey: 'intent-1' });
    const b = await fal.create(ADMIN, 'fal-ai/trellis', input, { idempotencyKey: 'intent-1' });
    expect(a.ref).not.toBe(b.ref);
    await settle(ADMIN, a);
    await settle(ADMIN, b);
    // Kiln's own intent record must stop the second create; fal itself charges both.
    expect(mock.balanceOf(ADMIN)).toBeCloseTo(before - 0.04, 6);
  });

  it("reads an ADMIN key's balance equal to the mock's ledger; an API key's is null", async () => {
    const balance = await fal.balance(ADMIN);
    expect(balance).toMatchObject({ unit: 'USD' });
    expect(balance?.amount).toBe(mock.balanceOf(ADMIN));
    expect(balance?.amount).toBeLessThan(10);
    expect(await fal.balance(API_ONLY)).toBeNull();
  });
});
