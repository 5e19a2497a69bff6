import { threadId } from 'node:worker_threads';
import type { JobHandler, PortMessage } from './protocol.ts';

/**
 * The worker side of a pool's job: `work` runs the task in the worker thread, posting progress
 * with `report`; `expected` turns the errors a caller should see as its own (bad input) into
 * plain data, which the pool's `revive` turns back into an error. A job module exports the
 * result as its default: `export default serveJob(…)`.
 */
export function serveJob<T, R, P = never, F = never>(
  work: (task: T, report: (progress: P) => void) => Promise<R>,
  expected?: (error: unknown) => F | undefined,
): JobHandler<T, R, F> {
  return async ({ task, port }) => {
    const post = (message: PortMessage<P>) => port.postMessage(message);
    try {
      const value = await work(task, (progress) => post({ progress }));
      return { ok: true, value, threadId };
    } catch (error) {
      const failure = expected?.(error);
      if (failure !== undefined) return { ok: false, failure };
      throw error;
    } finally {
      post({ end: true });
      port.close();
    }
  };
}
