import { MAX_TIMER_MS, raceSignal, sleep } from '../async/index.ts';
import { APIUserAbortError } from './errors.ts';

export { MAX_TIMER_MS, raceSignal };
/** setTimeout as a promise that rejects with the signal's reason when it aborts. */
export const defaultSleep = sleep;

export function userAbortError(signal: AbortSignal): APIUserAbortError {
  return new APIUserAbortError('The request was aborted.', { cause: signal.reason });
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw userAbortError(signal);
}
