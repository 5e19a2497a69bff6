import { setTimeout as sleep } from 'node:timers/promises';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  CreateGenerationRequestSchema,
  ERROR_CODES,
  TaskSchema,
  isCompleted,
  type CreateGenerationInput,
  type Task,
} from '../../contract/index.ts';
import type { LibraryService } from '../library/service.ts';
import { ApiError } from '../middleware/api-error.ts';
import { idempotency } from '../middleware/idempotency.ts';
import { owner, type OwnerEnv } from '../middleware/owner.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { fingerprintOf, type OwnerOf } from '../owner.ts';
import type { Storage } from '../storage/database.ts';
import { DEFAULT_TIMEOUT_MS, SYNC_TIMEOUT_MS, forward, type ProxyTarget } from './forward.ts';

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

/** How long a proxied completed task waits for its first archive before answering without it. */
const ARCHIVE_WAIT_MS = 15_000;

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

  /** Records what a task response says, and waits a little for the first archive of a completed one. */
  async function record(task: Task, recorded: Promise<string | undefined>) {
    try {
      // The first sighting of a completed task archives its GLB; wait a little for it, so the
      // SPA's next read of the library finds the archived copy, but never fail or stall on it.
      if (!isCompleted(task)) return void (await recorded);
      const giveUp = new AbortController();
      await Promise.race([
        recorded,
        sleep(ARCHIVE_WAIT_MS, undefined, { ref: false, signal: giveUp.signal }).catch(() => {}),
      ]);
      giveUp.abort();
    } catch (err) {
      deps.log(`library: could not record ${task.id}: ${String(err)}`);
    }
  }

  /** A task response, read (small JSON), recorded, then sent on byte for byte. */
  async function observe(
    res: Response,
    onTask: (task: Task) => Promise<string | undefined>,
  ): Promise<Response> {
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (res.ok) {
      let json: unknown;
      try {
        json = JSON.parse(new TextDecoder().decode(bytes));
      } catch {
        // not JSON: nothing to record
      }
      const parsed = TaskSchema.safeParse(json);
      if (parsed.success) await record(parsed.data, onTask(parsed.data));
    }
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    return new Response(bytes, { status: res.status, headers });
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
      const res = await forward(deps.upstream, {
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
      if (!owner || !body) return res;
      const create = body;
      return observe(res, (task) => deps.library.recordCreate(owner, create, task));
    },
  );

  app.get('/tasks/:id', async (c) => {
    const owner = c.var.owner;
    const res = await forward(deps.upstream, {
      incoming: c.req.raw,
      path: `/tasks/${encodeURIComponent(c.req.param('id'))}`,
      timeoutMs: defaultMs,
    });
    if (!owner || !res.ok) return res;
    return observe(res, (task) => deps.library.recordTask(owner, task));
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
