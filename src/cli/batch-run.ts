// One photo of a batch, from wherever the last run left it (batch-state.ts): uploaded, its key
// written down, created, filed in its collection, followed to its end and downloaded. Each step
// is written to the state before the next one can be interrupted.
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { sleep } from '../async/index.ts';
import {
  APIError,
  AuthenticationError,
  backoffDelay,
  InsufficientCreditsError,
  RateLimitError,
  RETRY,
} from '../client/index.ts';
import type { PollInterval } from '../client/index.ts';
import type { KilnApi } from '../client/kiln/index.ts';
import type { Collection } from '../contract/index.ts';
import { itemFor, sha256Of, type BatchItem, type BatchState } from './batch-state.ts';
import { failureOf, type Failure } from './exit.ts';
import { sendPhoto, type Photo } from './inputs.ts';
import { modelFileName, modelOf, writeOut } from './model-file.ts';
import { taskState, type Board } from './progress.ts';
import { createTask, fileTask, followTask, newIdempotencyKey } from './tasks.ts';

export interface BatchRun {
  api: KilnApi;
  pollMs: PollInterval | undefined;
  model: string;
  collection: Collection | null;
  outDir: string;
  state: BatchState;
  save(): void;
  board: Board;
  signal: AbortSignal;
  /** Set by a refusal that holds for every photo (no credits, a wrong key): the rest wait. */
  stopped: Failure | null;
  /** Each photo's failure, by file name. */
  failures: Map<string, Failure>;
}

/**
 * A refusal after which no task exists: Kiln or the upstream answered the create with a 4xx
 * that is not "in progress" (409) or "slow down" (429). Its key may be dropped: a new run sends
 * the photo afresh. Anything else (no answer, a kill, a 5xx) keeps the key.
 */
const refusedForGood = (err: unknown) =>
  err instanceof APIError &&
  err.status >= 400 &&
  err.status < 500 &&
  ![408, 409, 429].includes(err.status);

/** Tries a 429 (Kiln's upload and create limits are per minute) this many times. */
const RATE_LIMITED_ATTEMPTS = 10;

/**
 * `attempt()`, waiting out a 429 for as long as it asks (a batch of more photos than a minute's
 * limit takes longer rather than failing); any other failure goes out at once.
 */
async function paced<T>(attempt: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof RateLimitError) || n + 1 >= RATE_LIMITED_ATTEMPTS) throw err;
      await sleep(Math.min(err.retryAfterMs ?? backoffDelay(n), RETRY.maxRetryAfterMs), signal);
    }
  }
}

/** Sends the create once its key is written down; the task's id is written down at once. */
async function send(run: BatchRun, item: BatchItem, photo: Photo, index: number): Promise<void> {
  run.board.set(index, { text: 'uploading' });
  // Uploaded again (content-addressed: the same address), so the photo is there to fetch; the
  // create names the address written down the first time, so a repeat's body is the same.
  const uploaded = await paced(() => sendPhoto(run.api, photo, run.signal), run.signal);
  const url = item.upload_url ?? uploaded;
  item.idempotency_key ??= newIdempotencyKey();
  item.upload_url = url;
  item.status = 'sending';
  item.error = null;
  run.save();
  run.board.set(index, { text: 'sending' });
  try {
    const key = item.idempotency_key;
    const body = { model: item.model, image_url: url };
    const task = await paced(() => createTask(run.api, body, key, run.signal), run.signal);
    item.task_id = task.id;
    item.status = 'pending';
  } catch (err) {
    if (refusedForGood(err)) {
      item.idempotency_key = null;
      item.status = 'new';
    }
    throw err;
  } finally {
    run.save();
  }
}

/** Follows the task to its end and writes its model. */
async function finish(run: BatchRun, item: BatchItem, index: number): Promise<void> {
  const id = item.task_id!;
  if (run.collection && item.collection_id !== run.collection.id) {
    await fileTask(run.api, id, null, run.collection);
    item.collection_id = run.collection.id;
    run.save();
  }
  const task = await followTask(run.api, id, {
    pollMs: run.pollMs,
    signal: run.signal,
    onTask: (t) => run.board.set(index, taskState(t, false)),
  });
  if (task.status !== 'completed') {
    item.status = 'failed';
    item.error = task.error?.message ?? 'the task failed.';
    run.save();
    run.failures.set(item.file, failureOf(new Error(item.error)));
    return;
  }
  item.status = 'completed';
  run.board.set(index, { text: 'downloading' });
  const { entry, bytes } = await modelOf(run.api, id, run.signal);
  const file = join(run.outDir, modelFileName(entry));
  writeOut(file, bytes, '--out');
  item.out = file;
  run.save();
  run.board.set(index, { text: `done → ${basename(file)}` });
}

/** One photo, from wherever its item stands; a failure is kept on the item, not thrown. */
export async function runItem(run: BatchRun, photo: Photo, index: number): Promise<BatchItem> {
  const item = itemFor(run.state, photo.name, sha256Of(photo.bytes), run.model);
  if (item.status === 'completed' && item.out && existsSync(item.out)) {
    run.board.set(index, { text: `done earlier → ${basename(item.out)}` });
    return item;
  }
  if (item.status === 'failed' && item.task_id) {
    run.board.set(index, { text: `failed earlier: ${item.error ?? ''}` });
    run.failures.set(item.file, failureOf(new Error(item.error ?? 'the task failed.')));
    return item;
  }
  try {
    if (!item.task_id) {
      if (run.stopped) throw run.stopped;
      await send(run, item, photo, index);
    }
    await finish(run, item, index);
  } catch (err) {
    if (run.signal.aborted) throw err;
    const failure = isFailure(err) ? err : failureOf(err);
    if (err instanceof InsufficientCreditsError || err instanceof AuthenticationError)
      run.stopped ??= failure;
    item.error = failure.message;
    run.save();
    run.failures.set(item.file, failure);
    run.board.set(index, { text: `${item.task_id ? 'failed' : 'not sent'}: ${failure.message}` });
  }
  return item;
}

const isFailure = (value: unknown): value is Failure =>
  typeof value === 'object' && value !== null && 'exit_code' in value && 'kind' in value;
