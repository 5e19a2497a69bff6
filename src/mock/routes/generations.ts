import { createHash, randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  canonicalJson,
  ERROR_CODES,
  IDEMPOTENCY_WINDOW_MS,
  parseCreateRequest,
  STAGES,
  type CreateGenerationRequest,
  type PendingTask,
} from '../../contract/index.ts';
import { ApiError, idempotencyKeyOf, idempotencyKeyReused } from '../../http/index.ts';
import type { KeyEnv } from '../auth.ts';
import type { TaskEngine } from '../engine.ts';
import { inlineImages } from '../inline-images.ts';
import type { InputFiles } from '../inputs.ts';
import { presentTask } from '../present-task.ts';
import { CREDITS_PER_TASK } from '../pricing.ts';
import type { MockStore, TaskRow } from '../store.ts';

/** `application/json`, with or without parameters, or any `+json` type. */
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

export interface GenerationDeps {
  store: MockStore;
  engine: TaskEngine;
  inputs: InputFiles;
  now: () => number;
  /** How long a sync create blocks at most. */
  syncWaitMs: number;
  /** Largest create body accepted (data: URIs make bodies big). */
  maxBodyBytes: number;
}

type NewTask = Parameters<MockStore['createTask']>[0];
type Refused = Exclude<Awaited<ReturnType<MockStore['createTask']>>, { ok: true }>;

/** The task a create makes, priced, with its Idempotency-Key (scoped to a day) when it has one. */
function newTask(
  req: CreateGenerationRequest,
  stored: NewTask['request'],
  keyHash: string,
  nowMs: number,
  idem: { key: string; text: string } | undefined,
): NewTask {
  return {
    id: `task_${randomBytes(12).toString('hex')}`,
    keyHash,
    model: req.model,
    request: stored,
    mode: req.mode ?? 'async',
    price: CREDITS_PER_TASK[req.model],
    created: Math.floor(nowMs / 1000),
    stage: STAGES[0].label,
    ...(idem !== undefined && {
      idempotency: {
        key: idem.key,
        bodySha256: createHash('sha256').update(canonicalJson(idem.text)).digest('hex'),
        sinceMs: nowMs - IDEMPOTENCY_WINDOW_MS,
        nowMs,
      },
    }),
  };
}

/** The answer to a create: the pending shape, or after a sync wait, the task as it stands. */
async function answer(
  deps: GenerationDeps,
  c: Context,
  task: TaskRow,
  sync: boolean,
): Promise<Response> {
  if (sync) {
    await deps.engine.settled(task.id, deps.syncWaitMs, c.req.raw.signal);
    const now = await deps.store.task(task.id);
    if (now && now.status !== 'pending')
      return c.json(await presentTask(deps.store, c.req.url, now), 200);
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
 * A create the store refused: 402 for want of credits, 409 for a reused Idempotency-Key; a
 * repeat is answered as the first was (or, while a sync create still waits, with the same wait).
 */
function refusedAnswer(
  deps: GenerationDeps,
  c: Context,
  created: Refused,
  req: CreateGenerationRequest,
): Promise<Response> | Response {
  if (created.reason === 'insufficient_credits')
    throw new ApiError(402, {
      code: ERROR_CODES.insufficientCredits,
      message: `Not enough credits: ${req.model} costs ${created.price} credits and the balance is ${created.balance}.`,
    });
  if (created.reason === 'idempotency_mismatch') throw idempotencyKeyReused();
  c.header('Idempotent-Replayed', 'true');
  if (created.response)
    return c.body(created.response.json, created.response.status as ContentfulStatusCode, {
      'content-type': 'application/json',
    });
  return answer(deps, c, created.task, req.mode === 'sync');
}

/** `POST /3d/generations`: checked, charged and started in one step, then answered. */
function createRoute(deps: GenerationDeps) {
  return async (c: Context<KeyEnv>) => {
    const idem = idempotencyKeyOf(c);
    const text = await jsonText(c);
    const req = createRequestOf(text);
    const inline = inlineImages(req);
    const keyHash = c.get('keyHash');
    const key = idem === undefined ? undefined : { key: idem, text };
    const created = await deps.store.createTask(
      newTask(req, inline.request, keyHash, deps.now(), key),
    );
    if (!created.ok) return refusedAnswer(deps, c, created, req);
    // Kept only once the task exists: a refused create (402, 409, a replay) leaves nothing.
    for (const bytes of inline.blobs) await deps.inputs.put(bytes);
    deps.engine.start(created.task);
    const res = await answer(deps, c, created.task, req.mode === 'sync');
    if (idem !== undefined)
      await deps.store.saveIdempotentResponse(keyHash, idem, res.status, await res.clone().text());
    return res;
  };
}

/**
 * `POST /3d/generations`: checks the request, charges the price and starts the task in one
 * step (or refuses it: 402, a reused Idempotency-Key 409, a repeat replays the first answer), and
 * answers pending (202) or, in sync mode, the task once it ends or the wait runs out.
 */
export function generationRoutes(deps: GenerationDeps) {
  const tooLarge = bodyLimit({
    maxSize: deps.maxBodyBytes,
    onError: () =>
      new ApiError(413, {
        code: ERROR_CODES.bodyTooLarge,
        message: 'The request body is too large.',
      }).getResponse(),
  });
  return new Hono<KeyEnv>().post('/3d/generations', tooLarge, createRoute(deps));
}

/** The body as text, once it is said to be JSON (415 otherwise). */
async function jsonText(c: Context): Promise<string> {
  if (!JSON_TYPE.test(c.req.header('content-type') ?? ''))
    throw new ApiError(415, {
      code: ERROR_CODES.unsupportedMediaType,
      message: 'Send the request body as JSON, with "Content-Type: application/json".',
    });
  return c.req.text();
}

/** The create request in the body: JSON (400 otherwise) that the contract accepts (400 naming the field). */
function createRequestOf(text: string): CreateGenerationRequest {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError(400, {
      code: ERROR_CODES.invalidJson,
      message: 'The request body is not valid JSON.',
    });
  }
  const parsed = parseCreateRequest(body);
  if (!parsed.ok) throw new ApiError(400, parsed.error);
  return parsed.value;
}
