import { validateBytes } from 'gltf-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERROR_CODES,
  ErrorBodySchema,
  LibraryEntrySchema,
  OptimiseJobSchema,
  OptimiseStartSchema,
  PendingTaskSchema,
  type OptimiseJob,
} from '../../contract/index.ts';
import { photoDataUri, realGenerator } from '../../testing/mock.ts';
import { KEY, startTestServer, type TestServer } from '../../testing/server.ts';
import { readStl } from '../../testing/stl.ts';

const OTHER = 'tr_other_key';

let server: TestServer;
let taskId: string;
beforeAll(async () => {
  // The real generator behind the mock (the test mock's own makes empty models), and a second key.
  server = await startTestServer({
    mock: {
      generator: realGenerator,
      keys: [
        { key: KEY, balance: 1000 },
        { key: OTHER, balance: 1000 },
      ],
    },
  });
  taskId = await archivedTask(server, { model: 'alpha', image_url: photoDataUri('chair.png') });
});
afterAll(() => server.close());

/** A task through the proxy, polled until it is done and Kiln has its model. */
async function archivedTask(s: TestServer, body: object, key = KEY): Promise<string> {
  const created = await s.request('/api/v1/3d/generations', {
    method: 'POST',
    body: JSON.stringify(body),
    key,
  });
  const { id } = PendingTaskSchema.parse(await created.json());
  for (let i = 0; i < 1000; i++) {
    await s.request(`/api/v1/tasks/${id}`, { key });
    const entry = LibraryEntrySchema.parse(
      await (await s.request(`/api/library/${id}`, { key })).json(),
    );
    if (entry.archived) return id;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the task was never archived');
}

const start = (id: string, body: unknown, key: string | null = KEY) =>
  server.request(`/api/library/${id}/optimise`, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    key,
  });

/** Polls a job until it ends; returns it and every progress value seen on the way. */
async function finish(jobId: string): Promise<{ job: OptimiseJob; seen: number[] }> {
  const seen: number[] = [];
  for (let i = 0; i < 3000; i++) {
    const res = await server.request(`/api/optimise/${jobId}`);
    expect(res.status).toBe(200);
    const job = OptimiseJobSchema.parse(await res.json());
    seen.push(job.progress);
    if (job.status === 'succeeded' || job.status === 'failed') return { job, seen };
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the job never finished');
}

describe('POST /api/library/{id}/optimise, GET /api/optimise/{job_id}', () => {
  it('Web / AR: a job on a worker thread, its progress, then a valid GLB and its facts', async () => {
    const res = await start(taskId, { preset: 'web' });
    expect(res.status).toBe(202);
    const { job_id } = OptimiseStartSchema.parse(await res.json());
    expect(job_id).toMatch(/^opt_[a-f0-9]{24}$/);
    expect(res.headers.get('location')).toBe(`/api/optimise/${job_id}`);

    const { job, seen } = await finish(job_id);
    expect(job.status).toBe('succeeded');
    expect(job).toMatchObject({ task_id: taskId, progress: 100, stage: 'Done', error: null });
    expect(job.plan).toMatchObject({
      preset: 'web',
      compression: 'meshopt',
      texture_format: 'webp',
    });
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    const result = job.result!;
    expect(result.format).toBe('glb');
    expect(result.url).toMatch(
      new RegExp(`^/api/optimise/files/${result.sha256}\\.glb\\?exp=\\d+&sig=[\\w-]{43}$`),
    );
    expect(result.after.triangles).toBeLessThanOrEqual(50_000);
    expect(result.after.textures.every((t) => t.mime_type === 'image/webp')).toBe(true);
    expect(result.after.bytes).toBeLessThan(result.before.bytes);

    // The file: served without a key at its signed address, cached privately, valid; the bare
    // content address opens nothing.
    const file = await server.request(result.url, { key: null });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('model/gltf-binary');
    expect(file.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect((await server.request(result.url.split('?')[0]!, { key: null })).status).toBe(404);
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect(bytes.byteLength).toBe(result.bytes);
    const report = await validateBytes(bytes, { writeTimestamp: false });
    expect(report.issues.numErrors).toBe(0);

    // Asking again for the same gives the same job.
    const again = OptimiseStartSchema.parse(await (await start(taskId, { preset: 'web' })).json());
    expect(again.job_id).toBe(job_id);
  });

  it('3D print: an STL in millimetres, and a GLB preview of it', async () => {
    const res = await start(taskId, { preset: 'print', height_mm: 150 });
    const { job } = await finish(OptimiseStartSchema.parse(await res.json()).job_id);
    expect(job.status).toBe('succeeded');
    const result = job.result!;
    expect(result).toMatchObject({ format: 'stl', watertight: true });
    expect(result.url).toMatch(/\.stl\?exp=\d+&sig=[\w-]{43}$/);
    expect(result.preview_url).toMatch(/^\/api\/optimise\/files\/[a-f0-9]{64}\.glb\?exp=/);
    const file = await server.request(result.url, { key: null });
    expect(file.headers.get('content-type')).toBe('model/stl');
    const stl = readStl(new Uint8Array(await file.arrayBuffer()));
    expect(stl.max[2] - stl.min[2]).toBeCloseTo(150, 2);
    const preview = await server.request(result.preview_url, { key: null });
    expect(preview.headers.get('content-type')).toBe('model/gltf-binary');
  });

  it('a job that cannot be done fails, saying why', async () => {
    // A model from the test mock's own generator: a GLB with nothing in it.
    const empty = await startTestServer();
    try {
      const id = await archivedTask(empty, { model: 'beta-text', prompt: 'a red mug' });
      const res = await empty.request(`/api/library/${id}/optimise`, {
        method: 'POST',
        body: JSON.stringify({ preset: 'web' }),
      });
      const { job_id } = OptimiseStartSchema.parse(await res.json());
      let job: OptimiseJob | undefined;
      for (let i = 0; i < 1000 && job?.status !== 'failed'; i++) {
        job = OptimiseJobSchema.parse(
          await (await empty.request(`/api/optimise/${job_id}`)).json(),
        );
        await new Promise((r) => setTimeout(r, 10));
      }
      expect(job?.status).toBe('failed');
      expect(job?.error).toMatchObject({
        code: ERROR_CODES.optimiseFailed,
        message: 'The model has no triangles to optimise.',
      });
    } finally {
      await empty.close();
    }
  });

  it('is the owner’s only: another key cannot start a job on the task nor read the job', async () => {
    const res = await start(taskId, { preset: 'game', triangles: 3000, texture_size: 512 });
    const { job_id } = OptimiseStartSchema.parse(await res.json());

    const theirs = await start(taskId, { preset: 'web' }, OTHER);
    expect(theirs.status).toBe(404);
    expect(ErrorBodySchema.parse(await theirs.json()).error).toMatchObject({
      code: ERROR_CODES.taskNotFound,
      param: 'id',
    });
    const read = await server.request(`/api/optimise/${job_id}`, { key: OTHER });
    expect(read.status).toBe(404);
    expect(ErrorBodySchema.parse(await read.json()).error.code).toBe(
      ERROR_CODES.optimiseJobNotFound,
    );
    for (const res of [
      await start(taskId, { preset: 'web' }, null),
      await server.request(`/api/optimise/${job_id}`, { key: null }),
    ]) {
      expect(res.status).toBe(401);
      expect(ErrorBodySchema.parse(await res.json()).error.code).toBe(ERROR_CODES.missingApiKey);
    }
    expect((await finish(job_id)).job.status).toBe('succeeded');
  });

  it('refuses a task that is not archived yet, and one that does not exist', async () => {
    const created = await server.request('/api/v1/3d/generations', {
      method: 'POST',
      body: JSON.stringify({ model: 'beta-text', prompt: 'a green vase' }),
    });
    const { id } = PendingTaskSchema.parse(await created.json());
    const res = await start(id, { preset: 'web' });
    expect(res.status).toBe(409);
    expect(ErrorBodySchema.parse(await res.json()).error).toMatchObject({
      code: ERROR_CODES.taskNotArchived,
      param: 'id',
    });
    const missing = await start('task_nope', { preset: 'web' });
    expect(missing.status).toBe(404);
  });

  it.each([
    ['not JSON', '{preset', ERROR_CODES.invalidJson, undefined],
    ['not an object', '[1]', ERROR_CODES.invalidValue, undefined],
    ['no preset', {}, ERROR_CODES.invalidValue, 'preset'],
    ['an unknown preset', { preset: 'fast' }, ERROR_CODES.invalidValue, 'preset'],
    ['too few triangles', { preset: 'game', triangles: 10 }, ERROR_CODES.invalidValue, 'triangles'],
    [
      'fractional triangles',
      { preset: 'custom', triangles: 1000.5 },
      ERROR_CODES.invalidValue,
      'triangles',
    ],
    [
      'a texture size not offered',
      { preset: 'game', texture_size: 1000 },
      ERROR_CODES.invalidValue,
      'texture_size',
    ],
    [
      'an unknown texture format',
      { preset: 'custom', texture_format: 'gif' },
      ERROR_CODES.invalidValue,
      'texture_format',
    ],
    [
      'an unknown compression',
      { preset: 'custom', compression: 'zip' },
      ERROR_CODES.invalidValue,
      'compression',
    ],
    ['an unknown pivot', { preset: 'custom', pivot: 'top' }, ERROR_CODES.invalidValue, 'pivot'],
    ['a negative height', { preset: 'custom', height_m: -1 }, ERROR_CODES.invalidValue, 'height_m'],
    ['a print with no height', { preset: 'print' }, ERROR_CODES.missingField, 'height_mm'],
    [
      'a print height as text',
      { preset: 'print', height_mm: '100' },
      ERROR_CODES.invalidValue,
      'height_mm',
    ],
    [
      'a print 9 m tall',
      { preset: 'print', height_mm: 9000 },
      ERROR_CODES.invalidValue,
      'height_mm',
    ],
    [
      'an option the preset does not take',
      { preset: 'web', triangles: 1000 },
      ERROR_CODES.invalidValue,
      'triangles',
    ],
  ])('400 for %s, naming the field', async (_what, body, code, param) => {
    const res = await start(taskId, body);
    expect(res.status).toBe(400);
    const { error } = ErrorBodySchema.parse(await res.json());
    expect(error.code).toBe(code);
    expect(error.type).toBe('invalid_request_error');
    expect(error.param ?? undefined).toBe(param);
    if (param) expect(error.message).toContain(param);
  });

  it('serves no file by a name that is not a content address', async () => {
    for (const name of ['x.glb', `${'a'.repeat(64)}.glb`, `${'a'.repeat(64)}.obj`]) {
      const res = await server.request(`/api/optimise/files/${name}`, { key: null });
      expect(res.status).toBe(404);
      expect(ErrorBodySchema.parse(await res.json()).error.code).toBe(ERROR_CODES.assetNotFound);
    }
  });
});
