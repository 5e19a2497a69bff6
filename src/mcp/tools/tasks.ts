// Tasks and credits: `task_status` (one task, now), `wait_for_task` (until it ends, or for a
// while, with progress), `credits` (the balance, when it was true, and its recent history);
// and the wait and the answer `generate` shares.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DeadlineExceededError, NotFoundError } from '../../client/index.ts';
import { progressOf, type LibraryEntry, type Task } from '../../contract/index.ts';
import { progressFor, type McpContext, type Report } from '../context.ts';
import { archivedEntry, factsOf } from '../library.ts';
import { modelDetail, taskSummary } from '../present.ts';
import { answer, guarded } from '../results.ts';

/** How long a call waits for a task by default: under the 60 s most hosts give a call. */
export const WAIT_SECONDS = 45;
const WAIT_MAX = 900;

export const waitSeconds = (field: string) =>
  z
    .number({ error: `${field} must be a number of seconds.` })
    .int({ error: `${field} must be a whole number of seconds.` })
    .min(0, { error: `${field} must be from 0 to ${WAIT_MAX}.` })
    .max(WAIT_MAX, { error: `${field} must be from 0 to ${WAIT_MAX}.` })
    .optional();

const taskId = z
  .string({
    error: 'task_id is required: the id generate answered (task_…, or meshy_… and the like).',
  })
  .min(1, { error: 'task_id must not be empty.' })
  .describe('The task id that generate answered (`task_…`, or `meshy_…`, `tripo_…`, `fal_…`).');

/** Polls a task for at most `seconds`, telling its progress; the task as last seen. */
export async function waitUpTo(
  ctx: McpContext,
  id: string,
  seconds: number,
  report: Report,
  signal: AbortSignal,
): Promise<Task> {
  const onProgress = (t: Task) => {
    const p = progressOf(t);
    report(2 + p * 0.9, `${taskSummary(t).stage} (${Math.round(p)}%)`);
  };
  try {
    return await ctx.api.waitForTask(id, {
      deadline: Date.now() + seconds * 1000,
      intervalMs: ctx.pollMs,
      onProgress,
      signal,
    });
  } catch (err) {
    if (err instanceof DeadlineExceededError) return err.task ?? (await ctx.api.task(id));
    throw err;
  }
}

async function entryOrNull(ctx: McpContext, id: string): Promise<LibraryEntry | null> {
  try {
    return await ctx.api.library.get(id);
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

/**
 * What a wait ends with: a completed task's model (once Kiln keeps its copy) with its facts and
 * download address; a failed one's error; a running one's progress and what to call next.
 */
export async function outcome(ctx: McpContext, task: Task, report: Report, signal: AbortSignal) {
  const done = task.status === 'completed' || task.status === 'failed';
  const entry =
    task.status === 'completed'
      ? await archivedEntry(ctx.api, task.id, report, signal)
      : await entryOrNull(ctx, task.id);
  const model = entry ? modelDetail(ctx.api, entry) : null;
  const result: Record<string, unknown> = {
    done,
    task: taskSummary(task),
    model,
    download_url: model?.download_url ?? null,
  };
  if (entry && task.status === 'completed') {
    report(98, 'Reading the model’s facts');
    result.facts = await factsOf(ctx, entry);
  }
  if (!done)
    result.next = `The task is still running: call wait_for_task with task_id "${task.id}".`;
  report(100, done ? `The task ${task.status}` : 'Still running');
  return result;
}

export function registerTaskTools(server: McpServer, ctx: McpContext): void {
  const notFound = { notFound: 'task_id', params: { taskId: 'task_id', id: 'task_id' } };
  server.registerTool(
    'task_status',
    {
      title: 'Task status',
      description:
        'One generation task as it is now: status (pending, completed, failed), progress and stage, credits, error; and its library entry.',
      inputSchema: z.strictObject({ task_id: taskId }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ task_id }) =>
      guarded(notFound, async () => {
        const task = await ctx.api.task(task_id);
        const entry = await entryOrNull(ctx, task.id);
        return answer({
          task: taskSummary(task),
          model: entry ? modelDetail(ctx.api, entry) : null,
        });
      }),
  );
  server.registerTool(
    'wait_for_task',
    {
      title: 'Wait for a task',
      description: `Waits until a generation task completes or fails (at most timeout_seconds, default ${WAIT_SECONDS}), sending progress notifications; then its model with facts and download URL. A task still running after the wait is answered with done: false: call again.`,
      inputSchema: z.strictObject({
        task_id: taskId,
        timeout_seconds: waitSeconds('timeout_seconds').describe(
          `Seconds to wait at most (0–${WAIT_MAX}, default ${WAIT_SECONDS}).`,
        ),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ task_id, timeout_seconds }, extra) =>
      guarded(notFound, async () => {
        const report = progressFor(extra);
        const task = await waitUpTo(
          ctx,
          task_id,
          timeout_seconds ?? WAIT_SECONDS,
          report,
          extra.signal,
        );
        return answer(await outcome(ctx, task, report, extra.signal));
      }),
  );
  registerCredits(server, ctx);
}

const iso = (ms: number | null | undefined) => (ms == null ? null : new Date(ms).toISOString());

function registerCredits(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'credits',
    {
      title: 'Credits',
      description:
        'The credit balance, the moment it was true as of, whether it is exact (and why not), and its recent history (charges, refunds, stated figures, corrections), newest first.',
      inputSchema: z.strictObject({
        history: z
          .number({ error: 'history must be a number of entries.' })
          .int({ error: 'history must be a whole number.' })
          .min(0, { error: 'history must be from 0 to 100.' })
          .max(100, { error: 'history must be from 0 to 100.' })
          .optional()
          .describe('How many history entries to give, newest first (0–100, default 10).'),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ history }) =>
      guarded({}, async () => {
        const credits = await ctx.api.credits();
        const n = history ?? 10;
        const recent = n === 0 ? [] : credits.history.slice(-n).reverse();
        return answer({
          balance: credits.balance,
          as_of: iso(credits.as_of_ms ?? credits.learned_ms),
          exact: credits.exact ?? null,
          note: credits.note ?? null,
          stated_at: iso(credits.learned_ms),
          history: recent.map((p) => ({
            at: iso(p.learned_ms),
            kind: p.kind ?? null,
            change: p.change ?? null,
            balance: p.balance,
            task_id: p.task_id,
            ...(p.correction ? { correction: p.correction } : {}),
          })),
        });
      }),
  );
}
