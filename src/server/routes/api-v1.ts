import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { rateLimiter } from 'hono-rate-limiter';
import {
  ASSET_URL_HEADER,
  CreateGenerationRequestSchema,
  ERROR_TYPES,
  TaskSchema,
  isCompleted,
  type CreateGenerationInput,
  type ErrorBody,
} from '../../contract/index.ts';
import { assetUrl, type LibraryService } from '../library/service.ts';
import { bearerKey, fingerprintOf, type OwnerOf } from '../owner.ts';
import { DEFAULT_TIMEOUT_MS, SYNC_TIMEOUT_MS, forward, type ProxyTarget } from '../proxy.ts';
import type { LibraryStore, StoredResponse } from '../storage/library.ts';

export interface ApiV1Deps {
  upstream: ProxyTarget;
  library: LibraryService;
  store: LibraryStore;
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

export const IDEMPOTENCY_WINDOW_MS = 10 * 60 * 1000;
const IDEMPOTENCY_KEY_RE = /^[\x21-\x7e]{1,255}$/;
/** How long a proxied completed task waits for its first archive before answering without it. */
const ARCHIVE_WAIT_MS = 15_000;

function errorJson(c: Context, status: 400 | 409 | 413 | 429, error: ErrorBody['error']) {
  return c.json({ error }, status);
}

/** A canonical hash of a JSON body, so whitespace and key order do not make two bodies "different". */
function bodyHash(raw: ArrayBuffer): string {
  const text = new TextDecoder().decode(raw);
  let canonical = text;
  try {
    canonical = JSON.stringify(sortKeys(JSON.parse(text)));
  } catch {
    // not JSON: hash the bytes as they are
  }
  return createHash('sha256').update(canonical).digest('hex');
}
function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]),
    );
  return v;
}

async function readJson(res: Response): Promise<{ bytes: Uint8Array; json: unknown }> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  try {
    return { bytes, json: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    return { bytes, json: undefined };
  }
}

function replay(stored: StoredResponse, replayed: boolean): Response {
  const headers = new Headers(stored.headers);
  if (replayed) headers.set('idempotent-replayed', 'true');
  return new Response(stored.body as Uint8Array<ArrayBuffer>, { status: stored.status, headers });
}

/**
 * `/api/v1/*`: the faithful proxy, plus what artists need on top: idempotent
 * creates, a per-key create limit, and a record of every task in the library.
 */
export function apiV1Routes(deps: ApiV1Deps) {
  const app = new Hono();
  const { syncMs, defaultMs } = deps.timeouts ?? {
    syncMs: SYNC_TIMEOUT_MS,
    defaultMs: DEFAULT_TIMEOUT_MS,
  };
  const inFlight = new Map<string, Promise<StoredResponse>>();

  /** Forwards a response and records what it says. Task bodies are small JSON: read, then re-sent. */
  async function observeTask(
    owner: string | undefined,
    res: Response,
    record: (task: ReturnType<typeof TaskSchema.parse>) => Promise<string | undefined>,
  ): Promise<StoredResponse> {
    const { bytes, json } = await readJson(res);
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    const parsed = res.ok ? TaskSchema.safeParse(json) : undefined;
    if (owner && parsed?.success) {
      try {
        const recorded = record(parsed.data);
        // The first sighting of a completed task archives its GLB; wait a little for it so the
        // SPA can be pointed at the archived copy, but never fail or stall the response on it.
        let sha: string | undefined;
        if (isCompleted(parsed.data)) {
          const giveUp = new AbortController();
          sha = await Promise.race([
            recorded,
            sleep(ARCHIVE_WAIT_MS, undefined, { ref: false, signal: giveUp.signal }).catch(
              () => undefined,
            ),
          ]);
          giveUp.abort();
        } else sha = await recorded;
        if (sha) headers[ASSET_URL_HEADER] = assetUrl(sha);
      } catch (err) {
        deps.log(`library: could not record ${parsed.data.id}: ${String(err)}`);
      }
    }
    delete headers['content-length'];
    return { bodySha256: '', status: res.status, headers, body: bytes, createdMs: deps.now() };
  }

  const limitCreates = rateLimiter({
    windowMs: 60_000,
    limit: deps.createsPerMinute,
    standardHeaders: 'draft-6',
    keyGenerator: (c) => {
      const key = bearerKey(c.req.header('authorization'));
      return key ? deps.ownerOf(key) : 'anonymous';
    },
    skip: () => deps.createsPerMinute <= 0,
    handler: (c) =>
      errorJson(c, 429, {
        message: `Too many new tasks from this key: at most ${deps.createsPerMinute} a minute. Wait ${c.res.headers.get('retry-after') ?? 'a few'} s and try again.`,
        type: ERROR_TYPES.rateLimit,
        code: 'rate_limited',
      }),
  });

  app.post(
    '/3d/generations',
    bodyLimit({
      maxSize: deps.maxCreateBytes ?? 32 * 1024 * 1024,
      onError: (c) =>
        errorJson(c, 413, {
          message:
            'The request body is too large. Upload images with /api/uploads and send their URLs.',
          type: ERROR_TYPES.invalidRequest,
          code: 'body_too_large',
        }),
    }),
    async (c, next) => {
      // Idempotency wraps everything after it: a repeat of a key in flight waits for the first
      // answer; a repeat within 10 minutes replays it; only a new key reaches the rate limit.
      const key = bearerKey(c.req.header('authorization'));
      const idem = c.req.header('idempotency-key');
      if (!key || idem === undefined) return next();
      if (!IDEMPOTENCY_KEY_RE.test(idem))
        return errorJson(c, 400, {
          message: 'Idempotency-Key must be 1 to 255 visible ASCII characters.',
          type: ERROR_TYPES.invalidRequest,
          code: 'invalid_value',
          param: 'Idempotency-Key',
        });
      const owner = deps.ownerOf(key);
      const hash = bodyHash(await c.req.arrayBuffer());
      const answer = (stored: StoredResponse, replayed: boolean) =>
        stored.bodySha256 !== hash
          ? errorJson(c, 409, {
              message:
                'This Idempotency-Key was already used with a different request body. Use a new key for a new task.',
              type: ERROR_TYPES.invalidRequest,
              code: 'idempotency_key_reused',
              param: 'Idempotency-Key',
            })
          : replay(stored, replayed);

      const slot = `${owner}\n${idem}`;
      const running = inFlight.get(slot);
      if (running) return answer(await running, true);
      // Registered before any await, so concurrent repeats find it.
      let settle!: (r: StoredResponse | PromiseLike<StoredResponse>) => void;
      let fail!: (e: unknown) => void;
      const first = new Promise<StoredResponse>((resolve, reject) => {
        settle = resolve;
        fail = reject;
      });
      first.catch(() => {});
      inFlight.set(slot, first);
      try {
        const stored = await deps.store.getIdempotent(
          owner,
          idem,
          deps.now() - IDEMPOTENCY_WINDOW_MS,
        );
        if (stored) {
          settle(stored);
          return answer(stored, true);
        }
        await next();
        const res = c.res.clone();
        const headers: Record<string, string> = {};
        res.headers.forEach((v, k) => (headers[k] = v));
        const snapshot: StoredResponse = {
          bodySha256: hash,
          status: res.status,
          headers,
          body: new Uint8Array(await res.arrayBuffer()),
          createdMs: deps.now(),
        };
        // Answers worth repeating are kept; 5xx and 429 are not, so a retry can still succeed.
        if (snapshot.status < 500 && snapshot.status !== 429) {
          await deps.store.putIdempotent(owner, idem, snapshot);
          if (Math.random() < 0.05)
            await deps.store.purgeIdempotent(deps.now() - IDEMPOTENCY_WINDOW_MS);
        }
        settle(snapshot);
      } catch (err) {
        fail(err);
        throw err;
      } finally {
        inFlight.delete(slot);
      }
    },
    limitCreates,
    async (c) => {
      const raw = await c.req.arrayBuffer();
      const key = bearerKey(c.req.header('authorization'));
      const owner = key ? deps.ownerOf(key) : undefined;
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
        ...(idem ? { headers: { 'idempotency-key': idem } } : {}),
      });
      const stored = await observeTask(owner, res, (task) =>
        owner && body ? deps.library.recordCreate(owner, body, task) : Promise.resolve(undefined),
      );
      if (owner && stored.status >= 200 && stored.status < 300)
        deps.log(`create by ${fingerprintOf(owner)}: ${stored.status}`);
      return replay(stored, false);
    },
  );

  app.get('/tasks/:id', async (c) => {
    const key = bearerKey(c.req.header('authorization'));
    const owner = key ? deps.ownerOf(key) : undefined;
    const res = await forward(deps.upstream, {
      incoming: c.req.raw,
      path: `/tasks/${encodeURIComponent(c.req.param('id'))}`,
      timeoutMs: defaultMs,
    });
    if (!owner || !res.ok) return res;
    return replay(
      await observeTask(owner, res, (task) => deps.library.recordTask(owner, task)),
      false,
    );
  });

  // Everything else (the models listing, unknown paths): streamed through untouched.
  app.all(
    '*',
    bodyLimit({
      maxSize: 1024 * 1024,
      onError: (c) =>
        errorJson(c, 413, {
          message: 'The request body is too large.',
          type: ERROR_TYPES.invalidRequest,
          code: 'body_too_large',
        }),
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
