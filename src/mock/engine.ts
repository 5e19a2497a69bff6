// The mock's task engine: runs each task (task-run.ts) on this process, records how it ended
// (task-failure.ts), and resumes what a previous process left pending.
import { createAbortGroup, createLimiter, sleep as abortableSleep } from '../async/index.ts';
import { INPUT_REF } from './inputs.ts';
import type { TaskRow } from './store.ts';
import { ImageFetchError } from './fetch-image.ts';
import { TaskFailure, failureError } from './task-failure.ts';
import { runTask, type RunContext } from './task-run.ts';
import type { EngineDeps } from './engine-deps.ts';

export type { EngineDeps, Generator } from './engine-deps.ts';

export interface TaskEngine {
  start(task: TaskRow): void;
  /** Resolves when the task is no longer running here, or after `timeoutMs`. */
  settled(id: string, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Restarts every task a previous process left pending. Returns how many. */
  resumePending(): Promise<number>;
  /** Stops every job (tasks stay pending, as after a crash) and waits for them. */
  close(): Promise<void>;
}

export function createTaskEngine(deps: EngineDeps): TaskEngine {
  const sleep = deps.sleep ?? abortableSleep;
  const log = deps.log ?? (() => {});
  const running = new Map<string, Promise<void>>();
  // One stop switch; each task listens on a child signal of its own.
  const stop = createAbortGroup();

  /** An image URL's bytes: an inline input kept by the store, or a fetch. */
  async function imageBytes(url: string, signal: AbortSignal): Promise<Uint8Array> {
    if (!INPUT_REF.test(url)) return deps.fetchImage(url, signal);
    const bytes = await deps.inputs.get(url);
    if (!bytes) throw new ImageFetchError('The inline image of this task is gone.');
    return bytes;
  }

  const ctx: RunContext = {
    store: deps.store,
    files: deps.files,
    generator: deps.generator,
    speed: deps.speed,
    now: deps.now,
    sleep,
    slots: createLimiter(deps.concurrency ?? 2),
    holders: createLimiter(deps.imageConcurrency ?? 4),
    imageBytes,
  };

  /** Inline inputs no other unfinished task names are deleted once a task ends. */
  async function dropInputs(task: TaskRow) {
    const refs = [task.request.image_url, ...(task.request.image_urls ?? [])].filter(
      (u): u is string => u !== undefined && INPUT_REF.test(u),
    );
    for (const ref of new Set(refs))
      if (!(await deps.store.inputInUse(ref, task.id))) await deps.inputs.delete(ref);
  }

  function start(task: TaskRow): void {
    if (running.has(task.id)) return;
    const child = stop.child();
    const job = runTask(ctx, task, child.signal)
      .catch(async (err: unknown) => {
        if (stop.signal.aborted) return; // shutting down: the task stays pending and resumes next start
        const error = failureError(err);
        if (!(err instanceof TaskFailure)) log(`task ${task.id} crashed: ${String(err)}`);
        const refunded = await deps.store.fail(task.id, error);
        log(`task ${task.id} failed (${error.code ?? 'error'}); refunded ${refunded} credits`);
      })
      .catch((err: unknown) => log(`task ${task.id}: could not record failure: ${String(err)}`))
      .then(() => (stop.signal.aborted ? undefined : dropInputs(task)))
      .catch((err: unknown) => log(`task ${task.id}: could not drop its inputs: ${String(err)}`))
      .finally(() => {
        child.release();
        running.delete(task.id);
      });
    running.set(task.id, job);
  }

  return {
    start,
    async settled(id, timeoutMs, signal) {
      const job = running.get(id);
      if (!job) return;
      const ac = new AbortController();
      const onAbort = () => ac.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await Promise.race([job, abortableSleep(timeoutMs, ac.signal).catch(() => {})]);
      } finally {
        ac.abort();
        signal?.removeEventListener('abort', onAbort);
      }
    },
    async resumePending() {
      const pending = await deps.store.pendingTasks();
      for (const t of pending) start(t);
      if (pending.length) log(`resumed ${pending.length} pending task(s)`);
      return pending.length;
    },
    async close() {
      stop.abort(new Error('engine closed'));
      await Promise.allSettled([...running.values()]);
    },
  };
}
