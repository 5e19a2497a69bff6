import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  CreateGenerationRequestSchema,
  ERROR_CODES,
  TaskSchema,
  type CreateGenerationInput,
  type Task,
} from '../../contract/index.ts';
import type { LibraryService } from '../library/service.ts';
import { ApiError } from '../middleware/api-error.ts';
import { idempotency } from '../middleware/idempotency.ts';
import { owner, type OwnerEnv } from '../middleware/owner.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { fingerprintOf, type OwnerOf } from '../owner-id.ts';
import type { Storage } from '../storage/database.ts';
import {
  DEFAULT_TIMEOUT_MS,
  SYNC_TIMEOUT_MS,
  forward,
  forwardRaw,
  passedBack,
  smallBodyText,
  type ProxyTarget,
} from './forward.ts';

export interface ProxyRouteDeps {
  upstream: ProxyTarget;
  library: LibraryService;
  storage: Pick<Storage, 'idempotency' | 'counters' | 'holder'>;
  ownerOf: OwnerOf;
  now: () => number;
  log: (message: string) => void;
  /** Creates per minute per key; 0 = no limit. */
  createsPerMinute: number;
  /** Largest create body (data: URIs make them big). */
  maxCreateBytes?: number;
  /** Upstream time limits: sync creates (≥ 65 s: the upstream blocks up to 55 s) and the rest. */
  timeouts?: { syncMs: number; defaultMs: number };
}

/**
 * `/api/v1/*`: the faithful proxy, plus what artists need on top: idempotent creates, a per-key
 * create limit, and a record of every task in the library.
 */
export function proxyRoutes(deps: ProxyRouteDeps) {
  const app = new Hono<OwnerEnv>();
  const { syncMs, defaultMs } = deps.timeouts ?? {
    syncMs: SYNC_TIMEOUT_MS,
    defaultMs: DEFAULT_TIMEOUT_MS,
  };

  /** Records what a task response says (the first sighting of a completed one waits for its archive). */
  async function record(task: Task, recorded: Promise<string | undefined>) {
    try {
      await recorded;
    } catch (err) {
      deps.log(`library: could not record ${task.id}: ${String(err)}`);
    }
  }

  /**
   * An upstream task response, read (small JSON), recorded, then sent on as it came. A body the
   * same as the last one seen for this task here says nothing new, so it is not parsed again.
   */
  const lastSeen = new Map<string, string>();
  async function observe(
    upstream: Response,
    cacheKey: string | undefined,
    onTask: (task: Task) => Promise<string | undefined>,
  ): Promise<Response> {
    const text = await smallBodyText(upstream);
    const headers = passedBack(upstream);
    if (upstream.ok && !(cacheKey && lastSeen.get(cacheKey) === text)) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        // not JSON: nothing to record
      }
      const parsed = TaskSchema.safeParse(json);
      if (parsed.success) {
        await record(parsed.data, onTask(parsed.data));
        if (cacheKey) {
          lastSeen.delete(cacheKey);
          lastSeen.set(cacheKey, text);
          if (lastSeen.size > 10_000) lastSeen.delete(lastSeen.keys().next().value as string);
        }
      }
    }
    return new Response(text, { status: upstream.status, headers });
  }

  app.use('*', owner(deps.ownerOf));

  app.post(
    '/3d/generations',
    bodyLimit({
      maxSize: deps.maxCreateBytes ?? 32 * 1024 * 1024,
      onError: () => {
        throw new ApiError(413, {
          code: ERROR_CODES.bodyTooLarge,
          message:
            'The request body is too large. Upload images with /api/uploads and send their URLs.',
        });
      },
    }),
    idempotency({ store: deps.storage.idempotency, holder: deps.storage.holder, now: deps.now }),
    rateLimit<OwnerEnv>({
      limit: deps.createsPerMinute,
      windowMs: 60_000,
      keyOf: (c) => `create:${c.var.owner ?? 'anonymous'}`,
      message: (wait) =>
        `Too many new tasks from this key: at most ${deps.createsPerMinute} a minute. Wait ${wait} s and try again.`,
      counters: deps.storage.counters,
      now: deps.now,
    }),
    async (c) => {
      const raw = await c.req.arrayBuffer();
      const owner = c.var.owner;
      const idem = c.req.header('idempotency-key');
      let body: CreateGenerationInput | undefined;
      try {
        const parsed = CreateGenerationRequestSchema.safeParse(
          JSON.parse(new TextDecoder().decode(raw)),
        );
        if (parsed.success) body = parsed.data;
      } catch {
        // the upstream answers malformed bodies itself; the proxy stays faithful
      }
      const res = await forwardRaw(deps.upstream, {
        incoming: c.req.raw,
        path: '/3d/generations',
        body: raw,
        timeoutMs: body?.mode === 'sync' ? syncMs : defaultMs,
        // The key goes upstream too: an upstream that honours it answers a retry after a crash
        // with the same task instead of a second one.
        ...(idem ? { headers: { 'idempotency-key': idem } } : {}),
      });
      if (owner && res.status >= 200 && res.status < 300)
        deps.log(`create by ${fingerprintOf(owner)}: ${res.status}`);
      if (owner && res.status === 402) {
        // A refusal for want of credits names the balance: the header learns it too.
        const text = await res.text();
        await deps.library.noteRefusal(owner, text);
        return new Response(text, { status: res.status, headers: passedBack(res) });
      }
      if (!owner || !body)
        return new Response(res.body, { status: res.status, headers: passedBack(res) });
      const create = body;
      return observe(res, undefined, (task) => deps.library.recordCreate(owner, create, task));
    },
  );

  app.get('/tasks/:id', async (c) => {
    const owner = c.var.owner;
    const id = c.req.param('id');
    const res = await forwardRaw(deps.upstream, {
      incoming: c.req.raw,
      path: `/tasks/${encodeURIComponent(id)}`,
      timeoutMs: defaultMs,
    });
    if (!owner || !res.ok)
      return new Response(res.body, { status: res.status, headers: passedBack(res) });
    return observe(res, `${owner}\n${id}`, (task) => deps.library.recordTask(owner, task));
  });

  // Everything else (the models listing, unknown paths): streamed through untouched.
  app.all(
    '*',
    bodyLimit({
      maxSize: 1024 * 1024,
      onError: () => {
        throw new ApiError(413, {
          code: ERROR_CODES.bodyTooLarge,
          message: 'The request body is too large.',
        });
      },
    }),
    async (c) => {
      const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD';
      return forward(deps.upstream, {
        incoming: c.req.raw,
        path: c.req.path.replace(/^.*?\/api\/v1/, ''),
        body: hasBody ? await c.req.arrayBuffer() : undefined,
        timeoutMs: defaultMs,
      });
    },
  );

  return app;
}
