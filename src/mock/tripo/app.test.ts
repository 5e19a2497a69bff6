// The Tripo mock's own rules, in-process: where it is mounted, what it refuses and with which
// documented code, and whose upload is whose.
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { photo, TEXT } from '../../testing/images.ts';
import { inThreadGenerator } from '../../testing/tripo-mock.ts';
import { TRIPO_DEMO_KEYS, createTripoMock, type TripoMock } from './app.ts';
import { priceOf } from './catalogue.ts';

const A = 'tsk_a';
const B = 'tsk_b';
let mock: TripoMock | undefined;
afterEach(() => mock?.close());

function open(now = Date.now) {
  mock = createTripoMock({
    generator: inThreadGenerator,
    keys: [
      { key: A, balance: 500 },
      { key: B, balance: 500 },
    ],
    speed: { queuedMs: 0, runningMs: 200 },
    now,
  });
  const root = new Hono();
  root.route('/mock/tripo', mock.app);
  const call = (path: string, init: RequestInit = {}, key = A) =>
    root.request(`http://kiln.test/mock/tripo/v2/openapi${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${key}`, ...(init.headers ?? {}) },
    });
  const create = (body: unknown, key = A) =>
    call(
      '/task',
      {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'Content-Type': 'application/json' },
      },
      key,
    );
  const upload = (bytes: Uint8Array, key = A) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'photo.png');
    return call('/upload', { method: 'POST', body: form }, key);
  };
  return { root, call, create, upload };
}

const codeOf = async (res: Response) => ((await res.json()) as { code: number }).code;

describe('the Tripo mock', () => {
  it('has demo keys in the documented format', () => {
    for (const { key } of TRIPO_DEMO_KEYS) expect(key).toMatch(/^tsk_/);
  });

  it('prices as the pricing page says', () => {
    expect(priceOf('text_to_model', {})).toBe(20);
    expect(priceOf('text_to_model', { texture: false, pbr: false })).toBe(10);
    expect(priceOf('image_to_model', { texture_quality: 'detailed', quad: true })).toBe(45);
    expect(priceOf('multiview_to_model', { model_version: 'P1-20260311' })).toBe(50);
  });

  it('gives result addresses under wherever it is mounted', async () => {
    const { call, create } = open();
    const { data } = (await (
      await create({ type: 'text_to_model', prompt: 'a chair' })
    ).json()) as { data: { task_id: string } };
    let out: Record<string, string> = {};
    for (let i = 0; i < 300 && !out['pbr_model']; i++) {
      await new Promise((r) => setTimeout(r, 30));
      out = (
        (await (await call(`/task/${data.task_id}`)).json()) as {
          data: { output: Record<string, string> };
        }
      ).data.output;
    }
    expect(out['pbr_model']).toMatch(
      /^http:\/\/kiln\.test\/mock\/tripo\/files\/[0-9a-f-]{36}\/[\w-]+\.glb\?Expires=\d+$/,
    );
  });

  it('refuses bad requests with the documented codes', async () => {
    const { create, call } = open();
    expect(await codeOf(await create({ type: 'refine_model' }))).toBe(2002);
    expect(
      await codeOf(
        await create({ type: 'text_to_model', prompt: 'x', model_version: 'v1.3-20240522' }),
      ),
    ).toBe(2015);
    expect(
      await codeOf(await create({ type: 'text_to_model', prompt: 'x', model_version: 'v9' })),
    ).toBe(2017);
    expect(await codeOf(await create({ type: 'image_to_model' }))).toBe(2003);
    expect(
      await codeOf(await create({ type: 'image_to_model', file: { type: 'jpg', url: 'ftp://x' } })),
    ).toBe(1004);
    const oneView = {
      type: 'multiview_to_model',
      files: [{ url: 'https://e.com/a.jpg' }, {}, {}, {}],
    };
    expect(await codeOf(await create(oneView))).toBe(1004);
    const noFront = {
      type: 'multiview_to_model',
      files: [{}, { url: 'https://e.com/a.jpg' }, { url: 'https://e.com/b.jpg' }, {}],
    };
    expect(await codeOf(await create(noFront))).toBe(1004);
    const bad = await call('/task', {
      method: 'POST',
      body: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(await codeOf(bad)).toBe(1003);
  });

  it('keeps each key’s uploads and tasks its own', async () => {
    const { upload, create, call } = open();
    expect(await codeOf(await upload(TEXT))).toBe(2004);
    const up = (await (await upload(photo('chair.png'))).json()) as {
      data: { image_token: string };
    };
    const file = { type: 'png', file_token: up.data.image_token };
    expect(await codeOf(await create({ type: 'image_to_model', file }, B))).toBe(2019);
    const mine = (await (await create({ type: 'image_to_model', file })).json()) as {
      data: { task_id: string };
    };
    expect((await call(`/task/${mine.data.task_id}`, {}, B)).status).toBe(404);
    expect(mock?.ledger(A)).toMatchObject({ balance: 470, frozen: 30 });
  });
});
