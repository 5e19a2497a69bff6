// The worker-thread entry of every pool (see pool.ts). Plain JavaScript so that it loads in any
// host (tsx, Vitest, plain Node): it registers tsx in this thread for the TypeScript it imports
// (a parent's `--import tsx` hooks do not reach worker threads on Node 20), then serves the job
// module the pool names in its workerData.
//
// No top-level await: piscina loads this file with require() first, then import(). With a
// top-level await, require() refuses it, and a second task arriving while the import() is still
// under way calls require() again mid-import, which crashes Node 20's require(esm) with a fatal
// error ("v8::Module::IsGraphAsync must be used on an instantiated module") that takes the whole
// process down. The job module is imported by the first task instead.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
/** @type {Promise<(...args: unknown[]) => unknown> | undefined} */
let job;

export default async function handle(...args) {
  job ??= import(workerData.job).then((module) => module.default);
  return (await job)(...args);
}
