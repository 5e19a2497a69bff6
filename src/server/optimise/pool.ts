import type { OptimisePlan } from '../../contract/index.ts';
import { createWorkerPool } from '../../workers/index.ts';
import { OptimiseInputError, type OptimiseOutput, type Report } from './pipeline.ts';
import type { InputFailure, OptimiseTask, ProgressMessage } from './worker-job.ts';

/** Runs one optimisation; `signal` stops it (the worker running it is ended). */
export type RunOptimise = (
  source: Uint8Array,
  plan: OptimisePlan,
  report: Report,
  signal: AbortSignal,
) => Promise<OptimiseOutput>;

export interface OptimisePool {
  run: RunOptimise;
  /** Thread id of the last finished job's worker (proves the work left the main thread). */
  readonly lastThreadId: number | undefined;
  /** Drops jobs still waiting, lets running ones end, then stops the threads. */
  close(): Promise<void>;
}

/**
 * The shared worker pool (src/workers) running the optimiser, so the server keeps answering
 * while a model is simplified and its textures re-encoded. No thread starts before the first
 * job; an idle one ends after a minute.
 */
export function createOptimisePool(options: { threads?: number } = {}): OptimisePool {
  const pool = createWorkerPool<OptimiseTask, OptimiseOutput, ProgressMessage, InputFailure>({
    job: new URL('./worker-job.ts', import.meta.url),
    threads: options.threads ?? 1,
    revive: (message) => new OptimiseInputError(message),
  });
  return {
    run: (source, plan, report, signal) =>
      pool.run({ source, plan }, { onProgress: (m) => report(m.progress, m.stage), signal }),
    get lastThreadId() {
      return pool.lastThreadId;
    },
    close: () => pool.close({ dropQueued: true }),
  };
}
