import { randomBytes } from 'node:crypto';
import type { OptimiseJob, OptimisePlan } from '../../contract/index.ts';

/** A job this process runs, as it keeps it in memory. */
export interface JobEntry {
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

/** A new job, queued: `behindAnother` when another is running, so it says it waits its turn. */
export function newJobEntry(input: {
  owner: string;
  key: string;
  taskId: string;
  plan: OptimisePlan;
  nowMs: number;
  behindAnother: boolean;
}): JobEntry {
  return {
    owner: input.owner,
    key: input.key,
    job: {
      object: 'optimise_job',
      id: `opt_${randomBytes(12).toString('hex')}`,
      task_id: input.taskId,
      status: 'queued',
      progress: 0,
      stage: input.behindAnother
        ? 'Waiting for a turn (another model is being optimised)'
        : 'Queued',
      plan: input.plan,
      created_ms: input.nowMs,
      finished_ms: null,
      result: null,
      error: null,
    },
    controller: new AbortController(),
    writing: Promise.resolve(),
    writtenMs: 0,
    writtenStage: '',
  };
}

export const isUnfinished = (job: OptimiseJob) =>
  job.status === 'queued' || job.status === 'running';

/** `/api/optimise/files/{sha}.{ext}`: where a result is served. */
export const resultUrl = (sha256: string, ext: 'glb' | 'stl') =>
  `/api/optimise/files/${sha256}.${ext}`;
