import { threadId, type MessagePort } from 'node:worker_threads';
import type { OptimisePlan } from '../../contract/index.ts';
import { OptimiseInputError, optimiseModel, type OptimiseOutput } from './pipeline.ts';

/** One optimisation, as sent to a worker thread. */
export interface OptimiseTask {
  source: Uint8Array;
  plan: OptimisePlan;
  /** Where progress goes: `{ progress, stage }` messages. */
  port: MessagePort;
}

/** Progress, as a worker thread posts it. */
export interface ProgressMessage {
  progress: number;
  stage: string;
}

/** An outcome as a worker thread sends it back (errors do not keep their class across threads). */
export type OptimiseOutcome =
  { ok: true; output: OptimiseOutput; threadId: number } | { ok: false; inputError: string };

/** Entry point inside a worker thread (see worker.mjs). */
export async function workerMain({ source, plan, port }: OptimiseTask): Promise<OptimiseOutcome> {
  try {
    const output = await optimiseModel(source, plan, (progress, stage) =>
      port.postMessage({ progress, stage } satisfies ProgressMessage),
    );
    return { ok: true, output, threadId };
  } catch (err) {
    if (err instanceof OptimiseInputError) return { ok: false, inputError: err.message };
    throw err;
  } finally {
    port.close();
  }
}
