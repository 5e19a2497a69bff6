import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { OptimisePlan } from '../../contract/index.ts';
import { OptimiseInputError, type OptimiseOutput, type Report } from './pipeline.ts';
import type { OptimiseOutcome, OptimiseTask, ProgressMessage } from './worker-job.ts';

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
  close(): Promise<void>;
}

/**
 * Worker threads for the optimiser (piscina, as the generator's pool), so the server keeps
 * answering while a model is simplified and its textures re-encoded. No thread starts before the
 * first job; an idle one ends after a minute.
 */
export function createOptimisePool(options: { threads?: number } = {}): OptimisePool {
  const threads = Math.max(1, options.threads ?? 1);
  let pool: Piscina<OptimiseTask, OptimiseOutcome> | undefined;
  let lastThreadId: number | undefined;
  const open = () => {
    if (pool) return pool;
    pool = new Piscina<OptimiseTask, OptimiseOutcome>({
      filename: new URL('./worker.mjs', import.meta.url).href,
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: 60_000,
    });
    // A worker that dies fails its job (run() rejects); without a listener the pool's 'error'
    // event would take the whole process down.
    pool.on('error', () => {});
    return pool;
  };
  return {
    async run(source, plan, report, signal) {
      const { port1, port2 } = new MessageChannel();
      port1.on('message', (m: ProgressMessage) => report(m.progress, m.stage));
      try {
        const outcome = await open().run(
          { source, plan, port: port2 },
          { transferList: [port2], signal },
        );
        if (!outcome.ok) throw new OptimiseInputError(outcome.inputError);
        lastThreadId = outcome.threadId;
        return outcome.output;
      } finally {
        port1.close();
      }
    },
    get lastThreadId() {
      return lastThreadId;
    },
    async close() {
      await pool?.close({ force: true });
    },
  };
}
