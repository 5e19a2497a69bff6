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

const interrupted = (message: string): ErrorObject => ({
  message: `${message} Nothing is wrong with the model or the options: run it again.`,
  type: ERROR_TYPES.api,
  code: ERROR_CODES.optimiseInterrupted,
});

/** A job waiting for its turn on a Kiln server that was stopped (SIGTERM: a restart). */
export const stoppedBeforeRun = () =>
  interrupted('The Kiln server this job was waiting on was restarted before its turn came.');

/** A job running on a Kiln server that was stopped and could not finish it in time. */
const stoppedWhileRunning = () =>
  interrupted('The Kiln server optimising this model was restarted before it could finish.');

/** A job whose Kiln server went silent (killed, crashed, cut off): decision 0097. */
export const runnerGone = () =>
  interrupted(
    'The Kiln server optimising this model stopped answering before it finished (it crashed or was restarted).',
  );

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
  if (signal.aborted) return stoppedWhileRunning();
  if (err instanceof OptimiseInputError)
    return {
      message: err.message,
      type: ERROR_TYPES.invalidRequest,
      code: ERROR_CODES.optimiseFailed,
    };
  unexpected(err);
  return apiFailure(`Optimising failed: ${err instanceof Error ? err.message : String(err)}`);
}
