// The optimiser's job on a worker thread (see pool.ts): the module the shared pool's threads load.
import type { OptimisePlan } from '../../contract/index.ts';
import { serveJob } from '../../workers/index.ts';
import { OptimiseInputError, optimiseModel, type OptimiseOutput } from './pipeline.ts';

/** One optimisation, as sent to a worker thread. */
export interface OptimiseTask {
  source: Uint8Array;
  plan: OptimisePlan;
}

/** Progress, as a worker thread posts it. */
export interface ProgressMessage {
  progress: number;
  stage: string;
}

/** An OptimiseInputError's message: the failure that crosses the thread boundary as data. */
export type InputFailure = string;

export default serveJob<OptimiseTask, OptimiseOutput, ProgressMessage, InputFailure>(
  ({ source, plan }, report) =>
    optimiseModel(source, plan, (progress, stage) => report({ progress, stage })),
  (error) => (error instanceof OptimiseInputError ? error.message : undefined),
);
