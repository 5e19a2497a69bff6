// Tripo's words in Kiln's: a task's status, its failure in a sentence, an error answer as a
// ProviderError, and Kiln's named views in Tripo's four ordered slots (decision 0111).
import { ProviderError, type ProviderTask, type ViewSide } from '../types.ts';
import { priceOfTask } from './models.ts';
import type { TripoStatus, TripoTask } from './schemas.ts';

/** Task docs: result addresses expire "by default … after five minutes". */
export const RESULT_TTL_MS = 5 * 60_000;

const FAILURES: Record<
  Exclude<TripoStatus, 'queued' | 'running' | 'success'>,
  (id: string) => string
> = {
  failed: (id) =>
    `Tripo could not make this model. Tripo does not charge for failed tasks; try again, and if it fails again, give Tripo's support the task id ${id}.`,
  banned: () =>
    'Tripo refused this input under its content policy. Change the photo or prompt and try again; Tripo does not charge for it.',
  expired: (id) =>
    `The task expired at Tripo before it finished. Try again; if it happens again, give Tripo's support the task id ${id}.`,
  cancelled: () => 'The task was cancelled at Tripo before it finished. Nothing was charged.',
  unknown: (id) =>
    `Tripo cannot say what became of this task. Kiln stops waiting for it; give Tripo's support the task id ${id} to find out whether it was charged.`,
};

/** When a signed result address stops working: its `Expires` or `X-Amz-*` parameters, else 5 min. */
function expiryOf(url: string, now: number): number {
  try {
    const q = new URL(url).searchParams;
    const expires = Number(q.get('Expires'));
    if (Number.isFinite(expires) && expires > 0) return expires * 1000;
    const date = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(q.get('X-Amz-Date') ?? '');
    const seconds = Number(q.get('X-Amz-Expires'));
    if (date && Number.isFinite(seconds)) {
      const [, y, mo, d, h, mi, s] = date.map(Number) as number[];
      return Date.UTC(y ?? 0, (mo ?? 1) - 1, d, h, mi, s) + seconds * 1000;
    }
  } catch {
    // not a URL Kiln can read: the documented default
  }
  return now + RESULT_TTL_MS;
}

function stageOf(task: TripoTask): string {
  if (task.status === 'queued') return "Waiting in Tripo's queue";
  const left = task.running_left_time ?? -1;
  return left > 0 ? `Generating (about ${left} s left)` : 'Generating';
}

/** A Tripo task in Kiln's shape, with a sentence for each way it can end without a model. */
export function taskOf(task: TripoTask, now: number): ProviderTask {
  const price = priceOfTask(task.type, task.input?.['model_version']);
  const base: ProviderTask = {
    ref: task.task_id,
    status: 'queued',
    progress: null,
    createdMs: task.create_time ? task.create_time * 1000 : null,
    cost: price === null ? null : { amount: price, unit: 'credits' },
  };
  if (task.status === 'queued' || task.status === 'running') {
    const queued = task.status === 'queued';
    const position = task.queuing_num ?? -1;
    return {
      ...base,
      status: queued ? 'queued' : 'running',
      progress: queued ? 0 : Math.max(0, Math.min(100, task.progress ?? 0)),
      queuePosition: queued && position >= 0 ? position : null,
      stage: stageOf(task),
    };
  }
  if (task.status === 'success') {
    const out = task.output ?? {};
    const glbUrl = out.pbr_model ?? out.model ?? out.base_model;
    if (!glbUrl)
      throw new ProviderError(
        'upstream_error',
        'Tripo said the task succeeded but gave no model address.',
      );
    const result = {
      glbUrl,
      thumbnailUrl: out.rendered_image ?? null,
      expiresMs: expiryOf(glbUrl, now),
    };
    return { ...base, status: 'succeeded', progress: 100, stage: null, result };
  }
  const detail = task.error_code ? ` (Tripo error ${task.error_code})` : '';
  return {
    ...base,
    status: 'failed',
    progress: null,
    stage: null,
    error: { code: `tripo_${task.status}`, message: FAILURES[task.status](task.task_id) + detail },
    refunded: task.status !== 'unknown',
  };
}

/** An error answer as Kiln's error: by Tripo's code first, by the HTTP status otherwise. */
export function errorOf(
  status: number,
  body: { code?: number; message?: string | undefined },
  retryAfterS: number | undefined,
): ProviderError {
  const code = body.code;
  const said = body.message ? ` Tripo says: “${body.message}”` : '';
  const details = { status, ...(code === undefined ? {} : { vendorCode: code }) };
  if (code === 1002 || code === 1005 || status === 401) {
    return new ProviderError(
      'invalid_key',
      `Tripo did not accept this API key (it starts with tsk_).${said}`,
      details,
    );
  }
  if (code === 2010) {
    return new ProviderError(
      'insufficient_credits',
      `Your Tripo balance does not cover this task: buy credits on Tripo's Billing page.${said}`,
      details,
    );
  }
  if (code === 2000 || status === 429) {
    const wait = retryAfterS === undefined ? 'later' : `in ${retryAfterS} s`;
    const retry = retryAfterS === undefined ? {} : { retryAfterS };
    return new ProviderError(
      'rate_limited',
      `Tripo runs at most 10 tasks at once per account (5 for P1): try again ${wait}.`,
      { ...details, ...retry },
    );
  }
  if (code === 2001 || status === 404) {
    return new ProviderError(
      'not_found',
      `Tripo does not know this task for this key.${said}`,
      details,
    );
  }
  if (status >= 500) {
    return new ProviderError(
      'upstream_error',
      `Tripo failed to answer (HTTP ${status}).${said}`,
      details,
    );
  }
  const param =
    code === 2015 || code === 2017
      ? 'model'
      : code === 2003 || code === 2004 || code === 2019
        ? 'image'
        : undefined;
  const policy = code === 2008 ? ' Tripo refused the input under its content policy.' : '';
  return new ProviderError('invalid_input', `Tripo refused the request.${policy}${said}`, {
    ...details,
    ...(param ? { param } : {}),
  });
}

/** Tripo's multiview slots, in its order. */
const SLOTS = ['front', 'left', 'back', 'right'] as const satisfies readonly ViewSide[];
/** The order Kiln's form (and the spec) gives unnamed views: front, right, back, left. */
const KILN_ORDER: readonly ViewSide[] = ['front', 'right', 'back', 'left'];

/**
 * Kiln's 2–4 views in Tripo's four slots [front, left, back, right], null where empty. A named
 * view takes its side's slot; unnamed ones take the free sides in Kiln's order. Tripo needs the
 * front and at least two views.
 */
export function slotsOf(
  views: readonly { side: ViewSide | null; url: string }[],
): (string | null)[] {
  const bad = (message: string) => new ProviderError('invalid_input', message, { param: 'views' });
  if (views.length < 2 || views.length > 4) throw bad('Tripo takes 2 to 4 views of one object.');
  const bySide = new Map<ViewSide, string>();
  for (const v of views) {
    if (!v.side) continue;
    if (bySide.has(v.side)) throw bad(`Two views say they show the ${v.side}.`);
    bySide.set(v.side, v.url);
  }
  const free = KILN_ORDER.filter((s) => !bySide.has(s));
  for (const v of views) if (!v.side) bySide.set(free.shift() ?? 'front', v.url);
  if (!bySide.has('front')) throw bad('Tripo needs a view of the front.');
  return SLOTS.map((s) => bySide.get(s) ?? null);
}
