import { createHash, randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  canonicalJson,
  ERROR_CODES,
  ERROR_TYPES,
  IDEMPOTENCY_KEY_PROBLEM,
  IDEMPOTENCY_KEY_RE,
  MODEL_ALIASES,
  MODEL_INPUT,
  STAGES,
  parseCreateRequest,
  type CompletedTask,
  type ErrorObject,
  type ModelList,
  type PendingTask,
  type Task,
} from '../contract/index.ts';
import { createTaskEngine, type Generator, type TaskEngine } from './engine.ts';
import {
  decodeDataUri,
  fetchImage as defaultFetchImage,
  type ImageFetchPolicy,
} from './fetch-image.ts';
import { memoryInputs, refOf, type InputFiles } from './inputs.ts';
import { hashKey, type KeyGrant } from './keys.ts';
import type { ModelFiles } from './model-files.ts';
import { CREDITS_PER_TASK, MODEL_DESCRIPTIONS } from './pricing.ts';
import { promptKnowledgeRoutes } from './prompt-knowledge.ts';
import { createRateLimiter, type RateLimit } from './rate-limit.ts';
import type { SpeedProfile } from './speed.ts';
import type { MockStore, StoredRequest, TaskRow } from './store.ts';

export interface MockAppDeps {
  store: MockStore;
  files: ModelFiles;
  /** Inline (data: URI) input images, kept until their task ends. Default: in memory. */
  inputs?: InputFiles;
  generator: Generator;
  keys: readonly KeyGrant[];
  speed: SpeedProfile;
  /** Per key, over every endpoint; null turns it off. */
  rateLimit?: RateLimit | null;
  /** How long a sync create blocks at most (the spec's 55 s). */
  syncWaitMs?: number;
  now?: () => number;
  fetchImage?: (url: string, signal: AbortSignal) => Promise<Uint8Array>;
  /** Which addresses the default image fetch may reach (ignored when `fetchImage` is given). */
  imagePolicy?: ImageFetchPolicy;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  log?: (message: string) => void;
  /** Largest create body accepted (data: URIs make bodies big). */
  maxBodyBytes?: number;
}

export interface MockApp {
  /** Routes relative to the v1 base: mount it at `/v1` or `/mock/v1`. */
  app: Hono<MockEnv>;
  engine: TaskEngine;
  /** Resolves once keys are granted and left-over tasks resumed. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export type MockEnv = { Variables: { keyHash: string } };

const SYNC_WAIT_MS = 55_000;
/** How long an Idempotency-Key is remembered (Stripe keeps them a day). */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** `application/json`, with or without parameters, or any `+json` type. */
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

export function createMockApp(deps: MockAppDeps): MockApp {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => {});
  const inputs = deps.inputs ?? memoryInputs();
  const engine = createTaskEngine({
    store: deps.store,
    files: deps.files,
    inputs,
    generator: deps.generator,
    fetchImage:
      deps.fetchImage ?? ((url, signal) => defaultFetchImage(url, { signal, ...deps.imagePolicy })),
    speed: deps.speed,
    now,
    log,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  });
  const limiter = createRateLimiter(deps.rateLimit === undefined ? null : deps.rateLimit, now);
  const syncWaitMs = deps.syncWaitMs ?? SYNC_WAIT_MS;
  const ready = (async () => {
    await deps.store.grantKeys(deps.keys, now());
    await engine.resumePending();
  })();

  const app = new Hono<MockEnv>();
  const knownKeys = new Set<string>();
  const fail = (c: Context, status: ContentfulStatusCode, error: ErrorObject) =>
    c.json({ error }, status);

  app.onError((err, c) => {
    log(`mock: unhandled error on ${c.req.method} ${c.req.path}: ${String(err)}`);
    return fail(c, 500, {
      message: 'The server had an internal error. Try again.',
      type: ERROR_TYPES.api,
      code: ERROR_CODES.internal,
    });
  });
  // The GLB behind data.model_url: no Authorization needed (spec 2.1). Unguessable task ids.
  app.get('/files/:file{[A-Za-z0-9_-]+\\.glb}', async (c) => {
    const id = c.req.param('file').replace(/\.glb$/, '');
    const glb = await deps.files.read(id);
    if (!glb)
      return fail(c, 404, {
        message: 'No model file here.',
        type: ERROR_TYPES.notFound,
        code: ERROR_CODES.fileNotFound,
      });
    return c.body(glb as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': 'model/gltf-binary',
      'Content-Length': String(glb.byteLength),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Disposition': `inline; filename="${id}.glb"`,
    });
  });

  // Mock-only (not in the spec): what the demo generator understands of a prompt. No key.
  app.route('/', promptKnowledgeRoutes());

  // Bearer auth and the per-key rate limit, for everything else.
  app.use('*', async (c, next) => {
    await ready;
    const header = c.req.header('authorization');
    if (!header)
      return fail(c, 401, {
        message: 'No API key. Send it as "Authorization: Bearer tr_…".',
        type: ERROR_TYPES.authentication,
        code: ERROR_CODES.missingApiKey,
      });
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const key = match?.[1];
    if (!key || !key.startsWith('tr_'))
      return fail(c, 401, {
        message:
          'The Authorization header must be "Bearer " followed by an API key starting with tr_.',
        type: ERROR_TYPES.authentication,
        code: ERROR_CODES.invalidApiKey,
      });
    const keyHash = hashKey(key);
    // Accounts are never removed: a key seen once is known for good.
    if (!knownKeys.has(keyHash) && (await deps.store.account(keyHash))) knownKeys.add(keyHash);
    if (!knownKeys.has(keyHash))
      return fail(c, 401, {
        message: 'This API key is not valid. Check it in your account settings under API keys.',
        type: ERROR_TYPES.authentication,
        code: ERROR_CODES.invalidApiKey,
      });
    const waitMs = limiter.take(keyHash);
    if (waitMs > 0) {
      c.header('Retry-After', String(Math.max(1, Math.ceil(waitMs / 1000))));
      return fail(c, 429, {
        message: `Too many requests for this API key. Try again in ${Math.max(1, Math.ceil(waitMs / 1000))} s.`,
        type: ERROR_TYPES.rateLimit,
        code: ERROR_CODES.rateLimited,
      });
    }
    c.set('keyHash', keyHash);
    await next();
  });

  app.get('/models', (c) => {
    const list: ModelList = {
      object: 'list',
      data: MODEL_ALIASES.map((id) => ({
        id,
        object: 'model',
        input: MODEL_INPUT[id],
        credits_per_task: CREDITS_PER_TASK[id],
        description: MODEL_DESCRIPTIONS[id],
      })),
    };
    return c.json(list);
  });

  app.post(
    '/3d/generations',
    bodyLimit({
      maxSize: deps.maxBodyBytes ?? 32 * 1024 * 1024,
      onError: (c) =>
        fail(c, 413, {
          message: 'The request body is too large.',
          type: ERROR_TYPES.invalidRequest,
          code: ERROR_CODES.bodyTooLarge,
        }),
    }),
    async (c) => {
      const idem = c.req.header('idempotency-key');
      if (idem !== undefined && !IDEMPOTENCY_KEY_RE.test(idem))
        return fail(c, 400, {
          message: IDEMPOTENCY_KEY_PROBLEM,
          type: ERROR_TYPES.invalidRequest,
          code: ERROR_CODES.invalidValue,
          param: 'Idempotency-Key',
        });
      if (!JSON_TYPE.test(c.req.header('content-type') ?? ''))
        return fail(c, 415, {
          message: 'Send the request body as JSON, with "Content-Type: application/json".',
          type: ERROR_TYPES.invalidRequest,
          code: ERROR_CODES.unsupportedMediaType,
        });
      const text = await c.req.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return fail(c, 400, {
          message: 'The request body is not valid JSON.',
          type: ERROR_TYPES.invalidRequest,
          code: ERROR_CODES.invalidJson,
        });
      }
      const parsed = parseCreateRequest(body);
      if (!parsed.ok) return fail(c, 400, parsed.error);
      const req = parsed.value;
      const inline = inlineImages(req);
      if (!inline.ok) return fail(c, 400, inline.error);
      const keyHash = c.get('keyHash');
      const nowMs = now();
      const created = await deps.store.createTask({
        id: `task_${randomBytes(12).toString('hex')}`,
        keyHash,
        model: req.model,
        request: inline.request,
        mode: req.mode ?? 'async',
        price: CREDITS_PER_TASK[req.model],
        created: Math.floor(nowMs / 1000),
        stage: STAGES[0].label,
        ...(idem !== undefined && {
          idempotency: {
            key: idem,
            bodySha256: createHash('sha256').update(canonicalJson(text)).digest('hex'),
            sinceMs: nowMs - IDEMPOTENCY_WINDOW_MS,
            nowMs,
          },
        }),
      });
      if (!created.ok) {
        if (created.reason === 'insufficient_credits')
          return fail(c, 402, {
            message: `Not enough credits: ${req.model} costs ${created.price} credits and the balance is ${created.balance}.`,
            type: ERROR_TYPES.insufficientCredits,
            code: ERROR_CODES.insufficientCredits,
          });
        if (created.reason === 'idempotency_mismatch')
          return fail(c, 409, {
            message:
              'This Idempotency-Key was already used with a different request body. Use a new key for a new task.',
            type: ERROR_TYPES.invalidRequest,
            code: ERROR_CODES.idempotencyKeyReused,
            param: 'Idempotency-Key',
          });
        // A repeat: the first answer, or (while a sync create still waits) the same wait.
        c.header('Idempotent-Replayed', 'true');
        if (created.response)
          return c.body(created.response.json, created.response.status as ContentfulStatusCode, {
            'content-type': 'application/json',
          });
        return answer(c, created.task, req.mode === 'sync');
      }
      // Kept only once the task exists: a refused create (402, 409, a replay) leaves nothing.
      for (const bytes of inline.blobs) await inputs.put(bytes);
      engine.start(created.task);
      const res = await answer(c, created.task, req.mode === 'sync');
      if (idem !== undefined)
        await deps.store.saveIdempotentResponse(
          keyHash,
          idem,
          res.status,
          await res.clone().text(),
        );
      return res;
    },
  );

  /** The answer to a create: the pending shape, or after a sync wait, the task as it stands. */
  async function answer(c: Context, task: TaskRow, sync: boolean): Promise<Response> {
    if (sync) {
      await engine.settled(task.id, syncWaitMs, c.req.raw.signal);
      const now = await deps.store.task(task.id);
      if (now && now.status !== 'pending') return c.json(await present(c, now), 200);
    }
    const pending: PendingTask = {
      id: task.id,
      object: 'task',
      status: 'pending',
      created: task.created,
      data: null,
    };
    return c.json(pending, 202);
  }

  /**
   * The request as the engine needs it: each inline image (data: URI) decoded once and referred to
   * by its content (`input:sha256`), so the task row stays small and a poll costs the same
   * whatever was sent. One that cannot be decoded (malformed, over the size limit) is a 400 that
   * names the field, before anything is charged.
   */
  function inlineImages(req: {
    image_url?: string | undefined;
    image_urls?: string[] | undefined;
    prompt?: string | undefined;
  }):
    { ok: true; request: StoredRequest; blobs: Uint8Array[] } | { ok: false; error: ErrorObject } {
    const blobs: Uint8Array[] = [];
    let problem: ErrorObject | undefined;
    const keep = (url: string, param: string) => {
      if (!url.startsWith('data:') || problem) return url;
      try {
        const bytes = decodeDataUri(url, param);
        blobs.push(bytes);
        return refOf(bytes);
      } catch (err) {
        problem = {
          message: err instanceof Error ? err.message : `${param} could not be decoded.`,
          type: ERROR_TYPES.invalidRequest,
          code: ERROR_CODES.invalidValue,
          param,
        };
        return url;
      }
    };
    const request: StoredRequest = {
      ...(req.image_url !== undefined && { image_url: keep(req.image_url, 'image_url') }),
      ...(req.image_urls !== undefined && {
        image_urls: req.image_urls.map((u, i) => keep(u, `image_urls[${i}]`)),
      }),
      ...(req.prompt !== undefined && { prompt: req.prompt }),
    };
    return problem ? { ok: false, error: problem } : { ok: true, request, blobs };
  }

  app.get('/tasks/:id', async (c) => {
    const id = c.req.param('id');
    const task = await deps.store.task(id);
    if (!task || task.keyHash !== c.get('keyHash'))
      return fail(c, 404, {
        message: `No task with id ${JSON.stringify(id.slice(0, 100))}.`,
        type: ERROR_TYPES.notFound,
        code: ERROR_CODES.taskNotFound,
        param: 'taskId',
      });
    return c.json(await present(c, task));
  });

  // A catch-all rather than notFound(): a sub-app's notFound is not used when it is mounted with route().
  app.all('*', (c) =>
    fail(c, 404, {
      message: `No route ${c.req.method} ${c.req.path}.`,
      type: ERROR_TYPES.notFound,
      code: ERROR_CODES.routeNotFound,
    }),
  );

  /** The spec's task shape; model_url points back at this mock, wherever it is mounted. */
  async function present(c: Context, task: TaskRow): Promise<Task> {
    const base: Task = {
      id: task.id,
      object: '3d.generation',
      status: task.status,
      progress: task.progress,
      progress_stage: task.progressStage,
      created: task.created,
      data: null,
    };
    if (task.status === 'failed')
      return { ...base, error: task.error ?? { message: 'The task failed.' } };
    if (task.status !== 'completed') return base;
    const account =
      task.creditsRemaining === null ? await deps.store.account(task.keyHash) : undefined;
    const url = new URL(c.req.url);
    const root = url.pathname.replace(/\/(3d\/generations|tasks\/[^/]+)$/, '');
    const completed: CompletedTask = {
      ...base,
      object: '3d.generation',
      status: 'completed',
      created: task.created,
      completed_at: task.completedAt ?? task.created,
      data: {
        model_url: `${url.origin}${root}/files/${task.id}.glb`,
        format: 'glb',
        model: task.model,
      },
      usage: {
        credits_consumed: task.credits,
        // The balance right after this task's charge, frozen on the task (older rows: the current one).
        credits_remaining: task.creditsRemaining ?? account?.balance ?? 0,
      },
    };
    return completed;
  }

  return {
    app,
    engine,
    ready,
    async close() {
      await ready.catch(() => {});
      await engine.close();
    },
  };
}
