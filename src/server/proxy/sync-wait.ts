// A sync create goes upstream as an async one, and Kiln waits for the task itself (polling it as
// a client would, up to the spec's 55 s): the artist gets the same answer, and a replica shutting
// down can answer the pending shape at once instead of dropping the connection (issue 25).
import { LIMITS, TaskSchema } from '../../contract/index.ts';
import type { ProxyContext } from './context.ts';
import { forwardRaw } from './forward.ts';
import { safeJson } from './observe.ts';

/** How often Kiln polls while it waits for a sync create's task (at once, then after 0.1, 0.25,
 * 0.6, 1.6 s, then every 2 s: the spec's recommended interval), up to `LIMITS.syncWaitMs`. */
const SYNC_POLL_MS = 2_000;

/** The create body with `mode: "async"` (a sync create goes upstream as an async one). */
export function asAsync(raw: ArrayBuffer): ArrayBuffer {
  const json = JSON.parse(new TextDecoder().decode(raw)) as Record<string, unknown>;
  return new TextEncoder().encode(JSON.stringify({ ...json, mode: 'async' })).buffer as ArrayBuffer;
}

/** Waits `ms`, or less when `signal` fires. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** One poll of the task, recorded; its body when it has ended, else undefined (pending, or no answer). */
async function pollOnce(
  ctx: ProxyContext,
  incoming: Request,
  owner: string,
  id: string,
): Promise<{ body: string; headers: Headers } | undefined> {
  let res: Response;
  try {
    res = await forwardRaw(ctx.deps.upstream, {
      incoming: new Request(new URL(incoming.url).origin, {
        headers: { authorization: incoming.headers.get('authorization') ?? '' },
      }),
      path: `/tasks/${encodeURIComponent(id)}`,
      timeoutMs: ctx.defaultMs,
    });
  } catch {
    return undefined; // the upstream blinked: the next poll tries again, within the wait
  }
  if (!res.ok) {
    await res.body?.cancel();
    return undefined;
  }
  const polled = await ctx.observe(res, { owner, taskId: id }, (task) =>
    ctx.deps.library.recordTask(owner, task),
  );
  const body = await polled.text();
  const task = TaskSchema.safeParse(safeJson(body));
  return task.success && task.data.status !== 'pending'
    ? { body, headers: polled.headers }
    : undefined;
}

/**
 * A sync create's answer: the task polled until it ends (200, as the upstream answers a sync
 * create that finishes), or, past the wait or when this replica shuts down, the pending shape
 * the create answered (202): the client polls on, on any replica.
 */
export async function waitForTask(
  ctx: ProxyContext,
  incoming: Request,
  owner: string,
  pending: Response,
): Promise<Response> {
  const { now, shutdown: stop } = ctx.deps;
  const text = await pending.text();
  const first = TaskSchema.safeParse(safeJson(text));
  if (!first.success || first.data.status !== 'pending')
    return new Response(text, { status: pending.status, headers: pending.headers });
  const until = now() + Math.min(ctx.syncMs, LIMITS.syncWaitMs);
  for (
    let wait = 0;
    now() < until && !stop?.aborted && !incoming.signal.aborted;
    wait = Math.min(SYNC_POLL_MS, Math.max(100, wait * 2.5))
  ) {
    await pause(wait, stop);
    if (stop?.aborted || incoming.signal.aborted) break;
    const ended = await pollOnce(ctx, incoming, owner, first.data.id);
    if (ended) return new Response(ended.body, { status: 200, headers: ended.headers });
  }
  return new Response(text, { status: 202, headers: pending.headers });
}
