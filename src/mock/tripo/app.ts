// The Tripo mock: Tripo's v2 OpenAPI as its documentation describes it (README.md), at
// `/v2/openapi/*`, with the tasks' result files at `/files/*` beside it. State is in memory.
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import {
  fetchImage as guardedFetch,
  ImageFetchError,
  type ImageFetchPolicy,
} from '../fetch-image.ts';
import type { KeyGrant } from '../keys.ts';
import {
  CONCURRENCY_LIMIT,
  ERRORS,
  RESULT_TTL_MS,
  TRIPO_DEMO_KEYS,
  TRIPO_SPEEDS,
  type ErrorCode,
  type TripoTimings,
} from './catalogue.ts';
import { makeGlb, type GlbMaker, type TripoGenerator } from './generate.ts';
import { presentTask, type PresentContext } from './present.ts';
import { parseCreate, triggerOf } from './requests.ts';
import { TripoTasks, type TaskRecord, type TripoLedger } from './tasks.ts';

export { TRIPO_DEMO_KEYS } from './catalogue.ts';

export interface TripoMockDeps {
  /** Kiln's generator (src/mock/create.ts's `pooledGenerator(createGeneratorPool())`). */
  generator: TripoGenerator;
  /** Keys and their starting credits; TRIPO_DEMO_KEYS by default. */
  keys?: readonly KeyGrant[];
  /** `fast` (a task in about 2 s, for tests), `real` (about 45 s, for demos), or timings. */
  speed?: keyof typeof TRIPO_SPEEDS | TripoTimings;
  now?: () => number;
  /** Which private origins the default image fetch may reach (Kiln's own, PUBLIC_URL). */
  imagePolicy?: ImageFetchPolicy;
  /** How an image URL's bytes are had; src/mock's guarded fetch (with `imagePolicy`) by default. */
  fetchImage?: (url: string, signal: AbortSignal) => Promise<Uint8Array>;
  /** How long a result address works after the task succeeds; 5 minutes by default. */
  resultTtlMs?: number;
  /** Tasks queued or running per key before 429 (code 2000); 10 by default. */
  concurrency?: number;
}

export interface TripoMock {
  app: Hono;
  /** A key's credits as the mock holds them (tests compare Kiln's figures with it). */
  ledger(key: string): TripoLedger | undefined;
  close(): Promise<void>;
}

type Vars = { Variables: { key: string } };

interface MockContext extends PresentContext {
  uploads: Map<string, { key: string; bytes: Uint8Array }>;
  concurrency: number;
  generate: (task: TaskRecord) => void;
}

function fail(c: Context, code: ErrorCode, headers: Record<string, string> = {}) {
  const [status, message, suggestion] = ERRORS[code];
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  return c.json({ code, message, suggestion }, status);
}

/** Where the app is mounted: everything of the request's URL before `/v2/openapi`. */
function mountOf(c: Context): string {
  const url = c.req.url;
  const at = url.indexOf('/v2/openapi');
  return at >= 0 ? url.slice(0, at) : new URL(url).origin;
}

/** PNG, JPEG or WebP, by their first bytes (the upload docs accept these three). */
function isImage(b: Uint8Array): boolean {
  const text = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  const png = b[0] === 0x89 && text(1, 4) === 'PNG';
  const jpeg = b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
  return png || jpeg || (text(0, 4) === 'RIFF' && text(8, 12) === 'WEBP');
}

/** Runs each untriggered task's generation in the background; `close` waits for them. */
function generations(deps: TripoMockDeps, now: () => number) {
  const closing = new AbortController();
  const running = new Set<Promise<void>>();
  const maker: GlbMaker = {
    generator: deps.generator,
    fetchImage:
      deps.fetchImage ?? ((url, signal) => guardedFetch(url, { ...deps.imagePolicy, signal })),
  };
  const generate = (task: TaskRecord) => {
    const job = makeGlb(maker, task.input, closing.signal).then(
      (glb) => {
        task.glb = glb;
        task.glbReadyMs = now();
      },
      (err: unknown) => {
        const said = deps.generator.isInputError(err) || err instanceof ImageFetchError;
        task.glbError = said && err instanceof Error ? err.message : 'The model could not be made.';
      },
    );
    running.add(job);
    void job.finally(() => running.delete(job));
  };
  const close = async () => {
    closing.abort();
    await Promise.allSettled([...running]);
  };
  return { generate, close };
}

function uploadRoute(app: Hono<Vars>, ctx: MockContext) {
  app.post('/v2/openapi/upload', async (c) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const file = form['file'];
    if (!(file instanceof File) || file.size === 0) return fail(c, 2003);
    if (file.size > 20 * 1024 * 1024) return fail(c, 1004);
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (!isImage(bytes)) return fail(c, 2004);
    const token = randomUUID();
    ctx.uploads.set(token, { key: c.var.key, bytes });
    return c.json({ code: 0, data: { image_token: token } });
  });
}

function createRoute(app: Hono<Vars>, ctx: MockContext) {
  app.post('/v2/openapi/task', async (c) => {
    const key = c.var.key;
    const raw: unknown = await c.req.json().catch(() => undefined);
    if (raw === undefined) return fail(c, 1003);
    const parsed = parseCreate(raw, (token) => {
      const upload = ctx.uploads.get(token);
      return upload?.key === key ? upload.bytes : undefined;
    });
    if ('refuse' in parsed) return fail(c, parsed.refuse);
    if (parsed.triggerText.includes('mock:500')) return fail(c, 1000);
    const t = ctx.now();
    const active = ctx.tasks.active(key, t);
    if (parsed.triggerText.includes('mock:429') || active.count >= ctx.concurrency) {
      const wait = Number.isFinite(active.nextEndMs) ? (active.nextEndMs - t) / 1000 : 1;
      return fail(c, 2000, { 'Retry-After': String(Math.max(1, Math.ceil(wait))) });
    }
    const trigger = triggerOf(parsed.triggerText);
    const task = ctx.tasks.create({ ...parsed, key, trigger }, t);
    if (!task) return fail(c, 2010);
    if (!trigger) ctx.generate(task);
    return c.json({ code: 0, data: { task_id: task.id } });
  });
}

function readRoutes(app: Hono<Vars>, ctx: MockContext) {
  app.get('/v2/openapi/task/:id', (c) => {
    const task = ctx.tasks.get(c.var.key, c.req.param('id'), ctx.now());
    return task ? c.json({ code: 0, data: presentTask(ctx, task, mountOf(c)) }) : fail(c, 2001);
  });
  app.get('/v2/openapi/user/balance', (c) => {
    const ledger = ctx.tasks.ledger(c.var.key, ctx.now());
    return c.json({ code: 0, data: { balance: ledger?.balance, frozen: ledger?.frozen } });
  });
  // The result address, as a signed storage URL: no key, and refused once its time is past.
  app.get('/files/:id/:file', (c) => {
    const task = ctx.tasks.byId(c.req.param('id'));
    const expires = Number(c.req.query('Expires'));
    const glb = task?.final?.status === 'success' ? task.glb : undefined;
    if (!task || !glb || c.req.param('file') !== `${task.signature}.glb`) {
      return c.text('NoSuchKey', 404);
    }
    if (!(ctx.now() <= expires * 1000)) return c.text('AccessDenied: Request has expired', 403);
    return c.body(new Uint8Array(glb), 200, { 'Content-Type': 'model/gltf-binary' });
  });
}

export function createTripoMock(deps: TripoMockDeps): TripoMock {
  const now = deps.now ?? Date.now;
  const timings = typeof deps.speed === 'object' ? deps.speed : TRIPO_SPEEDS[deps.speed ?? 'fast'];
  const tasks = new TripoTasks(deps.keys ?? TRIPO_DEMO_KEYS, timings);
  const background = generations(deps, now);
  const ctx: MockContext = {
    tasks,
    timings,
    now,
    ttlMs: deps.resultTtlMs ?? RESULT_TTL_MS,
    uploads: new Map(),
    concurrency: deps.concurrency ?? CONCURRENCY_LIMIT,
    generate: background.generate,
  };
  const app = new Hono<Vars>();
  app.use('*', async (c, next) => {
    c.header('X-Tripo-Trace-ID', randomUUID());
    await next();
  });
  app.use('/v2/openapi/*', async (c, next) => {
    const key = /^Bearer (\S+)$/.exec(c.req.header('Authorization') ?? '')?.[1];
    if (!key || !tasks.knows(key)) return fail(c, 1002);
    c.set('key', key);
    await next();
  });
  uploadRoute(app, ctx);
  createRoute(app, ctx);
  readRoutes(app, ctx);
  const root = new Hono();
  root.route('/', app);
  return { app: root, ledger: (key) => tasks.ledger(key, now()), close: background.close };
}
