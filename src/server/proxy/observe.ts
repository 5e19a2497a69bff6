// An upstream task response, read (small JSON), recorded in the library, then sent on as it came.
import { TaskSchema, type Task } from '../../contract/index.ts';
import type { LibraryService } from '../library/service.ts';
import { passedBack, smallBodyText } from './forward.ts';

export type Observe = (
  upstream: Response,
  polled: { owner: string; taskId: string } | undefined,
  onTask: (task: Task) => Promise<string | undefined>,
) => Promise<Response>;

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Records what a task response says (the first sighting of a completed one waits for its
 * archive); false when the library could not take it. The answer goes on to the client either
 * way (the upstream's word is true), but a write that failed is never remembered as done: the
 * next poll of the task, or the next read of the library, writes it again (decision 0075).
 */
async function record(
  task: Task,
  recorded: () => Promise<string | undefined>,
  log: (message: string) => void,
): Promise<boolean> {
  try {
    await recorded();
    return true;
  } catch (err) {
    log(`library: could not record ${task.id}: ${String(err)}`);
    return false;
  }
}

/**
 * Observes task responses. A poll (`polled`: its owner and task) whose body is the same as the
 * last one recorded for it says nothing new, so it is not parsed again: the library's cache of
 * what was recorded (library/seen-tasks.ts) remembers it.
 */
export function taskObserver(
  library: Pick<LibraryService, 'seen'>,
  log: (message: string) => void,
): Observe {
  const seen = library.seen;
  return async (upstream, polled, onTask) => {
    const text = await smallBodyText(upstream);
    const headers = passedBack(upstream);
    if (upstream.ok && !(polled && seen.sameBody(polled.owner, polled.taskId, text))) {
      const parsed = TaskSchema.safeParse(safeJson(text));
      if (parsed.success) {
        const recorded = await record(parsed.data, () => onTask(parsed.data), log);
        if (polled && recorded) seen.rememberBody(polled.owner, polled.taskId, text);
      }
    }
    return new Response(text, { status: upstream.status, headers });
  };
}
