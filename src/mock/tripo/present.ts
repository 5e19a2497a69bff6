// A task as Tripo's task query answers it (GET /task/{task_id}): status, progress, output
// addresses that expire, the queue and time-left figures, and the error code of a failure.
import type { TripoTimings } from './catalogue.ts';
import type { TaskRecord, TripoTasks } from './tasks.ts';

export interface PresentContext {
  tasks: TripoTasks;
  timings: TripoTimings;
  ttlMs: number;
  now: () => number;
}

function statusOf(ctx: PresentContext, task: TaskRecord, t: number): string {
  if (task.final) return task.final.status;
  if (t < task.startMs) return 'queued';
  const unknownSince = task.startMs + ctx.timings.runningMs / 2;
  return task.trigger === 'unknown' && t >= unknownSince ? 'unknown' : 'running';
}

/** Task docs: 0 while queued, the progress while running, 100 on success (else meaningless). */
function progressOf(ctx: PresentContext, task: TaskRecord, status: string, t: number): number {
  if (status === 'queued') return 0;
  if (status === 'running') {
    return Math.min(99, Math.floor(((t - task.startMs) / ctx.timings.runningMs) * 100));
  }
  return 100;
}

/** The task's `data`; `mount` is where the mock is served (its result files sit under it). */
export function presentTask(ctx: PresentContext, task: TaskRecord, mount: string) {
  const t = ctx.now();
  const final = task.final;
  const status = statusOf(ctx, task, t);
  const output: Record<string, string> = {};
  if (final?.status === 'success') {
    const expires = Math.floor((final.atMs + ctx.ttlMs) / 1000);
    output[task.pbr ? 'pbr_model' : 'model'] =
      `${mount}/files/${task.id}/${task.signature}.glb?Expires=${expires}`;
  }
  return {
    task_id: task.id,
    type: task.type,
    status,
    input: task.echo,
    output,
    progress: progressOf(ctx, task, status, t),
    create_time: Math.floor(task.createdMs / 1000),
    queuing_num: status === 'queued' ? ctx.tasks.queuePosition(task, t) : -1,
    running_left_time: status === 'running' ? Math.max(1, Math.ceil((task.doneMs - t) / 1000)) : -1,
    ...(final?.errorCode ? { error_code: final.errorCode, error_msg: final.errorMsg } : {}),
  };
}
