// Validates a GLB with the Khronos glTF-Validator (the gltf-validator package) for the facts
// panel. In the browser it runs in a module Web Worker, so the page never stalls on a large
// model; where there is no Worker (Node, tests) it runs in this thread instead. Either way
// gltf-validator is loaded only when a report is asked for, from a chunk of its own.
import type { ValidationSummary } from './run-validator.ts';
import type { ValidateRequest, ValidateResponse } from './validate-worker.ts';

export type { ValidationSummary } from './run-validator.ts';

export interface ValidateOptions {
  /**
   * Aborting terminates the worker and rejects with the signal's reason (in-thread, without a
   * Worker, the validation runs to its end before the rejection).
   */
  signal?: AbortSignal;
}

/**
 * gltf-validator's report on `bytes`, summarised. The bytes are always read as GLB: anything
 * else resolves with errors (GLB_INVALID_MAGIC…) rather than rejecting. Rejects only when the
 * validator cannot run (the worker fails to load or crashes, the validator refuses its input)
 * or when `signal` aborts.
 *
 * The caller's bytes are left alone: a copy is transferred to the worker. Each call starts a
 * worker and terminates it once the report is in, so a crash or a runaway validation never
 * outlives its call and the validator's heap is freed; the chunk stays in the HTTP cache, so
 * a later report costs only the worker's start-up.
 */
export async function validateGlb(
  bytes: Uint8Array,
  options: ValidateOptions = {},
): Promise<ValidationSummary> {
  const { signal } = options;
  signal?.throwIfAborted();
  if (typeof Worker === 'undefined') {
    const { validateInThread } = await import('./run-validator.ts');
    const summary = await validateInThread(bytes);
    signal?.throwIfAborted();
    return summary;
  }
  return new Promise<ValidationSummary>((resolve, reject) => {
    const worker = new Worker(new URL('./validate-worker.ts', import.meta.url), {
      type: 'module',
    });
    const finish = () => {
      worker.terminate();
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      finish();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.addEventListener('message', (event: MessageEvent<ValidateResponse>) => {
      finish();
      if (event.data.ok) resolve(event.data.summary);
      else reject(new Error(event.data.message));
    });
    worker.addEventListener('messageerror', () => {
      finish();
      reject(new Error('the validator worker sent a report that could not be read'));
    });
    worker.addEventListener('error', (event: Event) => {
      event.preventDefault(); // handled here: keep it out of the console as uncaught
      finish();
      const detail =
        'message' in event && typeof event.message === 'string' && event.message
          ? event.message
          : 'it could not be loaded or crashed';
      reject(new Error(`the glTF validator worker failed: ${detail}`));
    });
    const copy = bytes.slice();
    const request: ValidateRequest = { bytes: copy };
    worker.postMessage(request, [copy.buffer]);
  });
}
