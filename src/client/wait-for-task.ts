import { isTerminal, LIMITS, type Task } from '../contract/index.ts';
import { DeadlineExceededError } from './errors.ts';
import type { PollInterval, RequestOptions, WaitOptions } from './types.ts';

/** Easing by 500 ms per poll within the spec's 2–5 s: 2000, 2500, 3000, … 5000, 5000. */
export function defaultPollInterval(attempt: number): number {
  return Math.min(LIMITS.pollMaxMs, LIMITS.pollMinMs + 500 * Math.max(0, attempt));
}

/** The wait before poll number `attempt + 1`. Configured values are used as given (not clamped to 2–5 s). */
function pollDelay(interval: PollInterval | undefined, attempt: number, task: Task): number {
  const configured = typeof interval === 'function' ? interval(attempt, task) : interval;
  if (configured === undefined || !Number.isFinite(configured))
    return Math.min(LIMITS.pollMaxMs, Math.max(LIMITS.pollMinMs, defaultPollInterval(attempt)));
  return Math.max(0, configured);
}

export interface PollDeps {
  getTask(id: string, opts: RequestOptions): Promise<Task>;
  /** Sleeps; throws APIUserAbortError promptly when `signal` aborts. */
  pause(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

/**
 * Polls until the task is completed or failed and returns it. `first` is a task
 * already in hand (e.g. from create): it is reported, and the first poll waits
 * one interval instead of going out at once.
 */
export async function pollTask(
  deps: PollDeps,
  id: string,
  opts: WaitOptions = {},
  first?: Task,
): Promise<Task> {
  const { signal, timeoutMs, deadline, maxRetries, intervalMs, onProgress } = opts;
  const requestOpts: RequestOptions = { signal, timeoutMs, deadline, maxRetries };
  let task = first;
  if (task) {
    onProgress?.(task);
    if (isTerminal(task)) return task;
  }
  for (let attempt = 0; ;) {
    if (task) {
      const delay = pollDelay(intervalMs, attempt++, task);
      if (deadline !== undefined && Date.now() + delay >= deadline)
        throw new DeadlineExceededError(
          `Task ${id} was still ${task.status} when the deadline passed.`,
          { task },
        );
      await deps.pause(delay, signal);
    }
    try {
      task = await deps.getTask(id, requestOpts);
    } catch (error) {
      if (error instanceof DeadlineExceededError && error.task === undefined && task)
        throw new DeadlineExceededError(
          `Task ${id} was still ${task.status} when the deadline passed.`,
          { cause: error, task },
        );
      throw error;
    }
    onProgress?.(task);
    if (isTerminal(task)) return task;
  }
}
