// The worker-thread entry of every pool (see pool.ts). Plain JavaScript so that it loads in any
// host (tsx, Vitest, plain Node): it registers tsx in this thread for the TypeScript it imports
// (a parent's `--import tsx` hooks do not reach worker threads on Node 20), then serves the job
// module the pool names in its workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { default: handler } = await import(workerData.job);

export default handler;
