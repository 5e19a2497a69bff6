import { afterEach, describe, expect, it } from 'vitest';
import {
  CompletedTaskSchema,
  ErrorBodySchema,
  FailedTaskSchema,
  ModelListSchema,
  PendingTaskSchema,
  STAGES,
  TaskSchema,
  type Task,
} from '../contract/index.ts';
import { hashKey } from './keys.ts';
import { CREDITS_PER_TASK } from './pricing.ts';
import { threadId } from 'node:worker_threads';
import { createGeneratorPool } from '../generator/runtime/pool.ts';
import { pooledGenerator } from './create.ts';
import {
  evenSpeed,
  fakeGenerator,
  ledgerOf,
  photoDataUri,
  startTestMock,
  type TestMock,
} from '../testing/mock.ts';
import { solid } from '../testing/images.ts';
import {
  GeneratorInputError,
  IMAGE_QUALITY,
  VIEWS_QUALITY,
  imageToGlb,
  photoCutout,
  promptToGlb,
  viewsToGlb,
} from '../generator/index.ts';
import { createHash } from 'node:crypto';
import { inspectGlb } from '../testing/generator.ts';
import type { Generator } from './engine.ts';

let mock: TestMock | undefined;
/** The real generator, in this thread. */
const inProcessGenerator: Generator = {
  imageToGlb: (image, hooks, quality = 'standard') =>
    imageToGlb(image, { ...IMAGE_QUALITY[quality], ...hooks }),
  viewsToGlb: (images, hooks, quality = 'standard') =>
    viewsToGlb(images, { ...VIEWS_QUALITY[quality], ...hooks }),
  promptToGlb: (prompt, hooks) => promptToGlb(prompt, hooks),
  cutout: (image) => photoCutout(image),
  isInputError: (err) => err instanceof GeneratorInputError,
};
/** A PNG of one plain colour: an image, with no object to find in it. */
const WHITE = `data:image/png;base64,${Buffer.from(await solid(64, 64, 'png')).toString('base64')}`;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const json = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body) });
const CHAIR = photoDataUri('chair.png');

async function until(m: TestMock, id: string, done: (t: Task) => boolean, seen: Task[] = []) {
  for (let i = 0; i < 2000; i++) {
    const res = await m.request(`/tasks/${id}`);
    expect(res.status).toBe(200);
    const task = TaskSchema.parse(await res.json());
    seen.push(task);
    if (done(task)) return task;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`task ${id} never reached the wanted state`);
}
const terminal = (t: Task) => t.status === 'completed' || t.status === 'failed';

async function errorOf(res: Response) {
  return ErrorBodySchema.parse(await res.json()).error;
}

describe('auth', () => {
  it('refuses a missing key with 401 missing_api_key', async () => {
    mock = await startTestMock();
    const res = await mock.request('/models', { key: null });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({
      type: 'authentication_error',
      code: 'missing_api_key',
    });
  });

  it.each([
    ['Basic dHJfdGVzdA==', 'another scheme'],
    ['Bearer', 'no token'],
    ['Bearer sk_not_ours', 'a key without tr_'],
    ['Bearer tr_unknown_key', 'an unknown key'],
  ])('refuses %s (%s) with 401 invalid_api_key', async (header) => {
    mock = await startTestMock();
    const res = await mock.request('/models', { key: null, headers: { authorization: header } });
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code: 'invalid_api_key' });
  });
});

describe('models', () => {
  it('lists the six aliases with input kind and credits per task', async () => {
    mock = await startTestMock();
    const res = await mock.request('/models');
    expect(res.status).toBe(200);
    const list = ModelListSchema.parse(await res.json());
    expect(list.object).toBe('list');
    expect(list.data.map((m) => m.id)).toEqual(Object.keys(CREDITS_PER_TASK));
    for (const m of list.data) {
      expect(m.object).toBe('model');
      expect(m.credits_per_task).toBe(CREDITS_PER_TASK[m.id as keyof typeof CREDITS_PER_TASK]);
      expect(m.input).toMatch(/^(image|multiview|text)$/);
    }
  });
});

describe('create and query', () => {
  it('async create answers 202 with the pending shape, then completes with data and usage', async () => {
    mock = await startTestMock();
    const res = await mock.request('/3d/generations', json({ model: 'alpha', image_url: CHAIR }));
    expect(res.status).toBe(202);
    const pending = PendingTaskSchema.parse(await res.json());
    expect(pending.data).toBeNull();
    const done = CompletedTaskSchema.parse(await until(mock, pending.id, terminal));
    expect(done).toMatchObject({ progress: 100, progress_stage: 'Completed' });
    expect(done.data).toMatchObject({ format: 'glb', model: 'alpha' });
    expect(done.usage).toEqual({ credits_consumed: 10, credits_remaining: 990 });
    expect(done.completed_at).toBeGreaterThanOrEqual(done.created);

    // The GLB is downloadable without Authorization.
    const path = new URL(done.data.model_url).pathname.replace(/^\/v1/, '');
    const glb = await mock.request(path, { key: null });
    expect(glb.status).toBe(200);
    expect(glb.headers.get('content-type')).toBe('model/gltf-binary');
    const bytes = new Uint8Array(await glb.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe('glTF');
  });

  it('reports the stages of the spec table, in order, with their progress values', async () => {
    mock = await startTestMock({ speed: evenSpeed(40) });
    const res = await mock.request(
      '/3d/generations',
      json({ model: 'beta-text', prompt: 'a red vase' }),
    );
    const { id } = PendingTaskSchema.parse(await res.json());
    const seen: Task[] = [];
    await until(mock, id, terminal, seen);
    const distinct = [...new Map(seen.map((t) => [t.progress, t.progress_stage])).entries()];
    expect(distinct).toEqual(STAGES.map((s) => [s.progress, s.label]));
  });

  it('shows generating, then processing, as the generator really moves on', async () => {
    const gate = () => {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { open, opened };
    };
    const built = gate();
    const packed = gate();
    mock = await startTestMock({
      generator: {
        ...fakeGenerator,
        async imageToGlb(image, hooks) {
          await built.opened;
          hooks?.onPhase?.('processing');
          await packed.opened;
          return fakeGenerator.imageToGlb(image);
        },
      },
    });
    const res = await mock.request('/3d/generations', json({ model: 'beta', image_url: CHAIR }));
    const { id } = PendingTaskSchema.parse(await res.json());
    const [, , GENERATE, PROCESS] = STAGES;
    const stageOf = async () =>
      TaskSchema.parse(await (await mock!.request(`/tasks/${id}`)).json());
    await until(mock, id, (t) => t.progress_stage === GENERATE.label);
    for (let i = 0; i < 5; i++) expect((await stageOf()).progress_stage).toBe(GENERATE.label);
    built.open();
    await until(mock, id, (t) => t.progress_stage === PROCESS.label);
    for (let i = 0; i < 5; i++) expect((await stageOf()).progress_stage).toBe(PROCESS.label);
    packed.open();
    expect((await until(mock, id, terminal)).status).toBe('completed');
  });

  it('builds real models on worker threads and answers polls meanwhile', async () => {
    const pool = createGeneratorPool({ threads: 1 });
    try {
      mock = await startTestMock({ generator: pooledGenerator(pool) });
      const res = await mock.request(
        '/3d/generations',
        json({ model: 'beta', image_url: photoDataUri('teapot.png') }),
      );
      const { id } = PendingTaskSchema.parse(await res.json());
      const seen: Task[] = [];
      const done = await until(mock, id, terminal, seen);
      expect(done.status).toBe('completed');
      const [, , GENERATE, PROCESS] = STAGES;
      // Polls were answered during both stages of the real work.
      expect(seen.filter((t) => t.progress_stage === GENERATE.label).length).toBeGreaterThan(1);
      expect(seen.some((t) => t.progress_stage === PROCESS.label)).toBe(true);
      expect(pool.lastThreadId).not.toBe(threadId);
    } finally {
      await mock?.close();
      mock = undefined;
      await pool.close();
    }
  });

  it('sync mode returns the completed result when the task finishes in time', async () => {
    mock = await startTestMock();
    const res = await mock.request(
      '/3d/generations',
      json({ model: 'beta-multiview', image_urls: [CHAIR, CHAIR], mode: 'sync' }),
    );
    expect(res.status).toBe(200);
    const done = CompletedTaskSchema.parse(await res.json());
    expect(done.usage.credits_consumed).toBe(25);
  });

  it('sync mode returns the pending shape when the wait runs out, and the task goes on', async () => {
    mock = await startTestMock({
      syncWaitMs: 50,
      speed: { initializing: 0, downloading: 0, generating: 300, processing: 0, uploading: 0 },
    });
    const res = await mock.request(
      '/3d/generations',
      json({ model: 'beta-text', prompt: 'cube', mode: 'sync' }),
    );
    expect(res.status).toBe(202);
    const pending = PendingTaskSchema.parse(await res.json());
    const done = await until(mock, pending.id, terminal);
    expect(done.status).toBe('completed');
  });

  it('404s an unknown task and another key’s task', async () => {
    mock = await startTestMock({
      keys: [
        { key: 'tr_test_key', balance: 100 },
        { key: 'tr_other_key', balance: 100 },
      ],
    });
    const missing = await mock.request('/tasks/task_nope');
    expect(missing.status).toBe(404);
    expect(await errorOf(missing)).toMatchObject({ type: 'not_found', code: 'task_not_found' });
    const res = await mock.request('/3d/generations', json({ model: 'beta-text', prompt: 'cube' }));
    const { id } = PendingTaskSchema.parse(await res.json());
    expect((await mock.request(`/tasks/${id}`, { key: 'tr_other_key' })).status).toBe(404);
  });

  it('answers unknown routes with a JSON 404', async () => {
    mock = await startTestMock();
    const res = await mock.request('/nothing/here');
    expect(res.status).toBe(404);
    expect((await errorOf(res)).message).toContain('/nothing/here');
  });
});

describe('credits', () => {
  it('402s when the balance is short, naming price and balance', async () => {
    mock = await startTestMock({ keys: [{ key: 'tr_test_key', balance: 25 }] });
    expect(
      (await mock.request('/3d/generations', json({ model: 'beta-text', prompt: 'a' }))).status,
    ).toBe(202);
    const res = await mock.request('/3d/generations', json({ model: 'gamma', image_url: CHAIR }));
    expect(res.status).toBe(402);
    const error = await errorOf(res);
    expect(error).toMatchObject({ type: 'insufficient_credits', code: 'insufficient_credits' });
    expect(error.message).toContain('30 credits');
    expect(error.message).toContain('balance is 15');
  });

  it('50 concurrent creates against a balance for 7 make exactly 7 tasks and 43 × 402', async () => {
    mock = await startTestMock({
      keys: [{ key: 'tr_test_key', balance: 7 * CREDITS_PER_TASK.alpha }],
    });
    const m = mock;
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        m.request('/3d/generations', json({ model: 'alpha', image_url: CHAIR })),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(7);
    expect(statuses.filter((s) => s === 402)).toHaveLength(43);
    await m.engine.close();
    const ledger = await ledgerOf(m.store, hashKey('tr_test_key'));
    expect(ledger.balance).toBe(0);
    expect(ledger.balance).toBe(ledger.expected);
  });

  it.each([
    [
      'an unreachable image URL',
      { model: 'alpha', image_url: 'http://127.0.0.1:9/nothing.png' },
      'image_download_failed',
    ],
    [
      'a URL that is not an image',
      { model: 'beta', image_url: 'data:image/png;base64,aGVsbG8=' },
      'image_decode_failed',
    ],
    [
      'a multi-view set with one bad view',
      { model: 'alpha-multiview', image_urls: [CHAIR, 'http://127.0.0.1:9/x.png'] },
      'image_download_failed',
    ],
    [
      'a photo with no object in it (one plain colour)',
      { model: 'alpha', image_url: WHITE },
      'no_subject_found',
    ],
    [
      'the explicit mock:fail trigger',
      { model: 'beta-text', prompt: 'mock:fail please' },
      'generation_failed',
    ],
  ])('fails on %s and refunds the credits at once', async (_label, body, code) => {
    mock = await startTestMock({
      keys: [{ key: 'tr_test_key', balance: 100 }],
      // The real generator decides what a photo shows.
      ...(code === 'no_subject_found' ? { generator: inProcessGenerator } : {}),
    });
    const res = await mock.request('/3d/generations', json(body));
    expect(res.status).toBe(202);
    const { id } = PendingTaskSchema.parse(await res.json());
    const seen: Task[] = [];
    const failed = FailedTaskSchema.parse(await until(mock, id, terminal, seen));
    expect(failed.error.code).toBe(code);
    expect(failed.error.message.length).toBeGreaterThan(10);
    if (code === 'image_download_failed') expect(failed.progress_stage).toBe('Downloading images');
    const ledger = await ledgerOf(mock.store, hashKey('tr_test_key'));
    expect(ledger).toMatchObject({ balance: 100, expected: 100, failed: 1 });
  });
  it('says views_do_not_match, naming the views, when the views describe no one object', async () => {
    mock = await startTestMock({
      keys: [{ key: 'tr_test_key', balance: 100 }],
      generator: {
        ...fakeGenerator,
        viewsToGlb: () =>
          Promise.reject(
            new GeneratorInputError('The views do not show one object.', {
              reason: 'views_disagree',
            }),
          ),
        isInputError: (err) => err instanceof GeneratorInputError,
      },
    });
    const body = { model: 'alpha-multiview', image_urls: [CHAIR, CHAIR] };
    const { id } = PendingTaskSchema.parse(
      await (await mock.request('/3d/generations', json(body))).json(),
    );
    const failed = FailedTaskSchema.parse(await until(mock, id, terminal, []));
    expect(failed.error).toMatchObject({ code: 'views_do_not_match', param: 'image_urls' });
    expect(await ledgerOf(mock.store, hashKey('tr_test_key'))).toMatchObject({ balance: 100 });
  });
});

describe('tiers', () => {
  it('alpha, beta and gamma make different models of one photo: more triangles, more time', async () => {
    mock = await startTestMock({
      keys: [{ key: 'tr_test_key', balance: 1000 }],
      generator: inProcessGenerator,
    });
    const image = photoDataUri('chair.png');
    const triangles: Record<string, number> = {};
    const hashes = new Set<string>();
    for (const model of ['alpha', 'beta', 'gamma']) {
      const res = await mock.request('/3d/generations', json({ model, image_url: image }));
      const { id } = PendingTaskSchema.parse(await res.json());
      const done = CompletedTaskSchema.parse(await until(mock, id, terminal, []));
      const glb = new Uint8Array(
        await (
          await mock.request(new URL(done.data.model_url).pathname.replace(/^\/v1/, ''), {
            key: null,
          })
        ).arrayBuffer(),
      );
      hashes.add(createHash('sha256').update(glb).digest('hex'));
      triangles[model] = (await inspectGlb(glb)).triangles;
    }
    expect(hashes.size).toBe(3);
    expect(triangles.alpha).toBeLessThan(triangles.beta!);
    expect(triangles.beta).toBeLessThan(triangles.gamma!);
  });
});

describe('rate limit', () => {
  it('429s with Retry-After past the per-key limit', async () => {
    mock = await startTestMock({ rateLimit: { limit: 3, windowMs: 60_000 } });
    for (let i = 0; i < 3; i++) expect((await mock.request('/models')).status).toBe(200);
    const res = await mock.request('/models');
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await errorOf(res)).toMatchObject({ type: 'rate_limit_error' });
  });
});

describe('bad bodies get 400 naming the field, never a 500', () => {
  const cases: [string, string, string, string][] = [
    ['malformed JSON', '{"model": "alpha",', 'invalid_json', ''],
    ['a JSON array', '[1,2]', 'invalid_value', ''],
    ['model missing', '{"image_url":"https://x.test/a.png"}', 'missing_field', 'model'],
    [
      'an unknown model',
      '{"model":"omega","image_url":"https://x.test/a.png"}',
      'invalid_value',
      'model',
    ],
    ['a number for image_url', '{"model":"alpha","image_url":42}', 'invalid_value', 'image_url'],
    [
      'image_url not a URL',
      '{"model":"alpha","image_url":"chair.png"}',
      'invalid_value',
      'image_url',
    ],
    ['no image for a single-image model', '{"model":"gamma"}', 'missing_field', 'image_url'],
    [
      '1 image',
      '{"model":"alpha-multiview","image_urls":["https://x.test/1.png"]}',
      'invalid_image_count',
      'image_urls',
    ],
    [
      '5 images',
      JSON.stringify({
        model: 'beta-multiview',
        image_urls: [1, 2, 3, 4, 5].map((i) => `https://x.test/${i}.png`),
      }),
      'invalid_image_count',
      'image_urls',
    ],
    [
      'image_urls not an array',
      '{"model":"alpha-multiview","image_urls":"https://x.test/1.png"}',
      'invalid_value',
      'image_urls',
    ],
    [
      'image_urls on a single-image model',
      '{"model":"alpha","image_urls":["https://x.test/1.png","https://x.test/2.png"]}',
      'unsupported_input',
      'image_urls',
    ],
    ['prompt missing for beta-text', '{"model":"beta-text"}', 'missing_field', 'prompt'],
    [
      'a 2001-character prompt',
      JSON.stringify({ model: 'beta-text', prompt: 'x'.repeat(2001) }),
      'prompt_too_long',
      'prompt',
    ],
    ['a wrong mode', '{"model":"beta-text","prompt":"a","mode":"later"}', 'invalid_value', 'mode'],
  ];
  it.each(cases)('%s', async (_label, body, code, param) => {
    mock = await startTestMock({ keys: [{ key: 'tr_test_key', balance: 100 }] });
    const res = await mock.request('/3d/generations', { method: 'POST', body });
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.type).toBe('invalid_request_error');
    expect(error.code).toBe(code);
    expect(error.param ?? '').toBe(param);
    if (param) expect(error.message).toContain(param);
    // Nothing was charged.
    expect((await mock.store.account(hashKey('tr_test_key')))?.balance).toBe(100);
  });
});
