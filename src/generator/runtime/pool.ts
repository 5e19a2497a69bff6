import { availableParallelism } from 'node:os';
import { createWorkerPool } from '../../workers/index.ts';
import {
  reviveInputFailure,
  type GenerateHooks,
  type GenerateJob,
  type GeneratorPhase,
  type InputFailure,
  type JobResult,
} from './job.ts';
import type { PhotoCutout } from '../photo/cutout.ts';
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
  /** What a photo's task would model of it (photo/cutout.ts), with its overlay picture. */
  cutout(image: Uint8Array): Promise<PhotoCutout>;
  /** Thread id of the last finished job's worker (diagnostics: proves work left the main thread). */
  readonly lastThreadId: number | undefined;
  /** Finishes queued jobs, then stops the threads. */
  close(): Promise<void>;
}

/**
 * The shared worker pool (src/workers) running the generator, so a server using it keeps
 * answering requests while a model is built. Same results and errors (GeneratorInputError,
 * with its imageIndex) as calling the functions directly; `hooks.onPhase` still fires.
 */
export function createGeneratorPool(options: GeneratorPoolOptions = {}): GeneratorPool {
  const pool = createWorkerPool<GenerateJob, JobResult, GeneratorPhase, InputFailure>({
    job: new URL('./job.ts', import.meta.url),
    threads: options.threads ?? Math.min(2, availableParallelism()),
    // One thread starts at once, so the first task does not wait for a cold worker.
    warmThreads: 1,
    revive: reviveInputFailure,
  });

  const run = async (job: GenerateJob, hooks: GenerateHooks = {}): Promise<Uint8Array> => {
    const glb = await pool.run(job, {
      onProgress: (phase) => {
        if (phase === 'processing') hooks.onPhase?.('processing');
      },
    });
    if (!(glb instanceof Uint8Array)) throw new Error(`a ${job.kind} job gave no GLB`);
    return glb;
  };

  return {
    imageToGlb: (image, hooks, quality) =>
      run({ kind: 'image', image, ...(quality ? { quality } : {}) }, hooks),
    viewsToGlb: (images, hooks, quality) =>
      run({ kind: 'views', images: [...images], ...(quality ? { quality } : {}) }, hooks),
    promptToGlb: (prompt, hooks) => run({ kind: 'prompt', prompt }, hooks),
    cutout: async (image) => {
      const cutout = await pool.run({ kind: 'cutout', image });
      if (cutout instanceof Uint8Array) throw new Error('a cutout job gave a GLB');
      return cutout;
    },
    get lastThreadId() {
      return pool.lastThreadId;
    },
    close: () => pool.close(),
  };
}
