import type { MessagePort } from 'node:worker_threads';

/** What the pool sends a worker thread: the task, and the port its progress goes back on. */
export interface WorkerRequest<T> {
  task: T;
  port: MessagePort;
}

/**
 * What a worker thread sends back. Errors do not keep their class across threads, so a job's
 * expected failures (bad input) come back as plain data, for the pool to revive; anything else
 * the job throws rejects the run as it is.
 */
export type WorkerReply<R, F> =
  { ok: true; value: R; threadId: number } | { ok: false; failure: F };

/** A job module's default export: what `serveJob` makes and the pool's threads call. */
export type JobHandler<T, R, F> = (request: WorkerRequest<T>) => Promise<WorkerReply<R, F>>;

/**
 * What a job posts on its port: its progress, then `end` once before it replies (the reply comes
 * on another channel, which may overtake the port: the pool waits for `end`, so no progress is
 * lost).
 */
export type PortMessage<P> = { progress: P } | { end: true };
