// The Meshy mock: a Hono app that answers as api.meshy.ai does (README.md says what it implements
// and from which pages), with Kiln's generator making the GLBs.
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { GeneratorInputError, imageToGlb, promptToGlb, viewsToGlb } from '../../generator/index.ts';
import type { Generator } from '../engine-deps.ts';
import { fetchImage as guardedFetch, type ImageFetchPolicy } from '../fetch-image.ts';
import { createRateLimiter } from '../rate-limit.ts';
import { createMeshyEngine, MESHY_SPEEDS, type MeshySpeed } from './engine.ts';
import { assetSigner } from './present.ts';
import { fail, taskRoutes, type KeyEnv } from './routes.ts';
import { createMeshyState } from './state.ts';

/** Demo keys in Meshy's documented format (`msy_` and 35 letters and digits) with their credits. */
export const MESHY_DEMO_KEYS = [
  { key: 'msy_kilnDemoKey000000000000000000000001', balance: 1000 },
  { key: 'msy_kilnPoorKey000000000000000000000002', balance: 10 },
] as const;

const THREE_DAYS_MS = 3 * 24 * 60 * 60 * 1000;

export interface MeshyMockDeps {
  /** 'fast' (about 2 s a task) for tests, 'real' (about a minute) for demos; default 'real'. */
  speed?: keyof typeof MESHY_SPEEDS | MeshySpeed;
  /** Keys and their starting balances; default `MESHY_DEMO_KEYS`. */
  keys?: readonly { key: string; balance: number }[];
  /** Where GLBs come from; default Kiln's generator in this thread (pass a pooled one in a server). */
  generator?: Pick<Generator, 'imageToGlb' | 'viewsToGlb' | 'promptToGlb' | 'isInputError'>;
  /** An image URL's bytes; default `src/mock/fetch-image.ts` (data: URIs, public addresses). */
  fetchImage?: (url: string, signal: AbortSignal) => Promise<Uint8Array>;
  /** Which addresses the default image fetch may reach. */
  imagePolicy?: ImageFetchPolicy;
  now?: () => number;
  /** Requests per second per key before 429 (Meshy: 20); null turns it off. */
  requestsPerSecond?: number | null;
  /** PENDING plus IN_PROGRESS tasks per key before 429 (Meshy Pro: 10). */
  queueTasks?: number;
  /** How long a result's GLB address works after the task ends (Meshy keeps assets 3 days). */
  retentionMs?: number;
}

export interface MeshyMock {
  /** Mount at the root of a host, or under any prefix: routes are `/openapi/…`. */
  app: Hono<KeyEnv>;
  /** The mock's ledger: a key's credits now (undefined for an unknown key). */
  balanceOf(key: string): number | undefined;
  /** Stops tasks under way (they are forgotten, as all state is on close). */
  close(): Promise<void>;
}

const inThread: NonNullable<MeshyMockDeps['generator']> = {
  imageToGlb: (image) => imageToGlb(image),
  viewsToGlb: (images) => viewsToGlb(images),
  promptToGlb: (prompt) => promptToGlb(prompt),
  isInputError: (err) => err instanceof GeneratorInputError,
};

export function createMeshyMock(deps: MeshyMockDeps = {}): MeshyMock {
  const now = deps.now ?? Date.now;
  const state = createMeshyState(deps.keys ?? MESHY_DEMO_KEYS);
  const speed = typeof deps.speed === 'object' ? deps.speed : MESHY_SPEEDS[deps.speed ?? 'real'];
  const engine = createMeshyEngine({
    state,
    generator: deps.generator ?? inThread,
    fetchImage:
      deps.fetchImage ?? ((url, signal) => guardedFetch(url, { signal, ...deps.imagePolicy })),
    speed,
    now,
  });
  const retention = deps.retentionMs ?? THREE_DAYS_MS;
  const signer = assetSigner(randomBytes(32), (t) => t.finishedAt + retention);
  const rps = deps.requestsPerSecond === undefined ? 20 : deps.requestsPerSecond;
  const limiter = createRateLimiter(rps ? { limit: rps, windowMs: 1000 } : null, now);

  const app = new Hono<KeyEnv>();
  app.get('/mock-assets/:file', (c) => {
    const id = c.req.param('file').replace(/\.glb$/, '');
    const expires = c.req.query('Expires') ?? '';
    const task = state.task(id);
    if (!task?.glb || !signer.verify(id, expires, c.req.query('Signature') ?? ''))
      return c.text('Access denied', 403);
    if (Number(expires) * 1000 <= now()) return c.text('Request has expired', 403);
    return c.body(new Uint8Array(task.glb), 200, { 'content-type': 'model/gltf-binary' });
  });
  app.use('/openapi/*', async (c, next) => {
    const key = /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    if (state.balance(key) === undefined)
      return c.json({ message: 'No valid API key provided.' }, 401);
    const waitMs = limiter.take(key);
    if (waitMs > 0) {
      c.header('Retry-After', String(Math.ceil(waitMs / 1000)));
      return fail(c, 429, 'RateLimitExceeded');
    }
    c.set('key', key);
    await next();
  });
  app.get('/openapi/v1/balance', (c) => c.json({ balance: state.balance(c.get('key')) ?? 0 }));
  app.route('/', taskRoutes({ state, engine, signer, now, queueTasks: deps.queueTasks ?? 10 }));
  app.all('*', (c) => fail(c, 404, 'NoMatchingRoute'));
  return { app, balanceOf: (key) => state.balance(key), close: () => engine.close() };
}
