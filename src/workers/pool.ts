import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { PortMessage, WorkerReply, WorkerRequest } from './protocol.ts';

export interface WorkerPoolOptions<F> {
  /** The job module (TypeScript is fine), whose default export `serveJob` made. */
  job: URL;
  /** Threads at most, so jobs at once (default 1). */
  threads?: number;
  /**
   * Threads started with the pool and kept while idle (default 0: no thread starts before the
   * first job). One warm thread spares the first job a cold start.
   */
  warmThreads?: number;
  /** How long a thread beyond the warm ones may idle before it ends (default 1 minute). */
  idleMs?: number;
  /** Jobs that may wait for a thread (default: no bound); past it, run() rejects with WorkerPoolFullError. */
  maxQueue?: number;
  /** Turns a job's expected failure (plain data from the thread) back into its own error. */
  revive?: (failure: F) => Error;
}

interface RunOptions<P> {
  /** Called with each progress message the job posts. */
  onProgress?: (progress: P) => void;
  /**
   * Stops the job: a waiting one never starts, a running one's thread is ended (and replaced).
   * run() then rejects with the signal's reason.
   */
  signal?: AbortSignal;
  /** Stops the job as `signal` would after this long; run() rejects with a TimeoutError. */
  timeoutMs?: number;
}

/** One kind of job on worker threads. */
export interface WorkerPool<T, R, P> {
  /** Runs the task on a thread (waiting for a free one, in order). */
  run(task: T, options?: RunOptions<P>): Promise<R>;
  /** Thread id of the last finished job's worker (diagnostics: proves work left the main thread). */
  readonly lastThreadId: number | undefined;
  /** Jobs on a thread, and waiting for one. */
  readonly load: { running: number; waiting: number };
  /**
   * Stops the threads once every job under way and waiting has finished; with `dropQueued`,
   * waiting jobs are rejected instead (running ones still finish). Later runs reject.
   */
  close(options?: { dropQueued?: boolean }): Promise<void>;
}

/** run() on a pool whose queue is full. */
export class WorkerPoolFullError extends Error {
  override readonly name = 'WorkerPoolFullError';
  constructor(maxQueue: number) {
    super(`The worker pool has ${maxQueue} jobs waiting already.`);
  }
}

/**
 * Each worker job's own bundle, by the job module's source URL: defined by scripts/node-bundle.mjs
 * when this process runs from an entry bundle, so that a thread loads one file without tsx
 * (decision 0130). Undefined under tsx and Vitest, where threads load the TypeScript.
 */
declare const KILN_JOB_BUNDLES: Record<string, string> | undefined;

function jobModule(job: URL): string {
  return (
    (typeof KILN_JOB_BUNDLES === 'undefined' ? undefined : KILN_JOB_BUNDLES[job.href]) ?? job.href
  );
}

/**
 * A pool of worker threads (piscina) for one kind of job, so the thread that uses it keeps
 * answering while the job runs. Every thread starts on `worker.mjs`, which loads the job module;
 * progress comes back on a MessagePort; a thread that dies fails its job and is replaced.
 */
export function createWorkerPool<T, R, P = never, F = never>(
  options: WorkerPoolOptions<F>,
): WorkerPool<T, R, P> {
  const threads = Math.max(1, options.threads ?? 1);
  const warmThreads = Math.min(threads, Math.max(0, options.warmThreads ?? 0));
  const maxQueue = options.maxQueue ?? Infinity;
  let piscina: Piscina<WorkerRequest<T>, WorkerReply<R, F>> | undefined;
  let lastThreadId: number | undefined;
  const inFlight = new Set<Promise<unknown>>();
  let closed = false;

  const open = () => {
    if (piscina) return piscina;
    piscina = new Piscina<WorkerRequest<T>, WorkerReply<R, F>>({
      filename: new URL('./worker.mjs', import.meta.url).href,
      workerData: { job: jobModule(options.job) },
      minThreads: warmThreads,
      maxThreads: threads,
      idleTimeout: options.idleMs ?? 60_000,
    });
    // A thread that dies fails its job (run() rejects) and is replaced; without a listener the
    // pool's 'error' event would also take the whole process down.
    piscina.on('error', () => {});
    return piscina;
  };
  if (warmThreads > 0) open();

  function run(task: T, runOptions: RunOptions<P> = {}): Promise<R> {
    if (closed) return Promise.reject(new Error('The worker pool is closed.'));
    if (inFlight.size - threads >= maxQueue)
      return Promise.reject(new WorkerPoolFullError(maxQueue));
    const running = runOnThread(task, runOptions);
    const settled = running.then(
      () => {},
      () => {},
    );
    inFlight.add(settled);
    void settled.then(() => inFlight.delete(settled));
    return running;
  }

  async function runOnThread(
    task: T,
    { onProgress, signal, timeoutMs }: RunOptions<P>,
  ): Promise<R> {
    const stop =
      timeoutMs === undefined
        ? signal
        : signal
          ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
          : AbortSignal.timeout(timeoutMs);
    const { port1, port2 } = new MessageChannel();
    const ended = new Promise<void>((resolve) =>
      port1.on('message', (message: PortMessage<P>) => {
        if ('end' in message) resolve();
        else onProgress?.(message.progress);
      }),
    );
    try {
      const reply = await open().run(
        { task, port: port2 },
        { transferList: [port2], ...(stop ? { signal: stop } : {}) },
      );
      // The job posted `end` before it replied: its progress has all been told once it comes.
      await ended;
      if (!reply.ok) {
        if (options.revive) throw options.revive(reply.failure);
        throw new Error(`The job failed: ${JSON.stringify(reply.failure)}`);
      }
      lastThreadId = reply.threadId;
      return reply.value;
    } catch (error) {
      // Piscina says "aborted"; the caller's reason says why.
      if (stop?.aborted) throw stop.reason;
      throw error;
    } finally {
      port1.close();
    }
  }

  return {
    run,
    get lastThreadId() {
      return lastThreadId;
    },
    get load() {
      const running = Math.min(inFlight.size, threads);
      return { running, waiting: inFlight.size - running };
    },
    async close({ dropQueued = false } = {}) {
      closed = true;
      // Piscina's own close ends jobs that no thread has taken yet: wait for them first.
      if (!dropQueued) await Promise.all(inFlight);
      await piscina?.close({ force: dropQueued });
    },
  };
}
