// Optimise jobs: owner-scoped, run one or two at a time with a time limit. The jobs this process
// runs are kept in memory and written through to the database (Storage.optimiseJobs), so any
// replica answers a poll, and a restart still knows finished jobs: decisions 0069 and 0074; a
// replica's death or restart ends its jobs, saying to run them again: decision 0097.
// Here: admission (the same job again, the per-key and queue limits), turns, polls and stopping;
// run-job.ts runs one, job-record.ts writes them through, job-failures.ts says why one failed.
import { ERROR_CODES, type OptimiseJob, type OptimisePlan } from '../../contract/index.ts';
import { createLimiter } from '../../async/index.ts';
import { ApiError } from '../../http/index.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { OptimiseJobStore } from '../storage/optimise-jobs.ts';
import { isUnfinished, newJobEntry, type JobEntry } from './job-entry.ts';
import { createJobRecord } from './job-record.ts';
import type { RunOptimise } from './pool.ts';
import { failWaiting, runJob, type RunJobDeps } from './run-job.ts';

export interface OptimiseJobsDeps {
  blobs: BlobStore;
  run: RunOptimise;
  now?: () => number;
  /** Jobs that run at once (default 1). */
  concurrency?: number;
  /** How long one job may run (default 2 minutes). */
  timeoutMs?: number;
  /** How long a finished job is remembered (default 1 hour). */
  keepMs?: number;
  /** Jobs that may wait for a turn, all keys together (default 20). */
  maxWaiting?: number;
  /** Unfinished jobs one key may have (default 3). */
  perOwner?: number;
  log?: (message: string) => void;
  /** Where jobs are kept for every replica; without it, only this process knows them. */
  store?: OptimiseJobStore;
  /** This process's name in the store (Storage.holder). */
  holder?: string;
  /**
   * No other process shares the store (embedded SQLite): an unfinished job another holder wrote
   * was left by a process that is gone.
   */
  exclusive?: boolean;
  /** Told when a job this process ran ends (the metrics). */
  onFinished?: (outcome: 'succeeded' | 'failed') => void;
  /**
   * How often this process rewrites its unfinished jobs (default 2.5 s). A job not rewritten for
   * six times as long (15 s) was left by a process that stopped.
   */
  heartbeatMs?: number;
}

interface StartJob {
  owner: string;
  taskId: string;
  /** The archived GLB (`assets/{sha}.glb`). */
  sourceSha256: string;
  plan: OptimisePlan;
}

export interface OptimiseJobs {
  /**
   * A new job (or the same key's unfailed job for the same model and plan). Throws a 429
   * ApiError when this key or the queue has too many.
   */
  start(input: StartJob): Promise<OptimiseJob>;
  /**
   * The job, when it is this owner's and still remembered (by any replica). One whose runner went
   * silent is failed, saying to run it again, and written so.
   */
  get(owner: string, id: string): Promise<OptimiseJob | undefined>;
  /**
   * Kiln is stopping, with `graceMs` before it exits (SIGTERM): no job is taken any more (503),
   * the waiting ones fail now, and the running ones may finish until shortly before the grace
   * ends, when they are stopped and fail; each says to run it again. `stop` then waits for them.
   */
  drain(graceMs: number): void;
  /** Stops running jobs (they fail, saying so; after `drain`, at its deadline) and waits for them. */
  stop(): Promise<void>;
  /** Jobs running and waiting (tests, diagnostics). */
  readonly load: { running: number; waiting: number };
}

const busy = (underWay: number) =>
  new ApiError(
    429,
    {
      code: ERROR_CODES.optimiseBusy,
      message: `You have ${underWay} optimise jobs under way; wait for one to finish.`,
    },
    { headers: { 'retry-after': '10' } },
  );

const restarting = () =>
  new ApiError(
    503,
    {
      code: ERROR_CODES.serviceUnavailable,
      message:
        'This Kiln server is restarting; ask again in a moment and another will optimise it.',
    },
    { headers: { 'retry-after': '2' } },
  );

/** What is kept of a drain's grace to stop the running jobs and write them before the exit. */
const stopMarginMs = (graceMs: number) => Math.min(5_000, graceMs / 5);

const queueFull = () =>
  new ApiError(
    429,
    {
      code: ERROR_CODES.optimiseBusy,
      message: 'Kiln is optimising many models just now; try again in a minute.',
    },
    { headers: { 'retry-after': '30' } },
  );

export function createOptimiseJobs(deps: OptimiseJobsDeps): OptimiseJobs {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => {});
  const timeoutMs = deps.timeoutMs ?? 120_000;
  const keepMs = deps.keepMs ?? 60 * 60 * 1000;
  const maxWaiting = deps.maxWaiting ?? 20;
  const perOwner = deps.perOwner ?? 3;
  const record = createJobRecord({
    store: deps.store,
    holder: deps.holder ?? 'this-process',
    exclusive: deps.exclusive ?? false,
    heartbeatMs: deps.heartbeatMs ?? 2_500,
    now,
    log,
  });
  const runDeps: RunJobDeps = {
    blobs: deps.blobs,
    run: deps.run,
    timeoutMs,
    now,
    log,
    persist: record.persist,
    ...(deps.onFinished ? { onFinished: deps.onFinished } : {}),
  };
  const limiter = createLimiter(Math.max(1, deps.concurrency ?? 1));
  // Counted here: the limiter's own counts are copies taken when it was made.
  let runningCount = 0;
  let waitingCount = 0;
  const entries = new Map<string, JobEntry>();
  const running = new Set<Promise<void>>();
  let stopping = false;
  let draining: ReturnType<typeof setTimeout> | undefined;

  const unfinished = (e: JobEntry) => isUnfinished(e.job);
  const mine = () => [...entries.values()].filter(unfinished);

  function sweep() {
    const t = now();
    for (const [id, e] of entries)
      if (!unfinished(e) && e.job.finished_ms !== null && t - e.job.finished_ms > keepMs)
        entries.delete(id);
    record.sweep(t - keepMs);
  }

  return {
    async start({ owner, taskId, sourceSha256, plan }) {
      if (stopping) throw restarting();
      sweep();
      const key = `${owner}\n${sourceSha256}\n${JSON.stringify(plan)}`;
      for (const e of entries.values())
        if (e.key === key && e.job.status !== 'failed') return structuredClone(e.job);
      if (!deps.store) {
        const underWay = mine().filter((e) => e.owner === owner).length;
        if (underWay >= perOwner) throw busy(underWay);
      }
      if (waitingCount >= maxWaiting) throw queueFull();
      const entry = newJobEntry({
        owner,
        key,
        taskId,
        plan,
        nowMs: now(),
        behindAnother: runningCount > 0,
      });
      const { job } = entry;
      // Counted and written in one transaction (every replica's jobs count against the key's
      // limit), before it is answered: the next poll may reach another replica.
      // (Without a store nothing is awaited: a second start of the same job sees the first.)
      // (A job whose runner went silent is neither counted nor given out: decision 0097.)
      if (deps.store) {
        const outcome = await record.insertIfUnder(entry, perOwner);
        if (outcome.kind === 'existing') return record.asSeen(outcome.row);
        if (outcome.kind === 'full') throw busy(outcome.underWay);
      }
      entries.set(job.id, entry);
      record.beat(mine);
      waitingCount++;
      const done = limiter(async () => {
        waitingCount--;
        runningCount++;
        try {
          await runJob(runDeps, entry, sourceSha256, stopping);
        } finally {
          runningCount--;
        }
      }).finally(() => running.delete(done));
      running.add(done);
      return structuredClone(job);
    },
    async get(owner, id) {
      sweep();
      const e = entries.get(id);
      if (e) return e.owner === owner ? structuredClone(e.job) : undefined;
      const row = await deps.store?.get(id);
      if (!row || row.owner !== owner) return undefined;
      const job = await record.settle(row);
      // Forgotten an hour after it finished, as this process forgets its own.
      if (job.finished_ms !== null && now() - job.finished_ms > keepMs) return undefined;
      return job;
    },
    drain(graceMs) {
      if (stopping) return;
      stopping = true;
      const waiting = mine().filter((e) => e.job.status === 'queued');
      for (const e of waiting) void failWaiting(runDeps, e);
      const left = mine().length;
      const stopInMs = Math.max(0, graceMs - stopMarginMs(graceMs));
      if (waiting.length + left > 0)
        log(
          `stopping: ${waiting.length} waiting jobs failed; ${left} running may finish within ${Math.round(stopInMs / 1000)} s`,
        );
      // Still rewritten on the heartbeat meanwhile: other replicas see them alive.
      draining = setTimeout(() => {
        for (const e of mine()) e.controller.abort(new Error('stop'));
      }, stopInMs);
      draining.unref?.();
    },
    async stop() {
      const drained = stopping && draining !== undefined;
      stopping = true;
      if (!drained)
        for (const e of entries.values()) if (unfinished(e)) e.controller.abort(new Error('stop'));
      await Promise.allSettled([...running]);
      clearTimeout(draining);
      record.stop();
      await Promise.allSettled([...entries.values()].map((e) => e.writing));
    },
    get load() {
      return { running: runningCount, waiting: waitingCount };
    },
  };
}
