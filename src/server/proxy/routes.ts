import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ERROR_CODES, splitTaskId } from '../../contract/index.ts';
import { pollProviderTask } from '../providers/tasks.ts';
import { ApiError } from '../../http/index.ts';
import { idempotency } from '../middleware/idempotency.ts';
import { owner, type OwnerEnv } from '../middleware/owner.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import type { ProxyContext, ProxyRouteDeps } from './context.ts';
import { createRoute } from './create.ts';
import { DEFAULT_TIMEOUT_MS, SYNC_TIMEOUT_MS, forward, forwardRaw, passedBack } from './forward.ts';
import { taskObserver } from './observe.ts';

/** A body limit whose 413 says what to do instead. */
const tooLarge = (maxSize: number, message: string) =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw new ApiError(413, { code: ERROR_CODES.bodyTooLarge, message });
    },
  });

/** What a create passes before its handler: the body limit, the idempotency key, the rate limit. */
function createGuards(deps: ProxyRouteDeps) {
  return [
    tooLarge(
      deps.maxCreateBytes ?? 32 * 1024 * 1024,
      'The request body is too large. Upload images with /api/uploads and send their URLs.',
    ),
    idempotency({ store: deps.storage.idempotency, holder: deps.storage.holder, now: deps.now }),
    rateLimit<OwnerEnv>({
      limit: deps.createsPerMinute,
      windowMs: 60_000,
      keyOf: (c) => `create:${c.var.owner ?? 'anonymous'}`,
      message: (wait) =>
        `Too many new tasks from this key: at most ${deps.createsPerMinute} a minute. Wait ${wait} s and try again.`,
      counters: deps.storage.counters,
      now: deps.now,
      uncounted: [401, 403],
    }),
  ] as const;
}

/** `GET /tasks/{id}`: a poll, passed back as it came, recorded when it is the owner's task. */
function taskRoute(ctx: ProxyContext) {
  return async (c: Context<OwnerEnv, '/tasks/:id'>): Promise<Response> => {
    const owner = c.var.owner;
    const id = c.req.param('id');
    const vendor = ctx.deps.providers ? splitTaskId(id) : undefined;
    if (vendor) return pollProviderTask(ctx.deps.providers!, c, owner, id, vendor);
    const res = await forwardRaw(ctx.deps.upstream, {
      incoming: c.req.raw,
      path: `/tasks/${encodeURIComponent(id)}`,
      timeoutMs: ctx.defaultMs,
    });
    if (!owner || !res.ok)
      return new Response(res.body, { status: res.status, headers: passedBack(res) });
    return ctx.observe(res, { owner, taskId: id }, (task) =>
      ctx.deps.library.recordTask(owner, task),
    );
  };
}

/** Everything else (the models listing, unknown paths): streamed through untouched. */
function passThroughRoute(ctx: ProxyContext) {
  return async (c: Context<OwnerEnv>): Promise<Response> => {
    const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    return forward(ctx.deps.upstream, {
      incoming: c.req.raw,
      path: c.req.path.replace(/^.*?\/api\/v1/, ''),
      body: hasBody ? await c.req.arrayBuffer() : undefined,
      timeoutMs: ctx.defaultMs,
    });
  };
}

/**
 * `/api/v1/*`: the faithful proxy, plus what artists need on top: idempotent creates, a per-key
 * create limit, and a record of every task in the library.
 */
export function proxyRoutes(deps: ProxyRouteDeps) {
  const { syncMs, defaultMs } = deps.timeouts ?? {
    syncMs: SYNC_TIMEOUT_MS,
    defaultMs: DEFAULT_TIMEOUT_MS,
  };
  const ctx: ProxyContext = {
    deps,
    syncMs,
    defaultMs,
    observe: taskObserver(deps.library, deps.log),
  };
  return new Hono<OwnerEnv>()
    .use('*', owner(deps.ownerOf))
    .post('/3d/generations', ...createGuards(deps), createRoute(ctx))
    .get('/tasks/:id', taskRoute(ctx))
    .all('*', tooLarge(1024 * 1024, 'The request body is too large.'), passThroughRoute(ctx));
}
