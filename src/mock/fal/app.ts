// A faithful mock of fal's queue API (queue.fal.run) and of its Platform API's billing call
// (api.fal.ai/v1/account/billing), for the fal endpoints Kiln offers. Everything is in memory:
// requests, balances and generated files live as long as the app does. See README.md.
import { Hono, type Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { createLimiter, sleep as abortableSleep } from '../../async/index.ts';
import { fetchImage as guardedFetchImage, type ImageFetchPolicy } from '../fetch-image.ts';
import { FAL_DEMO_KEYS, keyOf, usd, type FalMockKey } from './keys.ts';
import { modelById } from './models.ts';
import {
  FAL_SPEEDS,
  newRequest,
  queuePosition,
  runRequest,
  type FalMockGenerator,
  type FalRequest,
  type RunnerDeps,
  type StoredFile,
} from './queue.ts';

export { FAL_DEMO_KEYS } from './keys.ts';

export interface FalMockDeps {
  /** Kiln's generator (src/generator's pool, or a fake in tests). */
  generator: FalMockGenerator;
  /** `fast` (a task in a couple of seconds, for tests) or `real` (about half a minute). */
  speed?: keyof typeof FAL_SPEEDS;
  /** The accounts; default FAL_DEMO_KEYS. */
  keys?: readonly FalMockKey[];
  now?: () => number;
  /**
   * Where the mock is reached, for the `*_url` fields and file addresses it answers with (its
   * mount point included). Default: the origin each request came to.
   */
  baseUrl?: string;
  /** Where it is mounted on the origin a request came to (`/mock/fal` in Kiln), when no baseUrl. */
  mountPath?: string;
  /** Requests IN_PROGRESS at once; the rest wait IN_QUEUE with their place. Default 2. */
  concurrency?: number;
  /** Submits per minute per key before a 429 with Retry-After; 0 (the default) for no limit. */
  submitsPerMinute?: number;
  /** The input images' bytes. Default: data: URIs, and public http(s) through src/net's guard. */
  fetchImage?: (url: string, signal: AbortSignal) => Promise<Uint8Array>;
  /** Which private origins the default fetch may reach (Kiln's own). */
  imagePolicy?: ImageFetchPolicy;
}

export interface FalMock {
  /** Queue routes at `/{model id}…`, billing at `/v1/account/billing`, files at `/files/…`. */
  app: Hono;
  /** A key's balance in USD now, from the mock's ledger (undefined for an unknown key). */
  balanceOf(key: string): number | undefined;
  /** Stops every request in flight. */
  close(): Promise<void>;
}

type Account = { balance: number; admin: boolean; username: string };

const UNAUTHORIZED = { detail: 'No user found for Key ID and Secret' };
const LOCKED = {
  detail:
    'User is locked. Reason: Exhausted balance. Top up your balance at fal.ai/dashboard/billing.',
};
const RETRY_AFTER_S = 2;

export function createFalMock(deps: FalMockDeps): FalMock {
  const accounts = new Map<string, Account>(
    (deps.keys ?? FAL_DEMO_KEYS).map((k) => [k.key, { ...k }]),
  );
  const requests = new Map<string, FalRequest>();
  const files = new Map<string, StoredFile>();
  const abort = new AbortController();
  const running = new Set<Promise<void>>();
  const now = deps.now ?? Date.now;
  const imageBytes =
    deps.fetchImage ??
    ((url: string, signal: AbortSignal) => guardedFetchImage(url, { ...deps.imagePolicy, signal }));
  const runner: Omit<RunnerDeps, 'baseUrl'> = {
    now,
    speed: FAL_SPEEDS[deps.speed ?? 'fast'],
    slots: createLimiter(deps.concurrency ?? 2),
    generator: deps.generator,
    imageBytes,
    files,
    charge(key, amount) {
      const account = accounts.get(key);
      if (account) account.balance = usd(account.balance - amount);
    },
    sleep: abortableSleep,
  };
  const ctx: RouteContext = {
    accounts,
    requests,
    now,
    baseUrl: (c) => deps.baseUrl ?? `${new URL(c.req.url).origin}${deps.mountPath ?? ''}`,
    limiter: submitLimiter(deps.submitsPerMinute ?? 0, now),
    start(req, baseUrl) {
      const run = runRequest({ ...runner, baseUrl }, req, abort.signal);
      running.add(run);
      void run.finally(() => running.delete(run));
    },
  };
  const app = new Hono();
  fileRoutes(app, files, now);
  billingRoutes(app, ctx);
  queueRoutes(app, ctx);
  return {
    app,
    balanceOf: (key) => accounts.get(key)?.balance,
    async close() {
      abort.abort();
      await Promise.allSettled([...running]);
    },
  };
}

interface RouteContext {
  accounts: Map<string, Account>;
  requests: Map<string, FalRequest>;
  now: () => number;
  baseUrl: (c: Context) => string;
  /** True when this key may submit now. */
  limiter: (key: string) => boolean;
  start(req: FalRequest, baseUrl: string): void;
}

/** The account an `Authorization: Key …` header names, or the 401 fal answers. */
function authenticate(c: Context, ctx: RouteContext): [string, Account] | Response {
  const key = keyOf(c.req.header('authorization'));
  const account = key === undefined ? undefined : ctx.accounts.get(key);
  if (key === undefined || !account) return c.json(UNAUTHORIZED, 401);
  return [key, account];
}

/** fal's CDN: generated files are public, until their lifecycle ends. */
function fileRoutes(app: Hono, files: Map<string, StoredFile>, now: () => number) {
  app.get('/files/:token/:name', (c) => {
    const file = files.get(c.req.param('token'));
    if (!file || (file.expiresMs !== null && now() >= file.expiresMs)) {
      return c.json({ detail: 'File not found' }, 404);
    }
    return c.body(Buffer.from(file.bytes), 200, { 'content-type': 'model/gltf-binary' });
  });
}

/** The Platform API's account billing (ADMIN keys only); `?expand=credits` adds the balance. */
function billingRoutes(app: Hono, ctx: RouteContext) {
  app.get('/v1/account/billing', (c) => {
    const auth = authenticate(c, ctx);
    if (auth instanceof Response) return auth;
    const [, account] = auth;
    if (!account.admin) return c.json({ detail: 'This endpoint requires an ADMIN API key.' }, 403);
    const expand = c.req.queries('expand') ?? [];
    const credits = expand.some((e) => e.split(',').includes('credits'));
    return c.json({
      username: account.username,
      ...(credits ? { credits: { current_balance: account.balance, currency: 'USD' } } : {}),
    });
  });
}

function queueRoutes(app: Hono, ctx: RouteContext) {
  app.get('/:owner/:alias/requests/:id/status', (c) => statusRoute(c, ctx));
  app.get('/:owner/:alias/requests/:id', (c) => resultRoute(c, ctx));
  app.put('/:owner/:alias/requests/:id/cancel', (c) => cancelRoute(c, ctx));
  app.post('/:owner/:alias/*', (c) => submitRoute(c, ctx));
  app.post('/:owner/:alias', (c) => submitRoute(c, ctx));
}

/** The three URLs fal answers a submit (and each status) with: on the app id, no subpath. */
function urlsOf(req: FalRequest, baseUrl: string) {
  const app = req.model.id.split('/').slice(0, 2).join('/');
  const response = `${baseUrl}/${app}/requests/${req.id}`;
  return {
    response_url: response,
    status_url: `${response}/status`,
    cancel_url: `${response}/cancel`,
  };
}

async function submitRoute(c: Context, ctx: RouteContext): Promise<Response> {
  const auth = authenticate(c, ctx);
  if (auth instanceof Response) return auth;
  const [key, account] = auth;
  const modelId = endpointOf(c);
  const model = modelById(modelId);
  if (!model) return c.json({ detail: `Application '${modelId}' not found` }, 404);
  const input = await c.req.json<unknown>().catch(() => undefined);
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return c.json(
      { detail: [{ loc: ['body'], msg: 'Input should be a valid dictionary', type: 'dict_type' }] },
      422,
    );
  }
  const body = input as Record<string, unknown>;
  const text = JSON.stringify(body);
  if (text.includes('mock:429') || !ctx.limiter(key)) {
    return c.json({ detail: 'Too many requests' }, 429, { 'retry-after': String(RETRY_AFTER_S) });
  }
  if (text.includes('mock:500')) {
    return c.json({ detail: 'Internal server error', error_type: 'internal_error' }, 500);
  }
  if (account.balance <= 0) return c.json(LOCKED, 403);
  const problem = model.images(body);
  if (!Array.isArray(problem)) {
    return c.json(
      { detail: [{ loc: ['body', problem.field], msg: problem.msg, type: problem.type }] },
      422,
    );
  }
  const req = newRequest(key, model, body, ctx.now(), lifecycleOf(c));
  ctx.requests.set(req.id, req);
  const baseUrl = ctx.baseUrl(c);
  ctx.start(req, baseUrl);
  return c.json({
    status: 'IN_QUEUE',
    request_id: req.id,
    ...urlsOf(req, baseUrl),
    queue_position: queuePosition(req, ctx.requests.values()),
  });
}

/** The endpoint id of a submit: the path after the mount point (`owner/alias[/path]`). */
function endpointOf(c: Context): string {
  const { owner = '', alias = '' } = c.req.param();
  const rest = c.req.path.split(`/${owner}/${alias}`)[1] ?? '';
  return `${owner}/${alias}${rest.replace(/\/$/, '')}`;
}

/** `X-Fal-Object-Lifecycle-Preference: {"expiration_duration_seconds": N}` (null: forever). */
function lifecycleOf(c: Context): number | null {
  const raw = c.req.header('x-fal-object-lifecycle-preference');
  if (!raw) return null;
  try {
    const value = (JSON.parse(raw) as { expiration_duration_seconds?: unknown })
      .expiration_duration_seconds;
    return typeof value === 'number' && value > 0 ? value : null;
  } catch {
    return null;
  }
}

/** The caller's request on this app, or the 404 for one it cannot see. */
function findRequest(c: Context, ctx: RouteContext, key: string): FalRequest | Response {
  const { owner, alias, id } = c.req.param();
  const req = id === undefined ? undefined : ctx.requests.get(id);
  if (!req || req.key !== key || !req.model.id.startsWith(`${owner}/${alias}`)) {
    return c.json({ detail: 'Request not found' }, 404);
  }
  return req;
}

function statusRoute(c: Context, ctx: RouteContext): Response {
  const auth = authenticate(c, ctx);
  if (auth instanceof Response) return auth;
  const req = findRequest(c, ctx, auth[0]);
  if (req instanceof Response) return req;
  const withLogs = c.req.query('logs') === '1';
  const common = { status: req.status, request_id: req.id, ...urlsOf(req, ctx.baseUrl(c)) };
  const logs = withLogs ? req.logs : null;
  if (req.status === 'IN_QUEUE') {
    return c.json({ ...common, queue_position: queuePosition(req, ctx.requests.values()), logs });
  }
  if (req.status === 'IN_PROGRESS') return c.json({ ...common, logs });
  const inference = ((req.completedMs ?? 0) - (req.startedMs ?? req.completedMs ?? 0)) / 1000;
  return c.json({
    ...common,
    logs,
    metrics: { inference_time: req.startedMs === undefined ? null : inference },
    ...(req.failure ? { error: req.failure.error, error_type: req.failure.errorType } : {}),
  });
}

function resultRoute(c: Context, ctx: RouteContext): Response {
  const auth = authenticate(c, ctx);
  if (auth instanceof Response) return auth;
  const req = findRequest(c, ctx, auth[0]);
  if (req instanceof Response) return req;
  if (req.status !== 'COMPLETED') return c.json({ detail: 'Request is still in progress' }, 400);
  if (req.failure) {
    return c.json(req.failure.body, req.failure.status as ContentfulStatusCode, {
      'x-fal-error-type': req.failure.errorType,
    });
  }
  return c.json(req.result ?? {}, 200, { 'x-fal-request-id': req.id });
}

function cancelRoute(c: Context, ctx: RouteContext): Response {
  const auth = authenticate(c, ctx);
  if (auth instanceof Response) return auth;
  const req = findRequest(c, ctx, auth[0]);
  if (req instanceof Response) return req;
  if (req.status !== 'IN_QUEUE') return c.json({ status: 'ALREADY_COMPLETED' }, 400);
  req.status = 'COMPLETED';
  req.completedMs = ctx.now();
  const error = 'Request was cancelled';
  req.failure = {
    status: 499,
    body: { detail: error, error_type: 'client_cancelled' },
    error,
    errorType: 'client_cancelled',
  };
  return c.json({ status: 'CANCELLATION_REQUESTED' }, 202);
}

/** A fixed one-minute window of submits per key; 0 turns it off. */
function submitLimiter(perMinute: number, now: () => number): (key: string) => boolean {
  const windows = new Map<string, { start: number; count: number }>();
  return (key) => {
    if (perMinute <= 0) return true;
    const t = now();
    const w = windows.get(key);
    if (!w || t - w.start >= 60_000) {
      windows.set(key, { start: t, count: 1 });
      return true;
    }
    w.count++;
    return w.count <= perMinute;
  };
}
