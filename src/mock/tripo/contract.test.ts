// The Tripo mock's requests and answers pinned to Tripo's documented examples. Each example is
// quoted from its source (a page of Tripo's docs, or a file of Tripo's official SDK) as read for
// README.md's "Sources"; the mock must answer in the same shape, and the adapter's schemas must
// read the documented examples themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTripoAdapter } from '../../providers/tripo/adapter.ts';
import {
  TripoBalanceSchema,
  TripoCreatedSchema,
  TripoErrorSchema,
  TripoTaskSchema,
  TripoUploadSchema,
} from '../../providers/tripo/schemas.ts';
import { photo } from '../../testing/images.ts';
import { serveTripoMock, type ServedTripoMock } from '../../testing/tripo-mock.ts';

const KEY = 'tsk_contract';

// https://docs.tripo3d.ai/get-started/errors-and-error-handling.html ("Error response")
const DOC_ERROR = {
  code: 1004,
  message: 'One or more of your parameter is invalid',
  suggestion: 'Refer to the API documentation for parameter requirements',
};
// Same page, "Error code list": HTTP 401, code 1002.
const DOC_AUTH = {
  code: 1002,
  message: 'Authentication failed',
  suggestion: 'Check if your credentials is valid, and ensure you set it correctly',
};
// https://docs.tripo3d.ai/get-started/rate-limits.html ("Generation Rate Limit")
const DOC_429 = {
  code: 2000,
  message: 'You have exceeded the limit of generation',
  suggestion: 'Try again later. You can also check `Retry-After` header.',
};
// Generation page, "Text to Model" example (funmagic-ai/magi-3d-sdk tripo/generation.md, a copy
// of Tripo's docs): request and response.
const DOC_TEXT_REQUEST = { type: 'text_to_model', prompt: 'a small cat' };
const DOC_CREATED = { code: 0, data: { task_id: '1ec04ced-4b87-44f6-a296-beee80777941' } };
// Task page, "Get a Specific Task" example (magi-3d-sdk tripo/task.md).
const DOC_RUNNING = {
  code: 0,
  data: {
    task_id: 'ef731ad6-aeb0-4950-9a2e-2298359dfaf8',
    type: 'text_to_model',
    status: 'running',
    input: { prompt: 'a small cat' },
    output: {},
    progress: 99,
    create_time: 1709048933,
  },
};
// https://docs.tripo3d.ai/get-started/errors-and-error-handling.html: a task failed in a query.
const DOC_FAILED = {
  code: 0,
  data: {
    task_id: '916ef2cf-02e5-4bed-97f3-d8a8196f7dfc',
    type: 'text_to_model',
    status: 'failed',
    input: { prompt: 'A dachshund standing on a stool.', model_version: 'v2.5-20250123' },
    output: {},
    progress: 100,
    create_time: 1768888519,
    error_code: 1001,
    prompt: 'a dog',
    queuing_num: -1,
    running_left_time: -1,
    result: {},
  },
};
// Upload page example (magi-3d-sdk tripo/upload.md); the official Python SDK reads
// response['data']['image_token'] (tripo-python-sdk tripo3d/client_impl/aiohttp_client_impl.py).
const DOC_UPLOADED = { code: 0, data: { image_token: 'ce85f375-3ccc-440b-b847-571588872ec2' } };
// tripo-python-sdk tripo3d/models.py `Balance.from_dict`: data['balance'], data['frozen'];
// tripo3d/client.py `get_balance`: GET /user/balance, response['data'].
const DOC_BALANCE = { code: 0, data: { balance: 2000, frozen: 0 } };

/** The keys and value types of a JSON object, for comparing shapes. */
const shapeOf = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Array.isArray(v) ? 'array' : typeof v]));

let served: ServedTripoMock;
const sent: { url: string; body: unknown }[] = [];
beforeAll(async () => {
  served = await serveTripoMock({ keys: [{ key: KEY, balance: 2000 }] });
});
afterAll(() => served.close());

const api = (path: string, init: RequestInit = {}, key = KEY) =>
  fetch(`${served.baseUrl}${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
  });

describe("the Tripo mock answers as Tripo's docs show", () => {
  it('reads every documented example with the adapter’s schemas', () => {
    expect(TripoErrorSchema.parse(DOC_ERROR)).toEqual(DOC_ERROR);
    expect(TripoCreatedSchema.parse(DOC_CREATED.data).task_id).toBe(DOC_CREATED.data.task_id);
    expect(TripoTaskSchema.parse(DOC_RUNNING.data).status).toBe('running');
    expect(TripoTaskSchema.parse(DOC_FAILED.data).error_code).toBe(1001);
    expect(TripoUploadSchema.parse(DOC_UPLOADED.data).image_token).toBeTruthy();
    expect(TripoBalanceSchema.parse(DOC_BALANCE.data)).toEqual(DOC_BALANCE.data);
  });

  it('takes the documented text request and answers as documented', async () => {
    const res = await api('/task', { method: 'POST', body: JSON.stringify(DOC_TEXT_REQUEST) });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Tripo-Trace-ID')).toMatch(/^[0-9a-f-]{36}$/);
    const created = (await res.json()) as typeof DOC_CREATED;
    expect(shapeOf(created)).toEqual(shapeOf(DOC_CREATED));
    expect(created.data.task_id).toMatch(/^[0-9a-f-]{36}$/);
    const task = (await (await api(`/task/${created.data.task_id}`)).json()) as typeof DOC_RUNNING;
    // Every documented field, of the documented type (the mock adds the SDK's optional ones).
    expect(shapeOf(task.data)).toMatchObject(shapeOf(DOC_RUNNING.data));
    expect(task.data.input).toMatchObject(DOC_RUNNING.data.input);
  });

  it('ends a failed task as the documented failed example', async () => {
    const body = { type: 'text_to_model', prompt: 'a dog mock:fail' };
    const { data } = (await (
      await api('/task', { method: 'POST', body: JSON.stringify(body) })
    ).json()) as typeof DOC_CREATED;
    let task: Record<string, unknown> = {};
    for (let i = 0; i < 200 && task['status'] !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      task = (
        (await (await api(`/task/${data.task_id}`)).json()) as { data: Record<string, unknown> }
      ).data;
    }
    const { prompt: _p, result: _r, ...documented } = DOC_FAILED.data;
    expect(shapeOf(task)).toMatchObject(shapeOf(documented));
    expect(task).toMatchObject({
      status: 'failed',
      progress: 100,
      queuing_num: -1,
      running_left_time: -1,
      error_code: 1001,
    });
  });

  it('answers errors in the documented body, with their documented HTTP status', async () => {
    const bad = await api('/task', {
      method: 'POST',
      body: JSON.stringify({ type: 'text_to_model', prompt: '' }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual(DOC_ERROR);
    const auth = await api('/user/balance', {}, 'tsk_wrong');
    expect(auth.status).toBe(401);
    expect(await auth.json()).toEqual(DOC_AUTH);
    const limited = await api('/task', {
      method: 'POST',
      body: JSON.stringify({ ...DOC_TEXT_REQUEST, prompt: 'mock:429' }),
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toEqual(DOC_429);
  });

  it('answers the upload and the balance in the documented shape', async () => {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(photo('teapot.png'))], { type: 'image/png' }),
      'teapot.png',
    );
    const up = await fetch(`${served.baseUrl}/upload`, {
      method: 'POST',
      body: form,
      headers: { Authorization: `Bearer ${KEY}` },
    });
    expect(shapeOf((await up.json()) as Record<string, unknown>)).toEqual(shapeOf(DOC_UPLOADED));
    const balance = (await (await api('/user/balance')).json()) as typeof DOC_BALANCE;
    expect(shapeOf(balance.data)).toEqual(shapeOf(DOC_BALANCE.data));
  });

  it('gets from the adapter the documented request bodies', async () => {
    const recording: typeof fetch = async (input, init) => {
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : init?.body;
      sent.push({ url: String(input), body });
      return fetch(input, init);
    };
    const adapter = createTripoAdapter({ baseUrl: served.baseUrl, fetch: recording });
    const png = `data:image/png;base64,${Buffer.from(photo('teapot.png')).toString('base64')}`;
    await adapter.create(KEY, 'v2.5-20250123', { kind: 'text', prompt: 'a small cat' });
    await adapter.create(KEY, 'v2.5-20250123', { kind: 'image', imageUrl: png });
    await adapter.create(KEY, 'v2.5-20250123', {
      kind: 'multiview',
      views: [
        { side: 'front', url: 'https://example.com/front.jpg' },
        { side: 'right', url: 'https://example.com/right.webp' },
      ],
    });
    const tasks = sent.filter((s) => s.url.endsWith('/task')).map((s) => s.body);
    // Generation page examples: {"type": "text_to_model", "prompt": "a small cat"} and
    // {"type": "image_to_model", "file": {"type": "jpg", "file_token": "***"}}.
    expect(tasks[0]).toEqual({ ...DOC_TEXT_REQUEST, model_version: 'v2.5-20250123' });
    expect(tasks[1]).toMatchObject({
      type: 'image_to_model',
      file: { type: 'png', file_token: expect.any(String) },
    });
    // "exactly 4 items in the order [front, left, back, right]", omitted ones empty: the
    // generation page's multiview example (magi-3d-sdk tripo/generation.md) sends
    // "files": [{"type": "jpg", "file_token": "***"}, {}, {"type": "jpg", …}, {"type": "jpeg", "url": "***"}].
    expect(tasks[2]).toMatchObject({
      type: 'multiview_to_model',
      files: [
        { type: 'jpg', url: 'https://example.com/front.jpg' },
        {},
        {},
        { type: 'webp', url: 'https://example.com/right.webp' },
      ],
    });
  });
});
