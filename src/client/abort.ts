import { APIUserAbortError } from './errors.ts';

/** The largest delay setTimeout honours; a larger one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `promise`, but rejecting with the signal's reason as soon as the signal
 * aborts, even when whatever produces `promise` ignores the signal.
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as unknown);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

export function userAbortError(signal: AbortSignal): APIUserAbortError {
  return new APIUserAbortError('The request was aborted.', { cause: signal.reason });
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw userAbortError(signal);
}

/** setTimeout as a promise that rejects with the signal's reason when it aborts. */
export function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as unknown);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as unknown);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(Math.max(0, ms), MAX_TIMER_MS),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
