// A task's life as `generate` and `batch` both see it: sent once under its own Idempotency-Key
// (the client retries a create only with one), named and put in its collection as soon as it
// exists (so the studio's gallery shows it while it runs), then followed to its end.
import { randomUUID } from 'node:crypto';
import type { PollInterval } from '../client/index.ts';
import type { CreateBody, KilnApi } from '../client/kiln/index.ts';
import type { Collection, Task } from '../contract/index.ts';
import { CliFailure } from './exit.ts';

/** A new Idempotency-Key: one per task `kiln` means to make, kept until it is made. */
export const newIdempotencyKey = () => `kiln-cli-${randomUUID()}`;

/** Creates the task; a repeat with the same key gets the same task, charged once. */
export function createTask(
  api: KilnApi,
  body: CreateBody,
  idempotencyKey: string,
  signal?: AbortSignal,
): Promise<Task> {
  return api.create(body, { idempotencyKey, signal });
}

/** Names the model and puts it in its collection (each only when asked). */
export async function fileTask(
  api: KilnApi,
  id: string,
  name: string | null,
  collection: Collection | null,
): Promise<void> {
  if (name) await api.library.patch(id, { name });
  if (collection) await api.collections.members(collection.id, { add: [id] });
}

/** Polls the task to its end; `onTask` hears each answer. */
export function followTask(
  api: KilnApi,
  id: string,
  options: { pollMs: PollInterval | undefined; onTask: (task: Task) => void; signal?: AbortSignal },
): Promise<Task> {
  return api.waitForTask(id, {
    intervalMs: options.pollMs,
    onProgress: options.onTask,
    signal: options.signal,
  });
}

/** A failed task as the failure `kiln` ends with (exit 1), its id and code for --json. */
export function taskFailure(task: Task): CliFailure {
  const message = task.error?.message ?? 'the task failed.';
  return new CliFailure(
    'failed',
    `task ${task.id} failed: ${message}`,
    undefined,
    task.error?.code ?? undefined,
    {
      task_id: task.id,
    },
  );
}
