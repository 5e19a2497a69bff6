// A create for a vendor's model, and a poll of a vendor's task, on Kiln's one create and task
// routes (issue 34): the same promises as the spec's (an intent before anything is sent, the task
// in the library from its first answer, its GLB archived at once), through the vendor's adapter.
import { createHash, randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import {
  ERROR_CODES,
  PROVIDER_LABELS,
  parseProviderCreate,
  providerInputKind,
  providerTaskId,
  type ProviderCreateRequest,
  type VendorProvider,
} from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import type { ProviderInput, ProviderTask, ViewSide } from '../../providers/types.ts';
import type { LibraryService } from '../library/service.ts';
import type { CreateIntent, IntentStore } from '../storage/intents.ts';
import type { LibraryStore } from '../storage/library.ts';
import type { ProviderRefStore } from '../storage/provider-refs.ts';
import { providerApiError } from './errors.ts';
import { presentTask } from './present.ts';
import type { ConfiguredProvider, ProviderRegistry } from './registry.ts';
import { modelsOf, providerKey } from './routes.ts';

export interface ProviderTaskDeps {
  registry: ProviderRegistry;
  library: LibraryService;
  store: Pick<LibraryStore, 'get'>;
  intents: IntentStore;
  refs: ProviderRefStore;
  holder: string;
  now: () => number;
  log: (message: string) => void;
}

/** Kiln's views in order (the form's): front, right, back, left. */
const SIDES: readonly ViewSide[] = ['front', 'right', 'back', 'left'];

function inputOf(body: ProviderCreateRequest, kind: ProviderInput['kind']): ProviderInput {
  if (kind === 'image') return { kind, imageUrl: body.image_url! };
  if (kind === 'text') return { kind, prompt: body.prompt! };
  return { kind, views: body.image_urls!.map((url, i) => ({ side: SIDES[i] ?? null, url })) };
}

const badRequest = (message: string, param: string) =>
  new ApiError(400, { code: ERROR_CODES.invalidValue, message, param });

/** The provider, its key, the vendor's model and the input a create names, each checked. */
async function checkedCreate(deps: ProviderTaskDeps, c: Context, json: unknown) {
  const parsed = parseProviderCreate(json);
  if (!parsed.ok) throw new ApiError(400, parsed.error);
  const p = deps.registry.get(parsed.provider);
  if (!p)
    throw badRequest(
      `This Kiln does not reach ${PROVIDER_LABELS[parsed.provider]}; choose another model.`,
      'model',
    );
  const key = providerKey(c, p);
  const kind = providerInputKind(parsed.value);
  if (!kind.ok) throw new ApiError(400, kind.error);
  const models = await modelsOf(p, key);
  const model = models.find((m) => m.id === parsed.value.model);
  if (!model)
    throw badRequest(
      `${PROVIDER_LABELS[p.name]} has no model "${parsed.model}"; its models are ${models.map((m) => m.id).join(', ')}.`,
      'model',
    );
  if (!model.inputs.includes(kind.kind))
    throw badRequest(
      `${model.id} takes ${model.inputs.join(' or ')}, not ${kind.kind}.`,
      kind.kind === 'image' ? 'image_url' : kind.kind === 'text' ? 'prompt' : 'image_urls',
    );
  return {
    p,
    key,
    body: parsed.value,
    model: parsed.model,
    input: inputOf(parsed.value, kind.kind),
  };
}

function summaryOf(input: ProviderInput): string {
  if (input.kind === 'text') return input.prompt.slice(0, 120);
  const n = input.kind === 'image' ? 1 : input.views.length;
  return n === 1 ? '1 photo' : `${n} photos`;
}

/** A unique-key clash: the intent is there already (a retry, or another replica's continue). */
function isDuplicate(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === '23505' || String(code).startsWith('SQLITE_CONSTRAINT');
}

/** The intent's id: the Idempotency-Key's when there is one, so a retry finds the first attempt. */
function intentId(owner: string, idem: string | undefined): string {
  return idem
    ? `key:${createHash('sha256').update(`${owner}\n${idem}`).digest('hex')}`
    : randomUUID();
}

/** Records the intent before anything is sent; a retry finds its first attempt's (recovered). */
async function recordIntent(deps: ProviderTaskDeps, intent: CreateIntent, idem?: string) {
  try {
    await deps.intents.record(intent);
    return false;
  } catch (err) {
    if (idem && isDuplicate(err)) return true;
    throw new ApiError(
      503,
      {
        code: ERROR_CODES.serviceUnavailable,
        message:
          'Kiln cannot reach its database just now, so it sent nothing to the provider and nothing was charged. Try again in a few seconds.',
      },
      { headers: { 'retry-after': '5' }, cause: err },
    );
  }
}

/** `POST /api/v1/3d/generations` for `provider/model`: checked, intended, sent, recorded. */
export async function createProviderTask(
  deps: ProviderTaskDeps,
  c: Context,
  owner: string,
  json: unknown,
  idem: string | undefined,
): Promise<Response> {
  const { p, key, body, model, input } = await checkedCreate(deps, c, json);
  const intent: CreateIntent = {
    id: intentId(owner, idem),
    owner,
    holder: deps.holder,
    sentMs: deps.now(),
    model: body.model,
    summary: summaryOf(input),
  };
  const recovered = await recordIntent(deps, intent, idem);
  let sent: ProviderTask;
  try {
    sent = await p.adapter.create(key, model, input, { idempotencyKey: intent.id });
  } catch (err) {
    // Refused or unreachable: the vendor took nothing.
    await deps.intents.remove(intent.id).catch(() => {});
    throw providerApiError(PROVIDER_LABELS[p.name], err);
  }
  const answeredMs = deps.now();
  const task = presentTask(p.name, providerTaskId(p.name, sent.ref), body.model, sent, answeredMs);
  await deps.library
    .recordCreate(owner, body, task, {
      sentMs: intent.sentMs,
      answeredMs,
      intentId: intent.id,
      recovered,
    })
    .catch((err: unknown) => deps.log(`library: could not record ${task.id}: ${String(err)}`));
  return c.json(task, task.status === 'pending' ? 202 : 200);
}

/**
 * How long a continue may hold its intent before another poll takes it over: a continue is one
 * request to the vendor, answered in seconds; one held this long belongs to a process that died
 * between the lock and the new reference (decision 0117).
 */
export const CONTINUE_STALE_MS = 30_000;

/** What a task has cost so far: the stages before it, and this one unless the vendor refunded it. */
function costSoFar(t: ProviderTask, prior: number): ProviderTask {
  if (!t.cost) return t;
  const own = t.status === 'failed' && t.refunded ? 0 : t.cost.amount;
  return { ...t, cost: { amount: prior + own, unit: t.cost.unit } };
}

type ContinueContext = {
  id: string;
  owner: string | undefined;
  model: string;
  /** The stage that asks to go on, as polled: its ref and what it has cost. */
  from: ProviderTask;
  prior: number;
};

/**
 * Takes the lock `continue:<task>`: true when this poll holds it, either new or taken over from a
 * holder silent for CONTINUE_STALE_MS (its process died); false while another poll holds it.
 */
async function lockContinue(deps: ProviderTaskDeps, intent: CreateIntent): Promise<boolean> {
  try {
    await deps.intents.record(intent);
    return true;
  } catch (err) {
    if (!isDuplicate(err)) throw err;
  }
  const held = await deps.intents.get(intent.id);
  if (!held || intent.sentMs - held.sentMs < CONTINUE_STALE_MS) return false;
  const taken = await deps.intents.takeOver(held, deps.holder, intent.sentMs);
  if (taken) deps.log(`providers: took over the continue of ${held.summary} from ${held.holder}`);
  return taken;
}

/**
 * The next charged stage of a task that asks for one, started once across replicas: the intent
 * `continue:<task>` is the lock; whoever holds it continues and keeps the new reference. A lock
 * left by a process that died is taken over, and the vendor asked first whether that process
 * started the stage already, so it is neither lost nor charged twice (decision 0117).
 */
async function continueOnce(
  deps: ProviderTaskDeps,
  p: ConfiguredProvider,
  key: string,
  ctx: ContinueContext,
): Promise<ProviderTask | undefined> {
  if (!p.adapter.continue) return undefined;
  const intent: CreateIntent = {
    id: `continue:${ctx.id}`,
    owner: ctx.owner ?? '',
    holder: deps.holder,
    sentMs: deps.now(),
    model: ctx.model,
    summary: `the next stage of ${ctx.id}`,
  };
  if (!(await lockContinue(deps, intent))) return undefined;
  // Another poll may have moved the task on and let go of the lock since this one read the ref.
  const moved = await deps.refs.get(ctx.id);
  const next =
    moved && moved.ref !== ctx.from.ref
      ? undefined
      : ((await p.adapter.findContinued?.(key, ctx.from.ref)) ??
        (await p.adapter.continue(key, ctx.from.ref, { idempotencyKey: intent.id })));
  const prior = costSoFar(ctx.from, ctx.prior).cost?.amount ?? ctx.prior;
  if (next) await deps.refs.set(ctx.id, next.ref, deps.now(), prior);
  await deps.intents.remove(intent.id).catch(() => {});
  return next && costSoFar(next, prior);
}

/** `GET /api/v1/tasks/{provider_ref}`: the vendor asked, the answer recorded for its owner. */
export async function pollProviderTask(
  deps: ProviderTaskDeps,
  c: Context,
  owner: string | undefined,
  id: string,
  split: { provider: VendorProvider; ref: string },
): Promise<Response> {
  const p = deps.registry.get(split.provider);
  if (!p)
    throw new ApiError(404, {
      code: ERROR_CODES.taskNotFound,
      message: `This Kiln no longer reaches ${PROVIDER_LABELS[split.provider]}, so it cannot ask about ${id}.`,
    });
  const key = providerKey(c, p);
  const [row, moved] = await Promise.all([
    owner ? deps.store.get(owner, id) : undefined,
    // Only a vendor with a second stage ever moves a task on: the others' polls skip the read.
    p.adapter.continue ? deps.refs.get(id) : undefined,
  ]);
  const ref = moved?.ref ?? split.ref;
  const prior = moved?.priorCost ?? 0;
  const model = row?.model ?? `${p.name}/`;
  const label = PROVIDER_LABELS[p.name];
  const polled = await p.adapter.get(key, ref).catch((err: unknown) => {
    throw providerApiError(label, err);
  });
  let found = costSoFar(polled, prior);
  if (polled.awaitingContinue) {
    const next = await continueOnce(deps, p, key, { id, owner, model, from: polled, prior }).catch(
      (err: unknown) => {
        throw providerApiError(label, err);
      },
    );
    if (next) found = next;
  }
  const task = presentTask(p.name, id, model, found, deps.now(), row?.completedAt);
  // A continue whose process died after keeping the new reference left its lock: gone at the end.
  if (moved && task.status !== 'pending')
    await deps.intents.remove(`continue:${id}`).catch(() => {});
  if (owner)
    await deps.library
      .recordTask(owner, task)
      .catch((err: unknown) => deps.log(`library: could not record ${id}: ${String(err)}`));
  return c.json(task);
}
