export { createWorkerPool, WorkerPoolFullError, type WorkerPoolOptions } from './pool.ts';
export { serveJob } from './serve.ts';
