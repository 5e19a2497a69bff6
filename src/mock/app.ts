import { Hono } from 'hono';
import { ERROR_CODES, LIMITS } from '../contract/index.ts';
import { ApiError, onApiError } from '../http/index.ts';
import { apiKeyAuth, type KeyEnv } from './auth.ts';
import { createTaskEngine, type Generator, type TaskEngine } from './engine.ts';
import { fetchImage as defaultFetchImage, type ImageFetchPolicy } from './fetch-image.ts';
import { memoryInputs, type InputFiles } from './inputs.ts';
import { hashKey, type KeyGrant } from './keys.ts';
import type { ModelFiles } from './model-files.ts';
import { inputCheckRoutes } from './input-check.ts';
import { promptKnowledgeRoutes } from './prompt-knowledge.ts';
import { createRateLimiter, type RateLimit } from './rate-limit.ts';
import { fileRoutes } from './routes/files.ts';
import { generationRoutes } from './routes/generations.ts';
import { modelRoutes } from './routes/models.ts';
import { taskRoutes } from './routes/tasks.ts';
import type { SpeedProfile } from './speed.ts';
import type { MockStore } from './store.ts';

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
  /** How long a sync create blocks at most (default: the spec's, `LIMITS.syncWaitMs`). */
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
  app: Hono<KeyEnv>;
  engine: TaskEngine;
  /** Resolves once keys are granted and left-over tasks resumed. */
  ready: Promise<void>;
  /**
   * A key's balance now (undefined for a key the mock does not know). Not part of the API, which
   * has no balance call: Kiln asks it in-process, in mock mode, to show a balance before the
   * first task has stated one (issue 32, item 10).
   */
  balanceOf(key: string): Promise<number | undefined>;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

/**
 * The mock upstream: the task engine, and the v1 routes by resource (`routes/`) behind the key
 * check (`auth.ts`), every error in the spec's body (`src/http`'s ApiError and onApiError).
 */
export function createMockApp(deps: MockAppDeps): MockApp {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => {});
  const inputs = deps.inputs ?? memoryInputs();
  const fetchImage =
    deps.fetchImage ?? ((url, signal) => defaultFetchImage(url, { signal, ...deps.imagePolicy }));
  const engine = createTaskEngine({
    store: deps.store,
    files: deps.files,
    inputs,
    generator: deps.generator,
    fetchImage,
    speed: deps.speed,
    now,
    log,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  });
  const ready = (async () => {
    await deps.store.grantKeys(deps.keys, now());
    await engine.resumePending();
  })();

  const app = new Hono<KeyEnv>();
  app.onError(
    onApiError(log, {
      internalMessage: 'The server had an internal error. Try again.',
      logPrefix: 'mock: unhandled ',
    }),
  );
  // No key needed: the model files (spec 2.1), and the mock-only prompt check.
  app.route('/', fileRoutes(deps.files));
  app.route('/', promptKnowledgeRoutes());
  // Bearer auth and the per-key rate limit, for everything after.
  const limiter = createRateLimiter(deps.rateLimit === undefined ? null : deps.rateLimit, now);
  app.use('*', apiKeyAuth({ ready, store: deps.store, limiter }));
  app.route('/', modelRoutes());
  app.route(
    '/',
    generationRoutes({
      store: deps.store,
      engine,
      inputs,
      now,
      syncWaitMs: deps.syncWaitMs ?? LIMITS.syncWaitMs,
      maxBodyBytes: deps.maxBodyBytes ?? MAX_BODY_BYTES,
    }),
  );
  app.route('/', taskRoutes(deps.store));
  app.route('/', inputCheckRoutes({ generator: deps.generator, fetchImage }));
  // A catch-all rather than notFound(): a sub-app's notFound is not used when it is mounted with route().
  app.all('*', (c) => {
    throw new ApiError(404, {
      code: ERROR_CODES.routeNotFound,
      message: `No route ${c.req.method} ${c.req.path}.`,
    });
  });

  return {
    app,
    engine,
    ready,
    async balanceOf(key) {
      await ready;
      return (await deps.store.account(hashKey(key)))?.balance;
    },
    async close() {
      await ready.catch(() => {});
      await engine.close();
    },
  };
}
