// Worker-thread entry of the optimiser's pool (see pool.ts). Plain JavaScript so that it loads in
// any host (tsx, Vitest, plain Node): it registers tsx in this thread for the TypeScript it
// imports (a parent's `--import tsx` hooks do not reach worker threads on Node 20).
import { register } from 'tsx/esm/api';

register();
const { workerMain } = await import('./worker-job.ts');

export default workerMain;
