// Pins the Meshy mock, and the requests Kiln's adapter sends it, to Meshy's documented examples.
// Each example is copied from its source, named above it.
import { afterAll, describe, expect, it } from 'vitest';
import { createMeshyAdapter } from '../../providers/meshy/index.ts';
import { fakeGenerator } from '../../testing/mock.ts';
import { createMeshyMock, MESHY_DEMO_KEYS } from './index.ts';

const KEY = MESHY_DEMO_KEYS[0].key;
// No network: an image URL's "bytes" are a PNG signature, which the fake generator accepts.
const fetchImage = () => Promise.resolve(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
const mock = createMeshyMock({
  speed: { pendingMs: 50, runMs: 100 },
  generator: fakeGenerator,
  fetchImage,
  // Polling as fast as these tests do would pass Meshy's 20 requests a second.
  requestsPerSecond: null,
});
afterAll(() => mock.close());

const call = (path: string, init: { method?: string; body?: unknown; key?: string } = {}) =>
  Promise.resolve(
    mock.app.request(`http://mock.test${path}`, {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${init.key ?? KEY}`,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body ? { body: JSON.stringify(init.body) } : {}),
    }),
  );

/** The JSON type of every value, recursively (arrays by their first element). */
function shape(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]));
  return typeof v;
}

async function finished(path: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const task = (await (await call(path)).json()) as Record<string, unknown>;
    if (task.status !== 'PENDING' && task.status !== 'IN_PROGRESS') return task;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('never finished');
}

describe('the Meshy mock against the documented examples', () => {
  it('answers a create with 202 and the task id in `result`', async () => {
    // Source: https://docs.meshy.ai/openapi.yaml (info.description): "A `POST` creates a task and
    // returns `202 Accepted` with a task ID in `result`"; and meshy-dev/meshy-3d-agent
    // skills/meshy-3d-generation/reference.md @ b1721fe: **Response:** `{"result": "<task_id>"}`.
    const documented = { result: '<task_id>' };
    // Source: docs.meshy.ai/api/text-to-3d (quick start's preview request, as in llms-full.txt).
    const request = { mode: 'preview', prompt: 'a monster mask', should_remesh: true };
    const res = await call('/openapi/v2/text-to-3d', { method: 'POST', body: request });
    expect(res.status).toBe(202);
    expect(shape(await res.json())).toEqual(shape(documented));
  });

  it('gives a finished task every field of the documented task object, of the same types', async () => {
    // Source: meshy-dev/meshy-3d-agent skills/meshy-3d-generation/reference.md @ b1721fe,
    // "Text to 3D Task Object" (the same object as docs.meshy.ai/api/text-to-3d).
    const documented = {
      id: '018a210d-8ba4-705c-b111-1f1776f7f578',
      type: 'text-to-3d-preview',
      model_urls: {
        glb: 'https://assets.meshy.ai/.../model.glb?Expires=...',
        fbx: 'https://assets.meshy.ai/.../model.fbx?Expires=...',
        obj: 'https://assets.meshy.ai/.../model.obj?Expires=...',
        usdz: 'https://assets.meshy.ai/.../model.usdz?Expires=...',
      },
      prompt: 'a monster mask',
      thumbnail_url: 'https://assets.meshy.ai/.../preview.png?Expires=...',
      progress: 100,
      status: 'SUCCEEDED',
      created_at: 1692771650657,
      started_at: 1692771667037,
      finished_at: 1692771669037,
      texture_urls: [{ base_color: 'https://assets.meshy.ai/.../texture_0.png?Expires=...' }],
      preceding_tasks: 0,
      task_error: { message: '' },
    };
    const { result } = (await (
      await call('/openapi/v2/text-to-3d', {
        method: 'POST',
        body: { mode: 'preview', prompt: 'a monster mask' },
      })
    ).json()) as { result: string };
    const task = await finished(`/openapi/v2/text-to-3d/${result}`);
    // What the mock leaves out, by design (README): formats other than GLB, and texture maps.
    const { texture_urls: _t, model_urls, ...rest } = documented;
    const { fbx: _f, obj: _o, usdz: _u, ...glbOnly } = model_urls;
    const want = shape({ ...rest, model_urls: glbOnly }) as Record<string, unknown>;
    const got = shape(task) as Record<string, unknown>;
    for (const [k, v] of Object.entries(want)) expect([k, got[k]]).toEqual([k, v]);
    expect(task).toMatchObject({ type: 'text-to-3d-preview', status: 'SUCCEEDED', progress: 100 });
    expect(String((task.model_urls as { glb: string }).glb)).toMatch(/\?Expires=\d+&/);
    // Timestamps are milliseconds, in order.
    const [c, s, f] = [task.created_at, task.started_at, task.finished_at] as number[];
    expect(c).toBeGreaterThan(1e12);
    expect(c! <= s! && s! <= f!).toBe(true);
  });

  it('answers the balance call as documented', async () => {
    // Source: https://docs.meshy.ai/api/balance.md, "Response".
    const documented = { balance: 1000 };
    const fresh = createMeshyMock({
      keys: [{ key: KEY, balance: 1000 }],
      generator: fakeGenerator,
    });
    const res = await fresh.app.request('http://mock.test/openapi/v1/balance', {
      headers: { authorization: `Bearer ${KEY}` },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(documented);
    await fresh.close();
  });

  it('rejects with the documented status codes and a body of one `message`', async () => {
    // Source: https://docs.meshy.ai/en/api/errors ("The error response contains a single message
    // field"), and reference.md @ b1721fe: {"message": "Invalid model file extension: .3dm"}.
    const documented = { message: 'Invalid model file extension: .3dm' };
    const cases: [Promise<Response>, number][] = [
      [call('/openapi/v1/balance', { key: 'msy_nobody' }), 401],
      [call('/openapi/v1/image-to-3d', { method: 'POST', body: { image_url: 'ftp://x' } }), 400],
      [
        call('/openapi/v1/image-to-3d', {
          method: 'POST',
          body: { image_url: 'https://x.test/a.png', ai_model: 'meshy-4' },
        }),
        400,
      ],
      [call('/openapi/v1/multi-image-to-3d', { method: 'POST', body: { image_urls: [] } }), 400],
      [call('/openapi/v1/image-to-3d/no-such-task'), 404],
      [
        call('/openapi/v2/text-to-3d', {
          method: 'POST',
          body: { mode: 'preview', prompt: 'mock:429' },
        }),
        429,
      ],
      [
        call('/openapi/v2/text-to-3d', {
          method: 'POST',
          body: { mode: 'preview', prompt: 'mock:5xx' },
        }),
        500,
      ],
      [
        call('/openapi/v1/image-to-3d', {
          method: 'POST',
          key: MESHY_DEMO_KEYS[1].key,
          body: { image_url: 'https://x.test/a.png' },
        }),
        402,
      ],
    ];
    for (const [res, status] of cases) {
      const r = await res;
      expect(r.status).toBe(status);
      expect(shape(await r.json())).toEqual(shape(documented));
    }
  });
});

describe("the adapter's requests against the documented parameters", () => {
  it('sends only documented parameters, to the documented paths, with a Bearer key', async () => {
    const sent: {
      method: string;
      path: string;
      auth: string | null;
      body: Record<string, unknown>;
    }[] = [];
    const adapter = createMeshyAdapter({
      baseUrl: 'http://mock.test',
      fetch: (input, init) => {
        const url = new URL(String(input as string));
        const headers = new Headers(init?.headers);
        sent.push({
          method: init?.method ?? 'GET',
          path: url.pathname,
          auth: headers.get('authorization'),
          body: init?.body
            ? (JSON.parse(String(init.body as string)) as Record<string, unknown>)
            : {},
        });
        return Promise.resolve(mock.app.request(url.href, init));
      },
    });
    const img = 'https://images.test/chair.png';
    await adapter.create(KEY, 'meshy-6', { kind: 'image', imageUrl: img });
    await adapter.create(KEY, 'meshy-5', {
      kind: 'multiview',
      views: [
        { side: 'back', url: `${img}?b` },
        { side: 'front', url: `${img}?f` },
      ],
    });
    const text = await adapter.create(KEY, 'meshy-6', { kind: 'text', prompt: 'a monster mask' });
    await adapter.balance(KEY);
    // Sources: docs.meshy.ai/api/image-to-3d, /api/multi-image-to-3d, /api/text-to-3d, /api/balance
    // ("Parameters"), as listed in reference.md @ b1721fe; auth: docs.meshy.ai/api/authentication,
    // `"Authorization": "Bearer msy_sOmEbOgUsApIkEyFoReXaMpLe1234567890"`.
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/openapi/v1/image-to-3d',
        auth: `Bearer ${KEY}`,
        body: { image_url: img, ai_model: 'meshy-6' },
      },
      {
        method: 'POST',
        path: '/openapi/v1/multi-image-to-3d',
        auth: `Bearer ${KEY}`,
        body: { image_urls: [`${img}?f`, `${img}?b`], ai_model: 'meshy-5' },
      },
      {
        method: 'POST',
        path: '/openapi/v2/text-to-3d',
        auth: `Bearer ${KEY}`,
        body: { mode: 'preview', prompt: 'a monster mask', ai_model: 'meshy-6' },
      },
      { method: 'GET', path: '/openapi/v1/balance', auth: `Bearer ${KEY}`, body: {} },
    ]);
    // The refine: { mode: 'refine', preview_task_id, ai_model } once the preview has succeeded.
    let t = await adapter.get(KEY, text.ref);
    for (let i = 0; !t.awaitingContinue && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 50));
      t = await adapter.get(KEY, text.ref);
    }
    sent.length = 0;
    await adapter.continue!(KEY, t.ref);
    const previewId = t.ref.split('.').at(-1);
    expect(sent[0]?.body).toEqual({
      mode: 'refine',
      preview_task_id: previewId,
      ai_model: 'meshy-6',
    });
  });
});
