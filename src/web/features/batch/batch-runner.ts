// Sends a batch: each item's photo upload and create, at most `concurrency` at once, every create
// with the item's own Idempotency-Key. A 429 pauses every start (not just the one refused) for
// its Retry-After, since the limit is the key's; other passing failures are retried with the same
// key after a backoff. A refusal for want of credits stops what has not been sent. No React, no
// storage: the controller (batch-controller.ts) gives it the item state and keeps what changes.
import { createLimiter, sleep as asyncSleep } from '../../../async/index.ts';
import {
  APIError,
  AuthenticationError,
  InsufficientCreditsError,
  backoffDelay,
  isRetryableError,
} from '../../../client/index.ts';
import { ERROR_CODES, type CreateGenerationInput } from '../../../contract/index.ts';
import { bodyOf, type Batch, type BatchItem } from './batch-store.ts';

/** How many items are sent at once. */
export const BATCH_CONCURRENCY = 3;
/** Attempts for a 429 (each after the Retry-After it asked for) and for other passing failures. */
const MAX_RATE_LIMITED_ATTEMPTS = 10;
const MAX_ATTEMPTS = 4;

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const realClock: Clock = { now: () => Date.now(), sleep: asyncSleep };

/**
 * At most `concurrency` jobs at once, and none starting while a pause (a 429's Retry-After) is
 * in force: the longest pause asked for wins.
 */
export function createPacer(
  concurrency: number,
  clock: Clock = realClock,
  onPause: (until: number | null) => void = () => {},
) {
  const limit = createLimiter(concurrency);
  let resumeAt = 0;
  let active = 0; // counted here: the limiter's own `active` is a copy made when it was created
  return {
    run: <T>(job: () => Promise<T>) =>
      limit(async () => {
        active++;
        try {
          return await job();
        } finally {
          active--;
        }
      }),
    /** Resolves once no pause is in force. */
    async ready(signal?: AbortSignal): Promise<void> {
      while (clock.now() < resumeAt) await clock.sleep(resumeAt - clock.now(), signal);
      if (resumeAt !== 0) {
        resumeAt = 0;
        onPause(null);
      }
    },
    /** Holds every start for `ms`. */
    pause(ms: number): void {
      const until = clock.now() + Math.max(0, ms);
      if (until > resumeAt) {
        resumeAt = until;
        onPause(until);
      }
    },
    get pausedUntil(): number | null {
      return resumeAt > clock.now() ? resumeAt : null;
    },
    /** Jobs holding a slot (running, or waiting out a pause). */
    get active(): number {
      return active;
    },
  };
}
export type Pacer = ReturnType<typeof createPacer>;

const isRateLimit = (err: unknown) => err instanceof APIError && err.status === 429;

/**
 * How long to wait before attempt `attempt + 1` after `err`, or undefined when it is not worth
 * another: a 429 waits its Retry-After (or a backoff when it gives none); a passing failure
 * (connection, timeout, 5xx, a create with this key still in progress) a backoff.
 */
export function retryWait(
  err: unknown,
  attempt: number,
  random: () => number = Math.random,
): number | undefined {
  if (isRateLimit(err)) {
    if (attempt + 1 >= MAX_RATE_LIMITED_ATTEMPTS) return undefined;
    return (err as APIError).retryAfterMs ?? backoffDelay(attempt, random);
  }
  if (attempt + 1 >= MAX_ATTEMPTS) return undefined;
  // The same key with another body: sending it again cannot help.
  if (err instanceof APIError && err.code === ERROR_CODES.idempotencyKeyReused) return undefined;
  return isRetryableError(err, true) ? backoffDelay(attempt, random) : undefined;
}

/** `attempt()` until it succeeds or a failure is not worth another try; 429s pause the pacer. */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  pacer: Pacer,
  options: { clock?: Clock; signal?: AbortSignal; random?: () => number } = {},
): Promise<T> {
  const clock = options.clock ?? realClock;
  for (let n = 0; ; n++) {
    await pacer.ready(options.signal);
    try {
      return await attempt();
    } catch (err) {
      if (options.signal?.aborted) throw err;
      const wait = retryWait(err, n, options.random);
      if (wait === undefined) throw err;
      if (isRateLimit(err)) pacer.pause(wait);
      else await clock.sleep(wait, options.signal);
    }
  }
}

export interface RunnerDeps {
  /** The item as it is now. */
  get(id: string): BatchItem | undefined;
  /** Applies (and keeps) a change to an item. */
  update(id: string, change: Partial<BatchItem>): void;
  /** Uploads an item's photo: the URL to send upstream and where to show it. */
  upload(
    item: BatchItem,
    signal: AbortSignal,
    onProgress: (fraction: number) => void,
  ): Promise<{ url: string; preview: string }>;
  /** POST /3d/generations with this Idempotency-Key, one attempt (this runner retries). */
  create(
    body: CreateGenerationInput,
    idempotencyKey: string,
    signal: AbortSignal,
  ): Promise<{ id: string }>;
  /** An error as the sentence the board shows. */
  describe(err: unknown): string;
  onUploadProgress?: (id: string, fraction: number) => void;
  clock?: Clock;
  random?: () => number;
}

/** Why the rest of a batch is not sent once one create was refused for good. */
function stopReason(err: unknown, said: string): string | null {
  if (err instanceof InsufficientCreditsError)
    return `Not sent: the balance ran out (${said.replace(/\.$/, '')}).`;
  if (err instanceof AuthenticationError) return `Not sent: ${said}`;
  return null;
}

/**
 * Sends these items of `batch` (those not sent yet: queued, or interrupted mid-upload or
 * mid-create by a reload, whose create goes again with the same key), through `pacer`.
 * Resolves when every one has its task or its failure; rejects only when `signal` aborts
 * (the items stay as they were, to be resumed).
 */
export async function sendItems(
  batch: Pick<Batch, 'model'>,
  ids: readonly string[],
  deps: RunnerDeps,
  pacer: Pacer,
  signal: AbortSignal,
): Promise<void> {
  let stopped: string | null = null;
  const options = {
    signal,
    ...(deps.clock ? { clock: deps.clock } : {}),
    ...(deps.random ? { random: deps.random } : {}),
  };

  async function send(id: string): Promise<void> {
    const fail = (error: string) => deps.update(id, { state: 'failed', error });
    let item = deps.get(id);
    if (!item || item.state === 'created' || item.state === 'failed') return;
    if (stopped) return fail(stopped);
    if (item.prompt === null && !item.upload) {
      deps.update(id, { state: 'uploading', error: null });
      try {
        const current = item;
        const upload = await withRetries(
          () => deps.upload(current, signal, (f) => deps.onUploadProgress?.(id, f)),
          pacer,
          options,
        );
        deps.update(id, { upload });
      } catch (err) {
        if (signal.aborted) throw err;
        return fail(deps.describe(err));
      }
      item = deps.get(id);
      if (!item) return;
      if (stopped) return fail(stopped);
    }
    // Kept before it goes: a reload from here on sends it again with the same key.
    deps.update(id, { state: 'creating', error: null });
    const sent = item;
    try {
      const task = await withRetries(
        () => deps.create(bodyOf(batch, sent), sent.idempotencyKey, signal),
        pacer,
        options,
      );
      deps.update(id, { state: 'created', taskId: task.id, error: null });
    } catch (err) {
      if (signal.aborted) throw err;
      const said = deps.describe(err);
      stopped ??= stopReason(err, said);
      fail(said);
    }
  }

  const results = await Promise.allSettled(ids.map((id) => pacer.run(() => send(id))));
  if (signal.aborted) throw signal.reason;
  const broken = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (broken) throw broken.reason;
}
