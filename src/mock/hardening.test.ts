// The mock under pressure: bodies it must refuse, inputs that must not bloat its rows, many tasks
// at once, and balances that stay what they were.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CompletedTaskSchema,
  ErrorBodySchema,
  PendingTaskSchema,
  TaskSchema,
} from '../contract/index.ts';
import { readPhoto } from '../testing/fixtures.ts';
import { memoryInputs } from './inputs.ts';
import { hashKey } from './keys.ts';
import { photoDataUri, startTestMock, type TestMock } from '../testing/mock.ts';

let mock: TestMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function finished(m: TestMock, id: string) {
  for (let i = 0; i < 2000; i++) {
    const t = TaskSchema.parse(await (await m.request(`/tasks/${id}`)).json());
    if (t.status !== 'pending') return t;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`${id} never finished`);
}

describe('request bodies', () => {
  it.each([
    ['text/plain', 'text/plain'],
    ['form encoding', 'application/x-www-form-urlencoded'],
    ['no Content-Type', null],
  ])('refuses JSON sent as %s with 415, charging nothing', async (_label, type) => {
    mock = await startTestMock();
    const headers = new Headers({ authorization: 'Bearer tr_test_key' });
    if (type) headers.set('content-type', type);
    const res = await mock.app.request('http://mock.test/3d/generations', {
      method: 'POST',
      headers,
      body: new TextEncoder().encode(JSON.stringify({ model: 'beta-text', prompt: 'a cube' })),
    });
    expect(res.status).toBe(415);
    const error = ErrorBodySchema.parse(await res.json()).error;
    expect(error).toMatchObject({ code: 'unsupported_media_type', type: 'invalid_request_error' });
    expect(error).not.toHaveProperty('param');
    expect(await mock.store.tasksOf(hashKey('tr_test_key'))).toHaveLength(0);
  });

  it('takes application/json with a charset', async () => {
    mock = await startTestMock();
    const res = await mock.request('/3d/generations', {
      method: 'POST',
      body: JSON.stringify({ model: 'beta-text', prompt: 'a cube' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status).toBe(202);
  });

  it('answers malformed JSON with 400 and no param', async () => {
    mock = await startTestMock();
    const res = await mock.request('/3d/generations', { method: 'POST', body: '{"model":' });
    expect(res.status).toBe(400);
    const error = ErrorBodySchema.parse(await res.json()).error;
    expect(error.code).toBe('invalid_json');
    expect(error).not.toHaveProperty('param');
  });
});

describe('inline images', () => {
  it('keeps a data: URI as a blob, so the task row stays small and a poll costs the same', async () => {
    mock = await startTestMock({
      speed: { initializing: 200, downloading: 0, generating: 0, processing: 0, uploading: 0 },
    });
    // About 3 MB of base64: a big photo, inline.
    const big = Buffer.concat([Buffer.from(readPhoto('horse.png')), Buffer.alloc(2_000_000, 7)]);
    const uri = `data:image/png;base64,${big.toString('base64')}`;
    const res = await mock.request('/3d/generations', {
      method: 'POST',
      body: JSON.stringify({ model: 'alpha', image_url: uri }),
    });
    const { id } = PendingTaskSchema.parse(await res.json());
    const row = await mock.store.task(id);
    expect(JSON.stringify(row?.request).length).toBeLessThan(200);
    expect(row?.request.image_url).toMatch(/^input:[a-f0-9]{64}$/);
    const small = await mock.request('/3d/generations', {
      method: 'POST',
      body: JSON.stringify({ model: 'alpha', image_url: photoDataUri('chair.png') }),
    });
    const smallId = PendingTaskSchema.parse(await small.json()).id;
    const [bigPoll, smallPoll] = await Promise.all([
      mock.request(`/tasks/${id}`).then((r) => r.text()),
      mock.request(`/tasks/${smallId}`).then((r) => r.text()),
    ]);
    expect(bigPoll.length).toBe(smallPoll.length - smallId.length + id.length);
    await finished(mock, id);
  });

  it('refuses an inline image over the size limit (the issue’s 30 MB) with 400 naming the field, charging and keeping nothing', async () => {
    const inputs = memoryInputs();
    const puts = vi.spyOn(inputs, 'put');
    mock = await startTestMock({ inputs });
    const uri = `data:image/png;base64,${'A'.repeat(30 * 1024 * 1024)}`;
    const res = await mock.request('/3d/generations', {
      method: 'POST',
      body: JSON.stringify({ model: 'alpha', image_url: uri }),
    });
    expect(res.status).toBe(400);
    const error = ErrorBodySchema.parse(await res.json()).error;
    expect(error).toMatchObject({ code: 'invalid_value', param: 'image_url' });
    expect(error.message).toMatch(/image_url is larger than 20 MB/);
    expect(await mock.store.tasksOf(hashKey('tr_test_key'))).toHaveLength(0);
    expect(puts).not.toHaveBeenCalled();
  });

  it('names the view whose inline image is malformed', async () => {
    mock = await startTestMock();
    const res = await mock.request('/3d/generations', {
      method: 'POST',
      body: JSON.stringify({
        model: 'alpha-multiview',
        image_urls: [photoDataUri('chair.png'), 'data:image/png;base64'],
      }),
    });
    expect(res.status).toBe(400);
    expect(ErrorBodySchema.parse(await res.json()).error).toMatchObject({
      param: 'image_urls[1]',
    });
  });

  it('keeps no blob for a create it refuses (402, a reused key) or replays', async () => {
    const inputs = memoryInputs();
    const puts = vi.spyOn(inputs, 'put');
    mock = await startTestMock({ inputs, keys: [{ key: 'tr_test_key', balance: 10 }] });
    const create = (image: string, key: string) =>
      mock!.request('/3d/generations', {
        method: 'POST',
        body: JSON.stringify({ model: 'alpha', image_url: photoDataUri(image) }),
        headers: { 'idempotency-key': key },
      });
    expect((await create('chair.png', 'k1')).status).toBe(202);
    expect(puts).toHaveBeenCalledTimes(1);
    expect((await create('chair.png', 'k1')).status).toBe(202); // replay
    expect((await create('horse.png', 'k1')).status).toBe(409); // reused key
    expect((await create('horse.png', 'k2')).status).toBe(402); // balance spent
    expect(puts).toHaveBeenCalledTimes(1);
  });
});

describe('frozen balances', () => {
  it('reports each task’s credits_remaining as it was right after its charge', async () => {
    mock = await startTestMock({ keys: [{ key: 'tr_test_key', balance: 1000 }] });
    const ids: string[] = [];
    for (const prompt of ['a cube', 'a cone', 'a torus']) {
      const res = await mock.request('/3d/generations', {
        method: 'POST',
        body: JSON.stringify({ model: 'beta-text', prompt }),
      });
      ids.push(PendingTaskSchema.parse(await res.json()).id);
    }
    const remaining = [];
    for (const id of ids)
      remaining.push(CompletedTaskSchema.parse(await finished(mock, id)).usage.credits_remaining);
    expect(remaining).toEqual([990, 980, 970]);
    // Asked again later, after more spending, they have not changed.
    await mock.request('/3d/generations', {
      method: 'POST',
      body: JSON.stringify({ model: 'beta-text', prompt: 'x' }),
    });
    const again = CompletedTaskSchema.parse(await (await mock.request(`/tasks/${ids[0]}`)).json());
    expect(again.usage.credits_remaining).toBe(990);
  });
});

describe('many tasks at once', () => {
  it('holds images for a few tasks at most, and warns about no listeners', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    let inFlight = 0;
    let peak = 0;
    let open = false;
    const gate: (() => void)[] = [];
    mock = await startTestMock({
      keys: [{ key: 'tr_test_key', balance: 10_000 }],
      speed: { initializing: 0, downloading: 0, generating: 60_000, processing: 0, uploading: 0 },
      fetchImage: async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        if (!open) await new Promise<void>((r) => gate.push(r));
        inFlight--;
        return readPhoto('chair.png');
      },
    });
    const m = mock;
    const views = ['a', 'b', 'c', 'd'].map((v) => `https://img.example/${v}.png`);
    await Promise.all(
      Array.from({ length: 15 }, () =>
        m.request('/3d/generations', {
          method: 'POST',
          body: JSON.stringify({ model: 'alpha-multiview', image_urls: views }),
        }),
      ),
    );
    await vi.waitFor(() => expect(gate.length).toBeGreaterThanOrEqual(16));
    await new Promise((r) => setTimeout(r, 50));
    expect(peak).toBe(16); // 4 tasks × 4 views; the other 11 tasks wait, holding nothing
    const stages = await Promise.all((await m.store.pendingTasks()).map((t) => t.progressStage));
    expect(stages.filter((s) => s === 'Initializing')).toHaveLength(11);
    open = true;
    for (const release of gate.splice(0)) release();
    await m.engine.close();
    process.off('warning', onWarning);
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
  });
});
