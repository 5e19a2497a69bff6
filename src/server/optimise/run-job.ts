// Running one optimise job: its model read from the blob store, optimised within its time
// limit, the result stored, and the job's progress written as it goes.
import type { ErrorObject } from '../../contract/index.ts';
import type { BlobStore } from '../storage/blobs.ts';
import { failureOf, stoppedBeforeRun } from './job-failures.ts';
import { isUnfinished, resultUrl, type JobEntry } from './job-entry.ts';
import { OptimiseInputError } from './pipeline.ts';
import type { RunOptimise } from './pool.ts';

export interface RunJobDeps {
  blobs: BlobStore;
  run: RunOptimise;
  /** How long one job may run. */
  timeoutMs: number;
  now: () => number;
  log: (message: string) => void;
  /** Writes the job through (job-record.ts). */
  persist: (entry: JobEntry) => Promise<void>;
  /** Told when a job ends (the metrics). */
  onFinished?: (outcome: 'succeeded' | 'failed') => void;
}

/** Marks the entry's job failed with `error` (told to `onFinished` once); not yet written. */
function markFailed(deps: RunJobDeps, entry: JobEntry, error: ErrorObject) {
  const { job } = entry;
  if (job.status !== 'failed') deps.onFinished?.('failed');
  job.status = 'failed';
  job.error = error;
  job.stage = 'Failed';
  job.finished_ms = deps.now();
}

/** A job still waiting for its turn when Kiln stops: failed at once, saying so, and written. */
export async function failWaiting(deps: RunJobDeps, entry: JobEntry): Promise<void> {
  markFailed(deps, entry, stoppedBeforeRun());
  await deps.persist(entry);
}

/**
 * Runs the entry's job to its end (succeeded or failed, written); `stopping`: Kiln is stopping.
 * A job that already ended (failed while it waited) is left as it is.
 */
export async function runJob(
  deps: RunJobDeps,
  entry: JobEntry,
  sourceSha256: string,
  stopping: boolean,
): Promise<void> {
  const { job, controller } = entry;
  const { now, persist } = deps;
  if (!isUnfinished(job)) return;
  const fail = (error: ErrorObject) => markFailed(deps, entry, error);

  if (stopping || controller.signal.aborted) {
    fail(stoppedBeforeRun());
    await persist(entry);
    return;
  }
  job.status = 'running';
  job.stage = 'Starting';
  job.progress = 1;
  void persist(entry);
  const timer = setTimeout(() => controller.abort(new Error('timeout')), deps.timeoutMs);
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
    fail(
      failureOf(err, controller.signal, deps.timeoutMs, (e) =>
        deps.log(`job ${job.id} failed: ${String(e)}`),
      ),
    );
  } finally {
    clearTimeout(timer);
  }
  await persist(entry);
}
