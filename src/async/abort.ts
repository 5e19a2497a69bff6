/** The largest delay setTimeout honours; a larger one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `promise`, but rejecting with the signal's reason as soon as the signal aborts, even when
 * whatever produces `promise` ignores the signal.
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

/** setTimeout as a promise; rejects with the signal's reason when the signal aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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

export interface AbortGroup {
  /** Aborted when the group is; the group holds it until `release` (one listener in all). */
  child(): { signal: AbortSignal; release(): void };
  abort(reason?: unknown): void;
  readonly signal: AbortSignal;
}

/**
 * One stop switch for many jobs, without adding a listener to one signal per job (which makes
 * Node warn past ten): each job takes its own child signal, and the group aborts them all.
 */
export function createAbortGroup(): AbortGroup {
  const root = new AbortController();
  const children = new Set<AbortController>();
  return {
    signal: root.signal,
    child() {
      const controller = new AbortController();
      if (root.signal.aborted) controller.abort(root.signal.reason);
      else children.add(controller);
      return { signal: controller.signal, release: () => children.delete(controller) };
    },
    abort(reason) {
      root.abort(reason);
      for (const c of children) c.abort(root.signal.reason);
      children.clear();
    },
  };
}
