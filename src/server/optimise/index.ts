import type { AssetSigner } from '../library/asset-access.ts';
import type { OwnerOf } from '../owner-id.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { LibraryStore } from '../storage/library.ts';
import type { OptimiseJobStore } from '../storage/optimise-jobs.ts';
import { createOptimiseJobs, type OptimiseJobs } from './jobs.ts';
import { createOptimisePool, type RunOptimise } from './pool.ts';
import { optimiseRoutes } from './routes.ts';

/** How the optimiser runs (ServerDeps.optimise). */
export interface OptimiserOptions {
  /** Jobs at once, each on its own worker thread (default 1; at most 2 is sensible on 2 cores). */
  concurrency?: number;
  /** How long one job may run (default 2 minutes). */
  timeoutMs?: number;
  /** Runs a job instead of the worker pool (tests). */
  run?: RunOptimise;
}

export interface Optimiser {
  /** Mount at `/api`. */
  routes: ReturnType<typeof optimiseRoutes>;
  jobs: OptimiseJobs;
  stop(): Promise<void>;
}

/** The optimiser: its jobs, the worker threads they run on, and its routes. */
export function createOptimiser(
  deps: {
    store: Pick<LibraryStore, 'get'>;
    blobs: BlobStore;
    ownerOf: OwnerOf;
    now?: () => number;
    log?: (message: string) => void;
    /** Where jobs are shared with other replicas (and kept across a restart). */
    jobStore?: OptimiseJobStore;
    /** This process's name in it, and whether no other process shares it. */
    holder?: string;
    exclusive?: boolean;
    /** Signs the result addresses (library/asset-access.ts). */
    signer?: AssetSigner;
    /** Told when a job ends (the metrics). */
    onFinished?: (outcome: 'succeeded' | 'failed') => void;
  } & OptimiserOptions,
): Optimiser {
  const concurrency = Math.max(1, deps.concurrency ?? 1);
  const pool = deps.run ? undefined : createOptimisePool({ threads: concurrency });
  const jobs = createOptimiseJobs({
    blobs: deps.blobs,
    run: deps.run ?? pool!.run,
    concurrency,
    ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.log ? { log: deps.log } : {}),
    ...(deps.jobStore ? { store: deps.jobStore } : {}),
    ...(deps.holder ? { holder: deps.holder } : {}),
    ...(deps.exclusive !== undefined ? { exclusive: deps.exclusive } : {}),
    ...(deps.onFinished ? { onFinished: deps.onFinished } : {}),
  });
  return {
    routes: optimiseRoutes({
      store: deps.store,
      jobs,
      ownerOf: deps.ownerOf,
      blobs: deps.blobs,
      ...(deps.signer ? { signer: deps.signer } : {}),
    }),
    jobs,
    async stop() {
      await jobs.stop();
      await pool?.close();
    },
  };
}
