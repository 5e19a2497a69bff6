// The module worker validate.ts starts for each report: it runs gltf-validator off the main
// thread, posts one summary (or failure) back and is then terminated by validate.ts.
import { validateInThread, type ValidationSummary } from './run-validator.ts';

/** validate.ts → worker: the GLB (a copy, transferred). */
export interface ValidateRequest {
  bytes: Uint8Array;
}

/** worker → validate.ts. */
export type ValidateResponse =
  { ok: true; summary: ValidationSummary } | { ok: false; message: string };

/** The parts of DedicatedWorkerGlobalScope used here (the project's lib is DOM, not WebWorker). */
interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<ValidateRequest>) => void): void;
  postMessage(message: ValidateResponse): void;
}

const scope = globalThis as unknown as WorkerScope;

scope.addEventListener('message', (event) => {
  validateInThread(event.data.bytes).then(
    (summary) => scope.postMessage({ ok: true, summary }),
    (error: unknown) =>
      scope.postMessage({
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      }),
  );
});
