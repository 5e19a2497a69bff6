// Optimise jobs: owner-scoped, run one or two at a time with a time limit. The jobs this process
// runs are kept in memory and written through to the database (Storage.optimiseJobs), so any
// replica answers a poll, and a restart still knows finished jobs: decisions 0069 and 0074.
import { randomBytes } from 'node:crypto';
import {
  ERROR_CODES,
  ERROR_TYPES,
  type ErrorObject,
  type OptimiseJob,
  type OptimisePlan,
} from '../../contract/index.ts';
import { createLimiter } from '../../async/index.ts';
import { ApiError } from '../../http/index.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { OptimiseJobStore, StoredOptimiseJob } from '../storage/optimise-jobs.ts';
import { OptimiseInputError } from './pipeline.ts';
import type { RunOptimise } from './pool.ts';

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
   * How often this process rewrites its unfinished jobs (default 5 s). A job not rewritten for
   * six times as long was left by a process that stopped.
   */
  heartbeatMs?: number;
}

export interface StartJob {
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
  /** The job, when it is this owner's and still remembered (by any replica). */
  get(owner: string, id: string): Promise<OptimiseJob | undefined>;
  /** Stops running jobs (they fail, saying so) and waits for them. */
  stop(): Promise<void>;
  /** Jobs running and waiting (tests, diagnostics). */
  readonly load: { running: number; waiting: number };
}

interface Entry {
  owner: string;
  /** Same owner, model and plan: the same job. */
  key: string;
  job: OptimiseJob;
  controller: AbortController;
  /** The store's writes of this job, in order. */
  writing: Promise<void>;
  /** When its progress was last written. */
  writtenMs: number;
  writtenStage: string;
}

const minutes = (ms: number) =>
  ms >= 60_000
    ? `${Math.round(ms / 60_000)} minute${ms >= 90_000 ? 's' : ''}`
    : `${Math.round(ms / 1000)} s`;

/** `/api/optimise/files/{sha}.{ext}`: where a result is served. */
export const resultUrl = (sha256: string, ext: 'glb' | 'stl') =>
  `/api/optimise/files/${sha256}.${ext}`;

export function createOptimiseJobs(deps: OptimiseJobsDeps): OptimiseJobs {
  const now = deps.now ?? Date.now;
  const log = deps.log ?? (() => {});
  const timeoutMs = deps.timeoutMs ?? 120_000;
  const keepMs = deps.keepMs ?? 60 * 60 * 1000;
  const maxWaiting = deps.maxWaiting ?? 20;
  const perOwner = deps.perOwner ?? 3;
  const { store } = deps;
  const holder = deps.holder ?? 'this-process';
  const heartbeatMs = deps.heartbeatMs ?? 5_000;
  const limiter = createLimiter(Math.max(1, deps.concurrency ?? 1));
  // Counted here: the limiter's own counts are copies taken when it was made.
  let runningCount = 0;
  let waitingCount = 0;
  const entries = new Map<string, Entry>();
  const running = new Set<Promise<void>>();
  let stopping = false;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let lastStoreSweep = 0;

  const isUnfinished = (job: OptimiseJob) => job.status === 'queued' || job.status === 'running';
  const unfinished = (e: Entry) => isUnfinished(e.job);

  /** Writes the job through to the store (in order, after the entry's earlier writes). */
  function persist(entry: Entry): Promise<void> {
    if (!store) return Promise.resolve();
    const row: StoredOptimiseJob = {
      owner: entry.owner,
      dedupeKey: entry.key,
      job: structuredClone(entry.job),
      holder,
      updatedMs: now(),
    };
    entry.writtenMs = row.updatedMs;
    entry.writtenStage = entry.job.stage;
    entry.writing = entry.writing
      .then(() => store.put(row))
      .catch((err: unknown) => log(`could not save job ${entry.job.id}: ${String(err)}`));
    return entry.writing;
  }

  /**
   * A job another process wrote: as it is, or failed when that process is gone (it stopped
   * rewriting it, or the store is this process's alone).
   */
  function asSeen(row: StoredOptimiseJob): OptimiseJob {
    const { job } = row;
    if (!isUnfinished(job) || row.holder === holder) return job;
    const gone = deps.exclusive || now() - row.updatedMs > 6 * heartbeatMs;
    if (!gone) return job;
    return {
      ...job,
      status: 'failed',
      stage: 'Failed',
      finished_ms: row.updatedMs,
      error: {
        message: 'The Kiln server that ran this job stopped before it finished. Start it again.',
        type: ERROR_TYPES.api,
        code: ERROR_CODES.optimiseFailed,
      },
    };
  }

  function sweep() {
    const t = now();
    for (const [id, e] of entries)
      if (!unfinished(e) && e.job.finished_ms !== null && t - e.job.finished_ms > keepMs)
        entries.delete(id);
    if (store && t - lastStoreSweep > 10 * 60 * 1000) {
      lastStoreSweep = t;
      store
        .sweep(t - keepMs)
        .catch((err: unknown) => log(`could not forget old jobs: ${String(err)}`));
    }
  }

  function fail(entry: Entry, error: ErrorObject) {
    if (entry.job.status !== 'failed') deps.onFinished?.('failed');
    entry.job.status = 'failed';
    entry.job.error = error;
    entry.job.stage = 'Failed';
    entry.job.finished_ms = now();
  }

  async function execute(entry: Entry, sourceSha256: string) {
    const { job, controller } = entry;
    if (stopping || controller.signal.aborted) {
      fail(entry, {
        message: 'Kiln stopped before this job ran. Start it again.',
        type: ERROR_TYPES.api,
        code: ERROR_CODES.optimiseFailed,
      });
      await persist(entry);
      return;
    }
    job.status = 'running';
    job.stage = 'Starting';
    job.progress = 1;
    void persist(entry);
    const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
    timer.unref?.();
    try {
      const source = await deps.blobs.get('assets', sourceSha256, 'glb');
      if (!source)
        throw new OptimiseInputError(
          'The model’s file is missing from the library; it cannot be optimised.',
        );
      // Stopped while the file was read: a signal already aborted may never fire again.
      controller.signal.throwIfAborted();
      const output = await deps.run(
        source,
        job.plan,
        (progress, stage) => {
          if (job.status !== 'running') return;
          job.progress = Math.max(job.progress, Math.min(99, Math.round(progress)));
          job.stage = stage;
          // Other replicas see a new stage at once, and the progress within it each second.
          if (stage !== entry.writtenStage || now() - entry.writtenMs >= 1000) void persist(entry);
        },
        controller.signal,
      );
      job.stage = 'Saving';
      void persist(entry);
      const stored = await deps.blobs.put('assets', output.file, output.format);
      const preview = output.preview
        ? await deps.blobs.put('assets', output.preview, 'glb')
        : undefined;
      job.result = {
        format: output.format,
        url: resultUrl(stored.sha256, output.format),
        preview_url: preview ? resultUrl(preview.sha256, 'glb') : resultUrl(stored.sha256, 'glb'),
        sha256: stored.sha256,
        bytes: stored.bytes,
        before: output.before,
        after: output.after,
        watertight: output.watertight,
        notes: output.notes,
      };
      job.status = 'succeeded';
      deps.onFinished?.('succeeded');
      job.progress = 100;
      job.stage = 'Done';
      job.finished_ms = now();
    } catch (err) {
      const reason = controller.signal.reason as unknown;
      if (controller.signal.aborted && reason instanceof Error && reason.message === 'timeout')
        fail(entry, {
          message: `Optimising took longer than ${minutes(timeoutMs)} and was stopped. Ask for fewer triangles or smaller textures, or try again when Kiln is less busy.`,
          type: ERROR_TYPES.api,
          code: ERROR_CODES.optimiseTimeout,
        });
      else if (controller.signal.aborted)
        fail(entry, {
          message: 'Kiln stopped while this job ran. Start it again.',
          type: ERROR_TYPES.api,
          code: ERROR_CODES.optimiseFailed,
        });
      else if (err instanceof OptimiseInputError)
        fail(entry, {
          message: err.message,
          type: ERROR_TYPES.invalidRequest,
          code: ERROR_CODES.optimiseFailed,
        });
      else {
        log(`job ${job.id} failed: ${String(err)}`);
        fail(entry, {
          message: `Optimising failed: ${err instanceof Error ? err.message : String(err)}`,
          type: ERROR_TYPES.api,
          code: ERROR_CODES.optimiseFailed,
        });
      }
    } finally {
      clearTimeout(timer);
    }
    await persist(entry);
  }

  /** Rewrites this process's unfinished jobs, so other replicas know it still runs them. */
  function beat() {
    if (!store || heartbeat) return;
    heartbeat = setInterval(() => {
      const mine = [...entries.values()].filter(unfinished);
      if (mine.length === 0) {
        clearInterval(heartbeat);
        heartbeat = undefined;
        return;
      }
      for (const e of mine) void persist(e);
    }, heartbeatMs);
    heartbeat.unref?.();
  }

  return {
    async start({ owner, taskId, sourceSha256, plan }) {
      sweep();
      const key = `${owner}\n${sourceSha256}\n${JSON.stringify(plan)}`;
      for (const e of entries.values())
        if (e.key === key && e.job.status !== 'failed') return structuredClone(e.job);
      const busy = (underWay: number) =>
        new ApiError(
          429,
          {
            code: ERROR_CODES.optimiseBusy,
            message: `You have ${underWay} optimise jobs under way; wait for one to finish.`,
          },
          { headers: { 'retry-after': '10' } },
        );
      if (!store) {
        const underWay = [...entries.values()].filter(
          (e) => e.owner === owner && unfinished(e),
        ).length;
        if (underWay >= perOwner) throw busy(underWay);
      }
      if (waitingCount >= maxWaiting)
        throw new ApiError(
          429,
          {
            code: ERROR_CODES.optimiseBusy,
            message: 'Kiln is optimising many models just now; try again in a minute.',
          },
          { headers: { 'retry-after': '30' } },
        );
      const job: OptimiseJob = {
        object: 'optimise_job',
        id: `opt_${randomBytes(12).toString('hex')}`,
        task_id: taskId,
        status: 'queued',
        progress: 0,
        stage:
          runningCount > 0 ? 'Waiting for a turn (another model is being optimised)' : 'Queued',
        plan,
        created_ms: now(),
        finished_ms: null,
        result: null,
        error: null,
      };
      const entry: Entry = {
        owner,
        key,
        job,
        controller: new AbortController(),
        writing: Promise.resolve(),
        writtenMs: 0,
        writtenStage: '',
      };
      // Counted and written in one transaction (every replica's jobs count against the key's
      // limit), before it is answered: the next poll may reach another replica.
      if (store) {
        const outcome = await store.insertIfUnder(
          { owner, dedupeKey: key, job: structuredClone(job), holder, updatedMs: now() },
          perOwner,
          { holder, sinceMs: deps.exclusive ? Number.MAX_SAFE_INTEGER : now() - 6 * heartbeatMs },
        );
        if (outcome.kind === 'existing') {
          const seen = asSeen(outcome.row);
          if (seen.status !== 'failed') return seen;
        }
        if (outcome.kind === 'full') throw busy(outcome.underWay);
        if (outcome.kind !== 'inserted') {
          // Only a job that failed since (its runner died) had the key: start afresh.
          await persist(entry);
        }
      }
      entries.set(job.id, entry);
      beat();
      waitingCount++;
      const done = limiter(async () => {
        waitingCount--;
        runningCount++;
        try {
          await execute(entry, sourceSha256);
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
      const row = await store?.get(id);
      if (!row || row.owner !== owner) return undefined;
      const job = asSeen(row);
      // Forgotten an hour after it finished, as this process forgets its own.
      if (job.finished_ms !== null && now() - job.finished_ms > keepMs) return undefined;
      return job;
    },
    async stop() {
      stopping = true;
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = undefined;
      for (const e of entries.values()) if (unfinished(e)) e.controller.abort(new Error('stop'));
      await Promise.allSettled([...running]);
      await Promise.allSettled([...entries.values()].map((e) => e.writing));
    },
    get load() {
      return { running: runningCount, waiting: waitingCount };
    },
  };
}
