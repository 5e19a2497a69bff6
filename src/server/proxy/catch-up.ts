import { TaskSchema } from '../../contract/index.ts';
import type { CatchUp } from '../library/route-deps.ts';
import type { LibraryService } from '../library/service.ts';
import { forwardRaw, type ProxyTarget } from './forward.ts';

/** A pending row not written for this long is asked about again when the library is read. */
const CATCH_UP_AFTER_MS = 5_000;
/** At most this many tasks are asked about per read, each for at most this long. */
const CATCH_UP_MAX = 8;
const CATCH_UP_TIMEOUT_MS = 4_000;

/**
 * Catching up on what Kiln missed (decision 0075): a task that completed while the database
 * was away, or after its tab closed, stays pending in the library until somebody asks. A read
 * of the library (the list, or one entry) asks the upstream, with the reader's own key, about
 * its pending rows that have not been written for a while, records the answers, and the read
 * then shows them; a completed one is archived as on any first sighting. Answers the number of
 * rows that moved.
 */
export function catchUp(deps: {
  upstream: ProxyTarget;
  library: LibraryService;
  now: () => number;
  log: (message: string) => void;
}): CatchUp {
  // Asked here lately (per task): a read every second does not ask every second.
  const asked = new Map<string, number>();
  return async (owner, incoming, rows) => {
    const now = deps.now();
    const stale = rows
      .filter(
        (r) =>
          r.status !== 'completed' &&
          r.status !== 'failed' &&
          now - Math.max(r.updatedMs, r.lastPendingMs ?? 0) > CATCH_UP_AFTER_MS &&
          now - (asked.get(r.taskId) ?? 0) > CATCH_UP_AFTER_MS,
      )
      .slice(0, CATCH_UP_MAX);
    if (stale.length === 0) return 0;
    for (const r of stale) asked.set(r.taskId, now);
    if (asked.size > 10_000)
      for (const [id, at] of asked) if (now - at > CATCH_UP_AFTER_MS) asked.delete(id);
    const headers = { authorization: incoming.headers.get('authorization') ?? '' };
    const moved = await Promise.all(
      stale.map(async (row) => {
        try {
          const res = await forwardRaw(deps.upstream, {
            incoming: new Request(new URL(incoming.url).origin, { headers }),
            path: `/tasks/${encodeURIComponent(row.taskId)}`,
            timeoutMs: CATCH_UP_TIMEOUT_MS,
          });
          if (!res.ok) {
            await res.body?.cancel();
            return false;
          }
          const task = TaskSchema.safeParse(await res.json());
          if (!task.success) return false;
          await deps.library.recordTask(owner, task.data, { waitForArchive: false });
          return task.data.status !== row.status || (task.data.progress ?? 0) !== row.progress;
        } catch (err) {
          deps.log(`library: could not catch up on ${row.taskId}: ${String(err)}`);
          return false;
        }
      }),
    );
    return moved.filter(Boolean).length;
  };
}
