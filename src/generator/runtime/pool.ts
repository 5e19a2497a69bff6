import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { GeneratorInputError } from '../core/errors.ts';
import type { GenerateHooks, GenerateJob, GenerateOutcome, WorkerTask } from './job.ts';
import type { Quality } from './quality.ts';

export interface GeneratorPoolOptions {
  /** Worker threads. Default: the number of CPUs, at most 2. */
  threads?: number;
}

/** The generator's three entry points, run on worker threads. */
export interface GeneratorPool {
  imageToGlb(image: Uint8Array, hooks?: GenerateHooks, quality?: Quality): Promise<Uint8Array>;
  viewsToGlb(
    images: readonly Uint8Array[],
    hooks?: GenerateHooks,
    quality?: Quality,
  ): Promise<Uint8Array>;
  promptToGlb(prompt: string, hooks?: GenerateHooks): Promise<Uint8Array>;
  /** Thread id of the last finished job's worker (diagnostics: proves work left the main thread). */
  readonly lastThreadId: number | undefined;
  /** Finishes queued jobs, then stops the threads. */
  close(): Promise<void>;
}

/**
 * A pool of worker threads that build models off the main thread, so a server using it keeps
 * answering requests while a model is built. Same results and errors (GeneratorInputError,
 * with its imageIndex) as calling the functions directly; `hooks.onPhase` still fires.
 */
export function createGeneratorPool(options: GeneratorPoolOptions = {}): GeneratorPool {
  const threads = Math.max(1, options.threads ?? Math.min(2, availableParallelism()));
  const pool = new Piscina<WorkerTask, GenerateOutcome>({
    filename: new URL('./worker.mjs', import.meta.url).href,
    // One thread starts at once, so the first task does not wait for a cold worker.
    minThreads: 1,
    maxThreads: threads,
    idleTimeout: 60_000,
  });
  // A worker that dies fails its job (run() rejects); without a listener the pool's 'error'
  // event would also take the whole process down.
  pool.on('error', () => {});
  let lastThreadId: number | undefined;

  async function run(job: GenerateJob, hooks: GenerateHooks = {}): Promise<Uint8Array> {
    const { port1, port2 } = new MessageChannel();
    port1.on('message', (phase: unknown) => {
      if (phase === 'processing') hooks.onPhase?.('processing');
    });
    try {
      const outcome = await pool.run({ job, port: port2 }, { transferList: [port2] });
      if (!outcome.ok) {
        const { message, imageIndex, reason } = outcome.inputError;
        throw new GeneratorInputError(message, {
          reason,
          ...(imageIndex === undefined ? {} : { imageIndex }),
        });
      }
      lastThreadId = outcome.threadId;
      return outcome.glb;
    } finally {
      port1.close();
    }
  }

  return {
    imageToGlb: (image, hooks, quality) =>
      run({ kind: 'image', image, ...(quality ? { quality } : {}) }, hooks),
    viewsToGlb: (images, hooks, quality) =>
      run({ kind: 'views', images: [...images], ...(quality ? { quality } : {}) }, hooks),
    promptToGlb: (prompt, hooks) => run({ kind: 'prompt', prompt }, hooks),
    get lastThreadId() {
      return lastThreadId;
    },
    close: () => pool.close(),
  };
}
