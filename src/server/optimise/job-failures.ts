// What a failed optimise job says, and why it failed.
import { ERROR_CODES, ERROR_TYPES, type ErrorObject } from '../../contract/index.ts';
import { OptimiseInputError } from './pipeline.ts';

const minutes = (ms: number) =>
  ms >= 60_000
    ? `${Math.round(ms / 60_000)} minute${ms >= 90_000 ? 's' : ''}`
    : `${Math.round(ms / 1000)} s`;

const apiFailure = (message: string): ErrorObject => ({
  message,
  type: ERROR_TYPES.api,
  code: ERROR_CODES.optimiseFailed,
});

/** A job Kiln stopped before it ran. */
export const stoppedBeforeRun = () =>
  apiFailure('Kiln stopped before this job ran. Start it again.');

/** A job another replica ran, which stopped before it finished. */
export const runnerGone = () =>
  apiFailure('The Kiln server that ran this job stopped before it finished. Start it again.');

/**
 * Why a running job failed: its time limit (`signal` aborted with `timeout`), Kiln stopping
 * (`signal` aborted otherwise), the model itself (OptimiseInputError), or anything else
 * (`unexpected` is told, for the log).
 */
export function failureOf(
  err: unknown,
  signal: AbortSignal,
  timeoutMs: number,
  unexpected: (err: unknown) => void,
): ErrorObject {
  const reason = signal.reason as unknown;
  if (signal.aborted && reason instanceof Error && reason.message === 'timeout')
    return {
      message: `Optimising took longer than ${minutes(timeoutMs)} and was stopped. Ask for fewer triangles or smaller textures, or try again when Kiln is less busy.`,
      type: ERROR_TYPES.api,
      code: ERROR_CODES.optimiseTimeout,
    };
  if (signal.aborted) return apiFailure('Kiln stopped while this job ran. Start it again.');
  if (err instanceof OptimiseInputError)
    return {
      message: err.message,
      type: ERROR_TYPES.invalidRequest,
      code: ERROR_CODES.optimiseFailed,
    };
  unexpected(err);
  return apiFailure(`Optimising failed: ${err instanceof Error ? err.message : String(err)}`);
}
