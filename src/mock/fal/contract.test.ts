// The fal mock pinned to fal's documented examples: each example below is quoted with its source.
// Requests go through the official client (@fal-ai/client), as Kiln's adapter sends them.
import { createFalClient } from '@fal-ai/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeneratorInputError } from '../../generator/index.ts';
import { createGeneratorPool } from '../../generator/runtime/pool.ts';
import { fakeGenerator, photoDataUri } from '../../testing/mock.ts';
import { pooledGenerator } from '../create.ts';
import { FAL_DEMO_KEYS } from './app.ts';
import { serveFalMock, type ServedFalMock } from './testing.ts';

const [ADMIN, API_ONLY, EMPTY] = FAL_DEMO_KEYS.map((k) => k.key) as [string, string, string];
const PHOTO = photoDataUri('chair.png');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Same keys, same nesting, same JSON types (values may differ). */
function sameShape(actual: unknown, example: unknown): void {
  if (Array.isArray(example)) {
    expect(Array.isArray(actual)).toBe(true);
    if (example.length > 0) sameShape((actual as unknown[])[0], example[0]);
    return;
  }
  if (example !== null && typeof example === 'object') {
    expect(actual).toBeTypeOf('object');
    const a = actual as Record<string, unknown>;
    for (const [k, v] of Object.entries(example)) {
      expect(a, `key ${k}`).toHaveProperty(k);
      sameShape(a[k], v);
    }
    return;
  }
  expect(typeof actual).toBe(typeof example);
}

let mock: ServedFalMock;
const sent: { method: string; url: string; headers: Headers; body: unknown }[] = [];

beforeAll(async () => {
  mock = await serveFalMock({ generator: fakeGenerator });
});
afterAll(() => mock.close());

/** The official client, pointed at the mock the way the adapter points it. */
const clientFor = (key: string) =>
  createFalClient({
    credentials: key,
    requestMiddleware: (req) =>
      Promise.resolve({ ...req, url: req.url.replace('https://queue.fal.run', mock.url) }),
    fetch: async (input, init) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      sent.push({
        method: init?.method ?? 'GET',
        url: String(input),
        headers: new Headers(init?.headers),
        body,
      });
      return fetch(input, init);
    },
    retry: { maxRetries: 0 },
  });

describe('fal mock: the queue as documented', () => {
  it('answers a submit as the queue page does, to the request the client sends', async () => {
    // https://docs.fal.ai/model-endpoints/queue ("Here's an example of a response with the request_id"):
    const documented = {
      request_id: '80e732af-660e-45cd-bd63-580e4f2a94cc',
      response_url:
        'https://queue.fal.run/fal-ai/fast-sdxl/requests/80e732af-660e-45cd-bd63-580e4f2a94cc',
      status_url:
        'https://queue.fal.run/fal-ai/fast-sdxl/requests/80e732af-660e-45cd-bd63-580e4f2a94cc/status',
      cancel_url:
        'https://queue.fal.run/fal-ai/fast-sdxl/requests/80e732af-660e-45cd-bd63-580e4f2a94cc/cancel',
    };
    sent.length = 0;
    const res = await clientFor(ADMIN).queue.submit('fal-ai/trellis/multi', {
      input: { image_urls: [PHOTO, PHOTO] },
    });
    sameShape(res, documented);
    expect(res.request_id).toMatch(UUID);
    // "The subpath … should be used when making the request, but not when getting request status"
    const app = `${mock.url}/fal-ai/trellis/requests/${res.request_id}`;
    expect(res).toMatchObject({
      response_url: app,
      status_url: `${app}/status`,
      cancel_url: `${app}/cancel`,
    });
    expect(sent[0]).toMatchObject({ method: 'POST', url: `${mock.url}/fal-ai/trellis/multi` });
    // "Authorization: Key $FAL_KEY" (same page)
    expect(sent[0]?.headers.get('authorization')).toBe(`Key ${ADMIN}`);
  });

  it('answers a status as the queue page and the client types do', async () => {
    const fal = clientFor(ADMIN);
    const { request_id } = await fal.queue.submit('fal-ai/trellis', {
      input: { image_url: PHOTO },
    });
    const queued = await fal.queue.status('fal-ai/trellis', { requestId: request_id, logs: true });
    // https://docs.fal.ai/model-endpoints/queue ("an example of a response with the IN_QUEUE status"):
    sameShape(queued, {
      status: 'IN_QUEUE',
      queue_position: 0,
      response_url:
        'https://queue.fal.run/fal-ai/fast-sdxl/requests/80e732af-660e-45cd-bd63-580e4f2a94cc',
    });
    const done = await fal.queue.subscribeToStatus('fal-ai/trellis', {
      requestId: request_id,
      logs: true,
      pollInterval: 50,
    });
    // fal-js libs/client/src/types/common.ts: RequestLog { message, level, source: "USER", timestamp }
    // and CompletedQueueStatus { status: "COMPLETED", logs, metrics?: { inference_time } }.
    sameShape(done, {
      status: 'COMPLETED',
      logs: [{ message: 'x', level: 'INFO', source: 'USER', timestamp: '2026-01-01T00:00:00Z' }],
      metrics: { inference_time: 1.5 },
    });
    const result = await fal.queue.result('fal-ai/trellis', { requestId: request_id });
    // fal-js types/endpoints.ts: trellisOutput { model_mesh: File; timings } and
    // File { url, content_type?, file_name?, file_size? }.
    sameShape(result.data, {
      model_mesh: {
        url: 'u',
        content_type: 'model/gltf-binary',
        file_name: 'model.glb',
        file_size: 1,
      },
      timings: {},
    });
  });

  it("gives Hunyuan3D v2's output as its type says, and prices a textured mesh 3 times", async () => {
    const fal = clientFor(ADMIN);
    const before = mock.balanceOf(ADMIN) ?? 0;
    const { request_id } = await fal.queue.submit('fal-ai/hunyuan3d/v2', {
      input: { input_image_url: PHOTO, textured_mesh: true },
    });
    await fal.queue.subscribeToStatus('fal-ai/hunyuan3d/v2', {
      requestId: request_id,
      pollInterval: 50,
    });
    const result = await fal.queue.result('fal-ai/hunyuan3d/v2', { requestId: request_id });
    // fal-js types/endpoints.ts: Hunyuan3dV2Output { model_mesh: File; seed: number }.
    sameShape(result.data, { model_mesh: { url: 'u' }, seed: 1 });
    // https://fal.ai/models/fal-ai/hunyuan3d/v2/llms.txt: "$0.16 per generations"; ×3 textured.
    expect(mock.balanceOf(ADMIN)).toBeCloseTo(before - 0.48, 6);
  });
});

describe('fal mock: errors as documented', () => {
  const raw = (path: string, key: string | null, init: RequestInit = {}) =>
    fetch(`${mock.url}${path}`, {
      ...init,
      headers: {
        'content-type': 'application/json',
        ...(key ? { authorization: `Key ${key}` } : {}),
      },
    });

  it('401 and the locked account as fal answers them', async () => {
    const wrong = await raw('/fal-ai/trellis', 'f00df00d-0000-4000-8000-000000000000:00', {
      method: 'POST',
      body: '{}',
    });
    expect(wrong.status).toBe(401);
    // github.com/fal-ai/fal/issues/1068: HTTP 401 `{"detail":"No user found for Key ID and Secret"}`
    expect(await wrong.json()).toEqual({ detail: 'No user found for Key ID and Secret' });
    const locked = await raw('/fal-ai/trellis', EMPTY, {
      method: 'POST',
      body: JSON.stringify({ image_url: PHOTO }),
    });
    expect(locked.status).toBe(403);
    // github.com/fal-ai/fal/issues/1112: "Every API request returns HTTP 403:"
    expect(await locked.json()).toEqual({
      detail:
        'User is locked. Reason: Exhausted balance. Top up your balance at fal.ai/dashboard/billing.',
    });
  });

  it('a 422 names the field as docs.fal.ai/errors describes', async () => {
    const res = await raw('/fal-ai/trellis', ADMIN, { method: 'POST', body: '{}' });
    expect(res.status).toBe(422);
    // https://docs.fal.ai/errors: `detail` is an array of { loc, msg, type, … }, loc ["body", field].
    const body = (await res.json()) as { detail: { loc: string[]; msg: string; type: string }[] };
    sameShape(body, { detail: [{ loc: ['body', 'image_url'], msg: 'm', type: 't' }] });
    expect(body.detail[0]?.loc).toEqual(['body', 'image_url']);
  });

  it('a request error carries error_type as the request-errors page shows', async () => {
    const res = await raw('/fal-ai/trellis', ADMIN, {
      method: 'POST',
      body: JSON.stringify({ image_url: 'mock:500' }),
    });
    expect(res.status).toBe(500);
    // https://fal.ai/docs/documentation/model-apis/request-errors: { "detail": "Request timed out", "error_type": "request_timeout" }
    sameShape(await res.json(), { detail: 'Request timed out', error_type: 'request_timeout' });
  });

  it('billing answers ADMIN keys as the Platform API page shows, and refuses API keys', async () => {
    const res = await raw('/v1/account/billing?expand=credits', ADMIN);
    // https://fal.ai/docs/platform-apis/v1/account/billing:
    const documented = { username: 'my-team', credits: { current_balance: 24.5, currency: 'USD' } };
    const body = (await res.json()) as typeof documented;
    sameShape(body, documented);
    expect(body.credits.current_balance).toBe(mock.balanceOf(ADMIN));
    expect((await raw('/v1/account/billing', API_ONLY)).status).toBe(403);
  });
});

describe('fal mock: real GLBs', () => {
  it("serves Kiln's generator's GLB, valid by the Khronos validator", async () => {
    const pool = createGeneratorPool({ threads: 1 });
    const real = await serveFalMock({
      generator: {
        ...pooledGenerator(pool),
        isInputError: (e) => e instanceof GeneratorInputError,
      },
    });
    try {
      const fal = createFalClient({
        credentials: ADMIN,
        requestMiddleware: (req) =>
          Promise.resolve({ ...req, url: req.url.replace('https://queue.fal.run', real.url) }),
      });
      const { request_id } = await fal.queue.submit('fal-ai/trellis', {
        input: { image_url: PHOTO },
      });
      await fal.queue.subscribeToStatus('fal-ai/trellis', {
        requestId: request_id,
        pollInterval: 100,
      });
      const { data } = await fal.queue.result('fal-ai/trellis', { requestId: request_id });
      const glb = new Uint8Array(await (await fetch(data.model_mesh.url)).arrayBuffer());
      const { validateBytes } = await import('gltf-validator');
      const report = await validateBytes(glb);
      expect(report.issues.numErrors).toBe(0);
      expect(report.info?.totalTriangleCount ?? 0).toBeGreaterThan(0);
    } finally {
      await real.close();
      await pool.close();
    }
  }, 60_000);
});
