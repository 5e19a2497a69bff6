import type { CompletedTask, Task } from '../contract/index.ts';
import type { MockStore, TaskRow } from './store.ts';

/**
 * The spec's task shape. `requestUrl` is the address the task was asked for at (its create or its
 * poll): model_url points back at this mock, wherever it is mounted.
 */
export async function presentTask(
  store: Pick<MockStore, 'account'>,
  requestUrl: string,
  task: TaskRow,
): Promise<Task> {
  const base: Task = {
    id: task.id,
    object: '3d.generation',
    status: task.status,
    progress: task.progress,
    progress_stage: task.progressStage,
    created: task.created,
    data: null,
  };
  if (task.status === 'failed')
    return { ...base, error: task.error ?? { message: 'The task failed.' } };
  if (task.status !== 'completed') return base;
  const account = task.creditsRemaining === null ? await store.account(task.keyHash) : undefined;
  const url = new URL(requestUrl);
  const root = url.pathname.replace(/\/(3d\/generations|tasks\/[^/]+)$/, '');
  const completed: CompletedTask = {
    ...base,
    object: '3d.generation',
    status: 'completed',
    created: task.created,
    completed_at: task.completedAt ?? task.created,
    data: {
      model_url: `${url.origin}${root}/files/${task.id}.glb`,
      format: 'glb',
      model: task.model,
    },
    usage: {
      credits_consumed: task.credits,
      // The balance right after this task's charge, frozen on the task (older rows: the current one).
      credits_remaining: task.creditsRemaining ?? account?.balance ?? 0,
    },
  };
  return completed;
}
