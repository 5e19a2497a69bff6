export {
  createWorkerPool,
  WorkerPoolFullError,
  type RunOptions,
  type WorkerPool,
  type WorkerPoolOptions,
} from './pool.ts';
export type { JobHandler } from './protocol.ts';
export { serveJob } from './serve.ts';
