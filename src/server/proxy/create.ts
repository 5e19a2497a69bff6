// `POST /api/v1/3d/generations`: a create, checked, recorded as an intent before it is sent (a
// create Kiln cannot record is never sent, so never charged: decision 0075), sent, and its task
// recorded in the library; a sync create then waits for its task (sync-wait.ts).
import { createHash, randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import {
  ERROR_CODES,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_WINDOW_MS,
  parseCreateRequest,
  splitModelId,
  unstorableTextAt,
  unstorableTextMessage,
  type CreateGenerationRequest,
  type Task,
} from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { createProviderTask } from '../providers/tasks.ts';
import type { OwnerEnv } from '../middleware/owner.ts';
import { fingerprintOf } from '../owner-id.ts';
import { isStorageUnavailable } from '../storage/database.ts';
import type { CreateIntent } from '../storage/intents.ts';
import type { ProxyContext } from './context.ts';
import { forward, forwardRaw, passedBack, type ForwardRequest } from './forward.ts';
import { asAsync, waitForTask } from './sync-wait.ts';

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

/** A create for a vendor's `provider/model` (issue 34), its JSON read once; undefined otherwise. */
function vendorCreate(
  contentType: string | undefined,
  raw: ArrayBuffer,
): { json: unknown } | undefined {
  if (!JSON_TYPE.test(contentType ?? '')) return undefined;
  try {
    const json: unknown = JSON.parse(new TextDecoder().decode(raw));
    const model = (json as { model?: unknown } | null)?.model;
    return typeof model === 'string' && splitModelId(model) ? { json } : undefined;
  } catch {
    return undefined;
  }
}

/** What an artist would recognise a create by: its prompt, or how many photos. */
function summaryOf(body: CreateGenerationRequest): string {
  if (body.prompt) return body.prompt.slice(0, 120);
  const n = body.image_urls?.length ?? (body.image_url ? 1 : 0);
  return n === 1 ? '1 photo' : `${n} photos`;
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

/** The intent of a create: keyed by its Idempotency-Key when it has one, so a retry finds it. */
function intentOf(
  ctx: ProxyContext,
  owner: string,
  body: CreateGenerationRequest,
  idem: string | undefined,
): CreateIntent {
  return {
    id: idem
      ? `key:${createHash('sha256').update(`${owner}\n${idem}`).digest('hex')}`
      : randomUUID(),
    owner,
    holder: ctx.deps.storage.holder,
    sentMs: ctx.deps.now(),
    model: body.model,
    summary: summaryOf(body),
  };
}

/**
 * Writes the intent before anything goes upstream. A retry that finds an earlier attempt's intent
 * is a recovery (decision 0091): that attempt may have been charged, so the charge's window
 * starts when it was sent (this one's send time when that cannot be read).
 */
async function recordIntent(
  ctx: ProxyContext,
  intent: CreateIntent,
  idem: string | undefined,
): Promise<Recovery> {
  const { intents } = ctx.deps.storage;
  try {
    await intents.record(intent);
    return { sentMs: intent.sentMs, recovered: false };
  } catch (err) {
    if (!idem || !isDuplicate(err)) throw unrecordable(err);
    const first = await intents.get(intent.id).catch(() => undefined);
    return { sentMs: Math.min(intent.sentMs, first?.sentMs ?? intent.sentMs), recovered: true };
  }
}

/** Removes an intent whose create charged nothing (best effort: a stale one only makes the balance say "about"). */
async function forget(ctx: ProxyContext, intent: CreateIntent) {
  await ctx.deps.storage.intents
    .remove(intent.id)
    .catch((err: unknown) => ctx.deps.log(`library: could not clear intent: ${String(err)}`));
}

/** Sends the create (as an async one when it is sync), the key with it. */
async function sendCreate(
  ctx: ProxyContext,
  incoming: Request,
  raw: ArrayBuffer,
  sync: boolean,
  idem: string | undefined,
  intent: CreateIntent,
): Promise<Response> {
  try {
    return await forwardRaw(ctx.deps.upstream, {
      ...createRequest(incoming, sync ? asAsync(raw) : raw, ctx.defaultMs),
      // The key goes upstream too: an upstream that honours it answers a retry after a crash
      // with the same task instead of a second one.
      ...(idem ? { headers: { [IDEMPOTENCY_HEADER]: idem } } : {}),
    });
  } catch (err) {
    // Unreachable: nothing was taken. A time-out may have been charged: the intent stays,
    // and the balance says a charge is unknown until a retry with the key resolves it.
    if (err instanceof ApiError && err.status === 502) await forget(ctx, intent);
    throw err;
  }
}

/**
 * What a create that was not accepted answers, its intent forgotten (nothing charged); a refusal
 * for want of credits names the balance, which the library notes.
 */
async function answerRefused(
  ctx: ProxyContext,
  res: Response,
  owner: string,
  intent: CreateIntent,
  answeredMs: number,
): Promise<Response> {
  await forget(ctx, intent);
  if (res.status !== 402)
    return new Response(res.body, { status: res.status, headers: passedBack(res) });
  const text = await res.text();
  await ctx.deps.library
    .noteRefusal(owner, text, { sentMs: intent.sentMs, answeredMs })
    .catch((err: unknown) => ctx.deps.log(`library: could not note a refusal: ${String(err)}`));
  return new Response(text, { status: res.status, headers: passedBack(res) });
}

/** The handler of a create. */
export function createRoute(ctx: ProxyContext) {
  const { deps } = ctx;
  return async (c: Context<OwnerEnv>): Promise<Response> => {
    const raw = await c.req.arrayBuffer();
    const owner = c.var.owner;
    // Without a key the upstream answers 401 itself: nothing can be charged.
    if (!owner) return forward(deps.upstream, createRequest(c.req.raw, raw, ctx.defaultMs));
    const idem = c.req.header(IDEMPOTENCY_HEADER);
    const vendor = deps.providers && vendorCreate(c.req.header('content-type'), raw);
    if (vendor) return createProviderTask(deps.providers!, c, owner, vendor.json, idem);
    const body = checkedCreate(c.req.header('content-type'), raw);
    const intent = intentOf(ctx, owner, body, idem);
    const recovery = await recordIntent(ctx, intent, idem);
    // The charge's window of a sync create is the create's own, short one (decision 0076).
    const sync = body.mode === 'sync';
    const res = await sendCreate(ctx, c.req.raw, raw, sync, idem, intent);
    const answeredMs = deps.now();
    const accepted = res.status >= 200 && res.status < 300;
    if (accepted) {
      deps.log(`create by ${fingerprintOf(owner)}: ${res.status}`);
      deps.keys?.learn(owner, 'accepted');
    }
    if (res.status === 401 || res.status === 403) deps.keys?.learn(owner, 'refused');
    // Refused upstream (a bad key, a bad body, too few credits): nothing charged, nothing to keep.
    if (!accepted) return answerRefused(ctx, res, owner, intent, answeredMs);
    const replayed = res.headers.get('idempotent-replayed') === 'true';
    const created = await ctx.observe(res, undefined, (task) => {
      const { sentMs, recovered } = replayed ? replayWindow(recovery, task, answeredMs) : recovery;
      return deps.library.recordCreate(owner, body, task, {
        sentMs,
        answeredMs,
        intentId: intent.id,
        recovered,
      });
    });
    return sync ? waitForTask(ctx, c.req.raw, owner, created) : created;
  };
}
