import { Hono } from 'hono';
import { createHash, randomUUID } from 'node:crypto';
import { bodyLimit } from 'hono/body-limit';
import {
  ERROR_CODES,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_WINDOW_MS,
  LIMITS,
  TaskSchema,
  parseCreateRequest,
  unstorableTextAt,
  unstorableTextMessage,
  type CreateGenerationRequest,
  type Task,
} from '../../contract/index.ts';
import type { LibraryService } from '../library/service.ts';
import { ApiError } from '../../http/index.ts';
import { idempotency } from '../middleware/idempotency.ts';
import { owner, type OwnerEnv } from '../middleware/owner.ts';
import { rateLimit } from '../middleware/rate-limit.ts';
import { fingerprintOf, type OwnerOf } from '../owner-id.ts';
import { isStorageUnavailable, type Storage } from '../storage/database.ts';
import type { CreateIntent } from '../storage/intents.ts';
import type { KeyChecker } from './key-check.ts';
import {
  DEFAULT_TIMEOUT_MS,
  SYNC_TIMEOUT_MS,
  forward,
  forwardRaw,
  passedBack,
  smallBodyText,
  type ForwardRequest,
  type ProxyTarget,
} from './forward.ts';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/**
 * A create body Kiln can forward: JSON, valid by the contract (the mock's own rules, the same
 * 400 naming the field), and holding only text the library can store. Kiln records what it
 * forwards, so it forwards only what it can record (decision 0075).
 */
function checkedCreate(contentType: string | undefined, raw: ArrayBuffer): CreateGenerationRequest {
  if (!JSON_TYPE.test(contentType ?? ''))
    throw new ApiError(415, {
      code: ERROR_CODES.unsupportedMediaType,
      message: 'Send the request body as JSON, with "Content-Type: application/json".',
    });
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(raw));
  } catch {
    throw new ApiError(400, {
      code: ERROR_CODES.invalidJson,
      message: 'The request body is not valid JSON.',
    });
  }
  const parsed = parseCreateRequest(json);
  if (!parsed.ok) throw new ApiError(400, parsed.error);
  const at = unstorableTextAt(json);
  if (at !== undefined)
    throw new ApiError(400, {
      code: ERROR_CODES.invalidValue,
      message: unstorableTextMessage(at),
      param: at,
    });
  return parsed.value;
}

/** What an artist would recognise a create by: its prompt, or how many photos. */
function summaryOf(body: CreateGenerationRequest): string {
  if (body.prompt) return body.prompt.slice(0, 120);
  const n = body.image_urls?.length ?? (body.image_url ? 1 : 0);
  return n === 1 ? '1 photo' : `${n} photos`;
}

/** How often Kiln polls while it waits for a sync create's task (at once, then after 0.1, 0.25,
 * 0.6, 1.6 s, then every 2 s: the spec's recommended interval), up to `LIMITS.syncWaitMs`. */
const SYNC_POLL_MS = 2_000;

/** The create body with `mode: "async"` (a sync create goes upstream as an async one). */
function asAsync(raw: ArrayBuffer): ArrayBuffer {
  const json = JSON.parse(new TextDecoder().decode(raw)) as Record<string, unknown>;
  return new TextEncoder().encode(JSON.stringify({ ...json, mode: 'async' })).buffer as ArrayBuffer;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Waits `ms`, or less when `signal` fires. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function createRequest(incoming: Request, raw: ArrayBuffer, timeoutMs: number): ForwardRequest {
  return { incoming, path: '/3d/generations', body: raw, timeoutMs };
}

/** A unique-key clash: the intent of this Idempotency-Key is there already (a retry). */
function isDuplicate(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return (
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE'
  );
}

/** When a create's charge may have happened from, and whether a recovery path recorded it. */
interface Recovery {
  sentMs: number;
  recovered: boolean;
}

/**
 * The window of a create the upstream replayed (`Idempotent-Replayed: true`): its charge happened
 * when the task was made, which may be before any attempt Kiln knows of, so the window opens at
 * the task's `created` second (never more than the idempotency window back).
 */
function replayWindow(recovery: Recovery, task: Task, answeredMs: number): Recovery {
  const made = task.created == null ? recovery.sentMs : task.created * 1000 - 1000;
  const floor = answeredMs - IDEMPOTENCY_WINDOW_MS;
  return { sentMs: Math.max(floor, Math.min(recovery.sentMs, made)), recovered: true };
}

/** The 503 of a create that could not be recorded: nothing was sent, nothing charged. */
function unrecordable(err: unknown): Error {
  if (!isStorageUnavailable(err)) return err instanceof Error ? err : new Error(String(err));
  return new ApiError(
    503,
    {
      code: ERROR_CODES.serviceUnavailable,
      message:
        'Kiln cannot reach its database just now, so it sent nothing upstream and nothing was charged. Try again in a few seconds.',
    },
    { headers: { 'retry-after': '5' }, cause: err },
  );
}

export interface ProxyRouteDeps {
  upstream: ProxyTarget;
  /** Told what the upstream said of a key on a create (decision 0092). */
  keys?: Pick<KeyChecker, 'learn'>;
  library: LibraryService;
  storage: Pick<Storage, 'idempotency' | 'counters' | 'holder' | 'intents'>;
  ownerOf: OwnerOf;
  now: () => number;
  log: (message: string) => void;
  /** Creates per minute per key; 0 = no limit. */
  createsPerMinute: number;
  /** Largest create body (data: URIs make them big). */
  maxCreateBytes?: number;
  /** Upstream time limits: how long a sync create waits for its task, and one upstream call. */
  timeouts?: { syncMs: number; defaultMs: number };
  /** Fires when this replica shuts down: sync creates answer the pending shape at once. */
  shutdown?: AbortSignal;
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

  /**
   * Records what a task response says (the first sighting of a completed one waits for its
   * archive); false when the library could not take it. The answer goes on to the client either
   * way (the upstream's word is true), but a write that failed is never remembered as done: the
   * next poll of the task, or the next read of the library, writes it again (decision 0075).
   */
  async function record(task: Task, recorded: () => Promise<string | undefined>): Promise<boolean> {
    try {
      await recorded();
      return true;
    } catch (err) {
      deps.log(`library: could not record ${task.id}: ${String(err)}`);
      return false;
    }
  }

  /** The first attempt's send time, read from its intent (this one's when it cannot be read). */
  async function earlierAttempt(intent: CreateIntent): Promise<Recovery> {
    const first = await deps.storage.intents.get(intent.id).catch(() => undefined);
    return { sentMs: Math.min(intent.sentMs, first?.sentMs ?? intent.sentMs), recovered: true };
  }

  /** Removes an intent whose create charged nothing (best effort: a stale one only makes the balance say "about"). */
  async function forget(intent: CreateIntent) {
    await deps.storage.intents
      .remove(intent.id)
      .catch((err: unknown) => deps.log(`library: could not clear intent: ${String(err)}`));
  }

  /**
   * An upstream task response, read (small JSON), recorded, then sent on as it came. A poll
   * (`polled`: its owner and task) whose body is the same as the last one recorded for it says
   * nothing new, so it is not parsed again: the library's cache of what was recorded
   * (library/seen-tasks.ts) remembers it.
   */
  const seen = deps.library.seen;
  async function observe(
    upstream: Response,
    polled: { owner: string; taskId: string } | undefined,
    onTask: (task: Task) => Promise<string | undefined>,
  ): Promise<Response> {
    const text = await smallBodyText(upstream);
    const headers = passedBack(upstream);
    if (upstream.ok && !(polled && seen.sameBody(polled.owner, polled.taskId, text))) {
      const parsed = TaskSchema.safeParse(safeJson(text));
      if (parsed.success) {
        const recorded = await record(parsed.data, () => onTask(parsed.data));
        if (polled && recorded) seen.rememberBody(polled.owner, polled.taskId, text);
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
      uncounted: [401, 403],
    }),
    async (c) => {
      const raw = await c.req.arrayBuffer();
      const owner = c.var.owner;
      // Without a key the upstream answers 401 itself: nothing can be charged.
      if (!owner) return forward(deps.upstream, createRequest(c.req.raw, raw, defaultMs));
      const body = checkedCreate(c.req.header('content-type'), raw);
      const idem = c.req.header(IDEMPOTENCY_HEADER);
      const intent: CreateIntent = {
        id: idem
          ? `key:${createHash('sha256').update(`${owner}\n${idem}`).digest('hex')}`
          : randomUUID(),
        owner,
        holder: deps.storage.holder,
        sentMs: deps.now(),
        model: body.model,
        summary: summaryOf(body),
      };
      // The intent is written before anything goes upstream: a create Kiln cannot record is
      // never sent, so it is never charged (decision 0075).
      // A retry that finds an earlier attempt's intent is a recovery (decision 0091): that
      // attempt may have been charged, so the charge's window starts when it was sent.
      let recovery: Recovery = { sentMs: intent.sentMs, recovered: false };
      try {
        await deps.storage.intents.record(intent);
      } catch (err) {
        if (!idem || !isDuplicate(err)) throw unrecordable(err);
        recovery = await earlierAttempt(intent);
      }
      // A sync create goes upstream as an async one, and Kiln waits for the task itself (polling
      // it as a client would, up to the spec's 55 s): the artist gets the same answer, and a
      // replica shutting down can answer the pending shape at once instead of dropping the
      // connection (issue 25). The charge's window is then the create's own, short one (0076).
      const sync = body.mode === 'sync';
      const sent = sync ? asAsync(raw) : raw;
      let res: Response;
      try {
        res = await forwardRaw(deps.upstream, {
          ...createRequest(c.req.raw, sent, defaultMs),
          // The key goes upstream too: an upstream that honours it answers a retry after a crash
          // with the same task instead of a second one.
          ...(idem ? { headers: { [IDEMPOTENCY_HEADER]: idem } } : {}),
        });
      } catch (err) {
        // Unreachable: nothing was taken. A time-out may have been charged: the intent stays,
        // and the balance says a charge is unknown until a retry with the key resolves it.
        if (err instanceof ApiError && err.status === 502) await forget(intent);
        throw err;
      }
      const answeredMs = deps.now();
      if (res.status >= 200 && res.status < 300) {
        deps.log(`create by ${fingerprintOf(owner)}: ${res.status}`);
        deps.keys?.learn(owner, 'accepted');
      }
      if (res.status === 401 || res.status === 403) deps.keys?.learn(owner, 'refused');
      if (res.status === 402) {
        // A refusal for want of credits names the balance: the header learns it too.
        const text = await res.text();
        await forget(intent);
        await deps.library
          .noteRefusal(owner, text, { sentMs: intent.sentMs, answeredMs })
          .catch((err: unknown) => deps.log(`library: could not note a refusal: ${String(err)}`));
        return new Response(text, { status: res.status, headers: passedBack(res) });
      }
      if (res.status < 200 || res.status >= 300) {
        // Refused upstream (a bad key, a bad body): nothing charged, nothing to keep.
        await forget(intent);
        return new Response(res.body, { status: res.status, headers: passedBack(res) });
      }
      const replayed = res.headers.get('idempotent-replayed') === 'true';
      const created = await observe(res, undefined, async (task) => {
        const { sentMs, recovered } = replayed
          ? replayWindow(recovery, task, answeredMs)
          : recovery;
        const sha = await deps.library.recordCreate(owner, body, task, {
          sentMs,
          answeredMs,
          intentId: intent.id,
          recovered,
        });
        return sha;
      });
      if (!sync) return created;
      return waitForTask(c.req.raw, owner, created, syncMs);
    },
  );

  /**
   * A sync create's answer: the task polled until it ends (200, as the upstream answers a sync
   * create that finishes), or, past `waitMs` or when this replica shuts down, the pending shape
   * the create answered (202): the client polls on, on any replica.
   */
  async function waitForTask(
    incoming: Request,
    owner: string,
    pending: Response,
    waitMs: number,
  ): Promise<Response> {
    const text = await pending.text();
    const first = TaskSchema.safeParse(safeJson(text));
    if (!first.success || first.data.status !== 'pending')
      return new Response(text, { status: pending.status, headers: pending.headers });
    const id = first.data.id;
    const until = deps.now() + Math.min(waitMs, LIMITS.syncWaitMs);
    const stop = deps.shutdown;
    for (
      let wait = 0;
      deps.now() < until && !stop?.aborted && !incoming.signal.aborted;
      wait = Math.min(SYNC_POLL_MS, Math.max(100, wait * 2.5))
    ) {
      await pause(wait, stop);
      if (stop?.aborted || incoming.signal.aborted) break;
      let res: Response;
      try {
        res = await forwardRaw(deps.upstream, {
          incoming: new Request(new URL(incoming.url).origin, {
            headers: { authorization: incoming.headers.get('authorization') ?? '' },
          }),
          path: `/tasks/${encodeURIComponent(id)}`,
          timeoutMs: defaultMs,
        });
      } catch {
        continue; // the upstream blinked: the next poll tries again, within the wait
      }
      if (!res.ok) {
        await res.body?.cancel();
        continue;
      }
      const polled = await observe(res, { owner, taskId: id }, (task) =>
        deps.library.recordTask(owner, task),
      );
      const body = await polled.text();
      const task = TaskSchema.safeParse(safeJson(body));
      if (task.success && task.data.status !== 'pending')
        return new Response(body, { status: 200, headers: polled.headers });
    }
    return new Response(text, { status: 202, headers: pending.headers });
  }

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
    return observe(res, { owner, taskId: id }, (task) => deps.library.recordTask(owner, task));
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
