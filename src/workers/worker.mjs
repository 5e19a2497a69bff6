// The worker-thread entry of every pool (see pool.ts). Plain JavaScript so that it loads in any
// host (tsx, Vitest, plain Node): when the job module the pool names in its workerData is
// TypeScript, it registers tsx in this thread first (a parent's `--import tsx` hooks do not reach
// worker threads on Node 20); a job's bundle (decision 0130) loads as it is. Then it serves it.
//
// No top-level await: piscina loads this file with require() first, then import(). With a
// top-level await, require() refuses it, and a second task arriving while the import() is still
// under way calls require() again mid-import, which crashes Node 20's require(esm) with a fatal
// error ("v8::Module::IsGraphAsync must be used on an instantiated module") that takes the whole
// process down. The job module is imported by the first task instead.
import { workerData } from 'node:worker_threads';

/** @type {Promise<(...args: unknown[]) => unknown> | undefined} */
let job;

/** The job module's default export; a job in TypeScript needs tsx in this thread, a bundle not. */
async function load(url) {
  if (/\.ts$/.test(url)) (await import('tsx/esm/api')).register();
  return (await import(url)).default;
}

export default async function handle(...args) {
  job ??= load(workerData.job);
  return (await job)(...args);
}
