import { describe, expect, it } from 'vitest';
import {
  CompletedTaskSchema,
  CreateGenerationRequestSchema,
  ErrorBodySchema,
  FailedTaskSchema,
  FALLBACK_MODELS,
  ModelListSchema,
  PendingTaskSchema,
  STAGES,
  TaskSchema,
  isCompleted,
  isFailed,
  isTerminal,
  parseCreateRequest,
  progressOf,
  stageForProgress,
  stageFromName,
  shownStage,
  stagesFor,
} from './index.ts';
import { readFileSync } from 'node:fs';
import { LIMITS, MODEL_ALIASES } from './models.ts';

// The shapes of the spec, written out as an upstream would send them.
const pending = {
  id: 'task_123',
  object: 'task',
  status: 'pending',
  created: 1_760_000_000,
  data: null,
};
const queried = {
  id: 'task_123',
  object: '3d.generation',
  status: 'pending',
  progress: 40,
  progress_stage: 'Generating 3D mesh',
  created: 1_760_000_000,
  data: null,
};
const completed = {
  id: 'task_123',
  object: '3d.generation',
  status: 'completed',
  progress: 100,
  progress_stage: 'Completed',
  created: 1_760_000_000,
  completed_at: 1_760_000_042,
  data: { model_url: 'https://cdn.example.com/m/task_123.glb', format: 'glb', model: 'alpha' },
  usage: { credits_consumed: 10, credits_remaining: 990 },
};
const failed = {
  id: 'task_123',
  object: '3d.generation',
  status: 'failed',
  progress: 20,
  progress_stage: 'Downloading images',
  created: 1_760_000_000,
  data: null,
  error: { message: 'Could not download the image.' },
};

describe('task shapes', () => {
  it('accepts the pending task of a create', () => {
    expect(PendingTaskSchema.parse(pending)).toEqual(pending);
    expect(isTerminal(TaskSchema.parse(pending))).toBe(false);
  });

  it('accepts a query response in progress', () => {
    const t = TaskSchema.parse(queried);
    expect(progressOf(t)).toBe(40);
    expect(stageFromName(t.progress_stage)?.key).toBe('generating_mesh');
  });

  it('accepts the completed result', () => {
    const t = CompletedTaskSchema.parse(completed);
    expect(isCompleted(t)).toBe(true);
    expect(isTerminal(t)).toBe(true);
  });

  it('accepts a failed task with error.message', () => {
    const t = FailedTaskSchema.parse(failed);
    expect(isFailed(t)).toBe(true);
    expect(t.error.message).toContain('download');
  });

  it('lets unknown fields and statuses pass, and optional fields be absent or null', () => {
    const t = TaskSchema.parse({
      id: 'x',
      status: 'running',
      eta_seconds: 12,
      usage: null,
      error: null,
    });
    expect(t.status).toBe('running');
    expect((t as Record<string, unknown>).eta_seconds).toBe(12);
    expect(isTerminal(t)).toBe(false);
    expect(
      progressOf(
        TaskSchema.parse({ id: 'x', status: 'pending', progress_stage: 'processing mesh' }),
      ),
    ).toBe(80);
    expect(
      progressOf(TaskSchema.parse({ id: 'x', status: 'completed', data: { model_url: 'u' } })),
    ).toBe(100);
  });

  it('rejects a task without id or status, naming the path', () => {
    const r = TaskSchema.safeParse({ status: 'pending' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(['id']);
    expect(
      CompletedTaskSchema.safeParse({ ...completed, data: null }).error?.issues[0]?.path,
    ).toEqual(['data']);
    expect(
      CompletedTaskSchema.safeParse({ ...completed, usage: undefined }).error?.issues[0]?.path,
    ).toEqual(['usage']);
    expect(TaskSchema.safeParse({ ...completed, progress: 140 }).error?.issues[0]?.path).toEqual([
      'progress',
    ]);
  });
});

describe('stages', () => {
  it('follows the spec table', () => {
    expect(STAGES.map((s) => [s.progress, s.label])).toEqual([
      [0, 'Initializing'],
      [20, 'Downloading images'],
      [40, 'Generating 3D mesh'],
      [80, 'Processing mesh'],
      [90, 'Uploading result'],
      [100, 'Completed'],
    ]);
    expect(stageForProgress(0).key).toBe('initializing');
    expect(stageForProgress(55).key).toBe('generating_mesh');
    expect(stageForProgress(100).key).toBe('completed');
  });

  it('shows a prompt’s task without a Downloading images stage (nothing is downloaded)', () => {
    expect(stagesFor(true).map((s) => s.key)).toEqual([
      'initializing',
      'generating_mesh',
      'processing_mesh',
      'uploading_result',
      'completed',
    ]);
    expect(stagesFor(false)).toBe(STAGES);
    // The upstream says "Downloading images" for a prompt all the same: it reads as the stage before.
    expect(shownStage('Downloading images', 20, true).key).toBe('initializing');
    expect(shownStage(null, 25, true).key).toBe('initializing');
    expect(shownStage('Downloading images', 20, false).key).toBe('downloading_images');
    expect(shownStage('Generating 3D mesh', 40, true).key).toBe('generating_mesh');
  });

  it('reads stage names leniently', () => {
    for (const s of STAGES) {
      expect(stageFromName(s.label)).toBe(s);
      expect(stageFromName(s.label.toUpperCase())).toBe(s);
      expect(stageFromName(s.key)).toBe(s);
    }
    expect(stageFromName('generating_3d_mesh')?.progress).toBe(40);
    expect(stageFromName('something else')).toBeUndefined();
    expect(stageFromName(null)).toBeUndefined();
  });
});

describe('errors and models', () => {
  it('accepts the error body with all four fields, or message alone', () => {
    const full = {
      error: {
        message: 'm',
        type: 'invalid_request_error',
        code: 'missing_field',
        param: 'prompt',
      },
    };
    expect(ErrorBodySchema.parse(full)).toEqual(full);
    expect(
      ErrorBodySchema.parse({ error: { message: 'm', type: null, param: null } }).error.message,
    ).toBe('m');
    expect(ErrorBodySchema.safeParse({ error: {} }).error?.issues[0]?.path).toEqual([
      'error',
      'message',
    ]);
  });

  it('accepts the models listing, tolerating unknown input kinds', () => {
    const list = ModelListSchema.parse({
      object: 'list',
      data: [
        { id: 'alpha', object: 'model', input: 'image', credits_per_task: 10, description: 'd' },
        { id: 'delta', object: 'model', input: 'video' },
      ],
    });
    expect(list.data[1]?.input).toBeUndefined();
    // The spec's six aliases, in the spec's order.
    expect(FALLBACK_MODELS.data.map((m) => m.id)).toEqual([...MODEL_ALIASES]);
  });
});

describe('create request', () => {
  const https = (n: number) =>
    Array.from({ length: n }, (_, i) => `https://img.example.com/${i}.png`);
  it.each([
    { model: 'alpha', image_url: 'https://img.example.com/chair.png' },
    { model: 'beta', image_url: 'data:image/png;base64,iVBORw0KGgo=', mode: 'async' },
    { model: 'gamma', image_url: 'http://localhost:8080/api/uploads/abc.png', mode: 'sync' },
    { model: 'alpha-multiview', image_urls: https(2) },
    { model: 'beta-multiview', image_urls: https(4), mode: 'sync' },
    { model: 'beta-text', prompt: 'a ceramic teapot' },
    { model: 'beta-text', prompt: 'x'.repeat(2000) },
    { model: 'alpha', image_url: 'https://x.test/a.png', prompt: 'guidance', extra_field: true },
  ])('accepts %j', (body) => {
    expect(CreateGenerationRequestSchema.safeParse(body).success).toBe(true);
  });

  it.each([
    ['model missing', { image_url: 'https://x.test/a.png' }, 'model', 'missing_field'],
    [
      'unknown model',
      { model: 'omega', image_url: 'https://x.test/a.png' },
      'model',
      'invalid_value',
    ],
    [
      'image_url not a URI',
      { model: 'alpha', image_url: 'chair.png' },
      'image_url',
      'invalid_value',
    ],
    [
      'image_url javascript:',
      { model: 'alpha', image_url: 'javascript:alert(1)' },
      'image_url',
      'invalid_value',
    ],
    [
      'image_url file:',
      { model: 'alpha', image_url: 'file:///etc/passwd' },
      'image_url',
      'invalid_value',
    ],
    ['image_url empty', { model: 'alpha', image_url: '' }, 'image_url', 'invalid_value'],
    ['image_url missing', { model: 'beta' }, 'image_url', 'missing_field'],
    [
      '1 image',
      { model: 'alpha-multiview', image_urls: https(1) },
      'image_urls',
      'invalid_image_count',
    ],
    [
      '5 images',
      { model: 'alpha-multiview', image_urls: https(5) },
      'image_urls',
      'invalid_image_count',
    ],
    [
      'a bad view',
      { model: 'beta-multiview', image_urls: ['https://x.test/a.png', 'nope'] },
      'image_urls[1]',
      'invalid_value',
    ],
    [
      'image_urls on a single-image model',
      { model: 'gamma', image_urls: https(2) },
      'image_urls',
      'unsupported_input',
    ],
    [
      'image_url on a multi-view model',
      { model: 'alpha-multiview', image_url: 'https://x.test/a.png', image_urls: https(2) },
      'image_url',
      'unsupported_input',
    ],
    [
      'image_urls missing on a multi-view model',
      { model: 'beta-multiview' },
      'image_urls',
      'missing_field',
    ],
    ['prompt missing for beta-text', { model: 'beta-text' }, 'prompt', 'missing_field'],
    [
      'prompt blank for beta-text',
      { model: 'beta-text', prompt: '   ' },
      'prompt',
      'missing_field',
    ],
    [
      '2001-character prompt',
      { model: 'beta-text', prompt: 'x'.repeat(2001) },
      'prompt',
      'prompt_too_long',
    ],
    ['prompt not a string', { model: 'beta-text', prompt: 7 }, 'prompt', 'invalid_value'],
    [
      'image on the text model',
      { model: 'beta-text', prompt: 'a', image_url: 'https://x.test/a.png' },
      'image_url',
      'unsupported_input',
    ],
    [
      'a wrong mode',
      { model: 'alpha', image_url: 'https://x.test/a.png', mode: 'now' },
      'mode',
      'invalid_value',
    ],
  ])('rejects %s at %s', (_label, body, param, code) => {
    const r = parseCreateRequest(body);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ type: 'invalid_request_error', param, code });
    expect(r.error.message).toContain(param.replace(/\[\d+\]$/, ''));
  });

  it('rejects a body that is not an object', () => {
    for (const body of [null, [], 'text', 42]) {
      const r = parseCreateRequest(body);
      expect(r.ok).toBe(false);
      // No field to name: `param` is left out (the spec types it as a string, never null).
      if (!r.ok) expect(r.error).not.toHaveProperty('param');
    }
  });

  it.each([
    ['an empty data: URI', 'data:'],
    ['a data: URI with nothing after the comma', 'data:image/png;base64,'],
    ['a data: URI of text', 'data:text/plain,hello'],
  ])('refuses %s at create, before anything is charged', (_label, image_url) => {
    const r = parseCreateRequest({ model: 'alpha', image_url });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatchObject({ param: 'image_url', code: 'invalid_value' });
    if (!r.ok) expect(r.error.message).toMatch(/data: URI without an image/);
  });
});

describe('LIMITS', () => {
  // The one home of the spec's limits (the mock's sync wait, Kiln's own, the client's time
  // limit all read it): its values are the spec's table, section 8.
  it('says what the spec’s table of limits says', () => {
    const spec = readFileSync(
      new URL('../../docs/spec/image-to-3d-api.md', import.meta.url),
      'utf8',
    );
    const row = (limit: string) => new RegExp(`^\\| ${limit} \\| ([^|]+) \\|`, 'm').exec(spec)?.[1];
    expect(row('Blocking wait')).toBe(`${LIMITS.syncWaitMs / 1000} seconds`);
    expect(row('Number of images')).toBe(`${LIMITS.minImages} to ${LIMITS.maxImages}`);
    expect(row('Prompt length')).toBe(`at most ${LIMITS.maxPromptLength} characters`);
    expect(row('Recommended polling interval')).toBe(
      `${LIMITS.pollMinMs / 1000} to ${LIMITS.pollMaxMs / 1000} seconds`,
    );
  });
});
