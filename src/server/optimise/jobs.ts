// Optimise jobs: an in-memory table, owner-scoped, run one or two at a time with a time limit.
// A job outlives its request (the browser polls it), not the process: see decision 0069.
import { randomBytes } from 'node:crypto';
import {
  ERROR_CODES,
  ERROR_TYPES,
  type ErrorObject,
  type OptimiseJob,
  type OptimisePlan,
} from '../../contract/index.ts';
import { createLimiter } from '../../async/index.ts';
import { ApiError } from '../middleware/api-error.ts';
import type { BlobStore } from '../storage/blobs.ts';
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
  start(input: StartJob): OptimiseJob;
  /** The job, when it is this owner's and still remembered. */
  get(owner: string, id: string): OptimiseJob | undefined;
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
  const limiter = createLimiter(Math.max(1, deps.concurrency ?? 1));
  // Counted here: the limiter's own counts are copies taken when it was made.
  let runningCount = 0;
  let waitingCount = 0;
  const entries = new Map<string, Entry>();
  const running = new Set<Promise<void>>();
  let stopping = false;

  const unfinished = (e: Entry) => e.job.status === 'queued' || e.job.status === 'running';

  function sweep() {
    const t = now();
    for (const [id, e] of entries)
      if (!unfinished(e) && e.job.finished_ms !== null && t - e.job.finished_ms > keepMs)
        entries.delete(id);
  }

  function fail(entry: Entry, error: ErrorObject) {
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
      return;
    }
    job.status = 'running';
    job.stage = 'Starting';
    job.progress = 1;
    const timer = setTimeout(() => controller.abort(new Error('timeout')), timeoutMs);
    timer.unref?.();
    try {
      const source = await deps.blobs.get('assets', sourceSha256, 'glb');
      if (!source)
        throw new OptimiseInputError(
          'The model’s file is missing from the library; it cannot be optimised.',
        );
      const output = await deps.run(
        source,
        job.plan,
        (progress, stage) => {
          if (job.status !== 'running') return;
          job.progress = Math.max(job.progress, Math.min(99, Math.round(progress)));
          job.stage = stage;
        },
        controller.signal,
      );
      job.stage = 'Saving';
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
  }

  return {
    start({ owner, taskId, sourceSha256, plan }) {
      sweep();
      const key = `${owner}\n${sourceSha256}\n${JSON.stringify(plan)}`;
      for (const e of entries.values())
        if (e.key === key && e.job.status !== 'failed') return structuredClone(e.job);
      const mine = [...entries.values()].filter((e) => e.owner === owner && unfinished(e));
      if (mine.length >= perOwner)
        throw new ApiError(
          429,
          {
            code: ERROR_CODES.optimiseBusy,
            message: `You have ${mine.length} optimise jobs under way; wait for one to finish.`,
          },
          { headers: { 'retry-after': '10' } },
        );
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
      const entry: Entry = { owner, key, job, controller: new AbortController() };
      entries.set(job.id, entry);
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
    get(owner, id) {
      sweep();
      const e = entries.get(id);
      return e && e.owner === owner ? structuredClone(e.job) : undefined;
    },
    async stop() {
      stopping = true;
      for (const e of entries.values()) if (unfinished(e)) e.controller.abort(new Error('stop'));
      await Promise.allSettled([...running]);
    },
    get load() {
      return { running: runningCount, waiting: waitingCount };
    },
  };
}
