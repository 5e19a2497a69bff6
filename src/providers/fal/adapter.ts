// The fal provider: fal's queue API through its official client (@fal-ai/client), pointed at
// FAL_API_URL by its request middleware, with every HTTP answer checked here (zod) and every
// error turned into a ProviderError before the client's own retries could resend a submit.
import { createFalClient, type FalClient } from '@fal-ai/client';
import {
  ProviderError,
  type AdapterDeps,
  type ProviderAdapter,
  type ProviderBalance,
  type ProviderTask,
} from '../types.ts';
import { errorFromResponse, failureOf, FalHttpError } from './errors.ts';
import { FAL_MODELS, listedModels, requestFor } from './models.ts';
import {
  BillingSchema,
  ResultSchema,
  StatusSchema,
  SubmitSchema,
  type FalStatus,
} from './schemas.ts';

/** fal's queue, the default of FAL_API_URL. */
export const FAL_DEFAULT_API_URL = 'https://queue.fal.run';
/** fal's Platform API (account billing), the default of FAL_PLATFORM_API_URL. */
export const FAL_DEFAULT_PLATFORM_URL = 'https://api.fal.ai/v1';
/** How long fal keeps a result's files: asked for with every submit, so Kiln knows the expiry. */
export const FAL_RESULT_LIFETIME_S = 86_400;

/** fal's keys are `<key id (UUID)>:<key secret (hex)>`; the dashboard shows them whole. */
const KEY_PATTERN =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:[0-9a-f]{16,128}$/i;

export interface FalAdapterDeps extends AdapterDeps {
  /** Where fal's Platform API is (its account billing): FAL_PLATFORM_API_URL. */
  platformUrl?: string;
}

/** What `get` needs again: the endpoint, the request id and when it was submitted. */
interface Ref {
  modelId: string;
  requestId: string;
  submittedMs: number;
}

const encodeRef = (r: Ref) => `${r.requestId}~${r.submittedMs}~${r.modelId.replaceAll('/', '~')}`;

function decodeRef(ref: string): Ref {
  const [requestId, ms, ...model] = ref.split('~');
  const submittedMs = Number(ms);
  if (!requestId || !Number.isFinite(submittedMs) || model.length < 2) {
    throw new ProviderError('not_found', 'This is not a fal task reference Kiln made.');
  }
  return { requestId, submittedMs, modelId: model.join('/') };
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

export function createFalAdapter(deps: FalAdapterDeps): ProviderAdapter {
  const baseUrl = trimSlash(deps.baseUrl);
  const platformUrl = trimSlash(deps.platformUrl ?? FAL_DEFAULT_PLATFORM_URL);
  const now = deps.now ?? Date.now;
  const guarded = guardedFetch(deps.fetch ?? fetch, now);
  const client = (key: string): FalClient =>
    createFalClient({
      credentials: key,
      fetch: guarded,
      // The client builds https://queue.fal.run/… addresses; this moves them to FAL_API_URL.
      requestMiddleware: (req) =>
        Promise.resolve({ ...req, url: req.url.replace(/^https:\/\/queue\.fal\.run/, baseUrl) }),
    });
  return {
    name: 'fal',
    label: 'fal',
    recognisesKey: (key) => KEY_PATTERN.test(key.trim()),
    models: () => Promise.resolve(listedModels()),
    async create(key, modelId, input, options) {
      const { model, body } = requestFor(modelId, input);
      const submittedMs = now();
      const raw: unknown = await client(key).queue.submit(model.id as 'fal-ai/trellis', {
        input: body as never,
        storageSettings: { expiresIn: FAL_RESULT_LIFETIME_S },
        ...(options?.signal ? { abortSignal: options.signal } : {}),
      });
      const submitted = parse(SubmitSchema, raw, 'submit');
      const ref = encodeRef({ modelId: model.id, requestId: submitted.request_id, submittedMs });
      return {
        ref,
        status: 'queued',
        progress: null,
        queuePosition: submitted.queue_position ?? null,
        logs: [],
        createdMs: submittedMs,
        cost: { amount: model.price[input.kind] ?? 0, unit: 'USD' },
      };
    },
    get: async (key, ref, signal) => getTask(client(key), decodeRef(ref), ref, signal),
    balance: (key, signal) => readBalance(guarded, platformUrl, key, now, signal),
  };
}

/** A fetch that turns every non-2xx answer and every network failure into a ProviderError. */
function guardedFetch(base: typeof fetch, now: () => number): typeof fetch {
  return async (input, init) => {
    let res: Response;
    try {
      res = await base(input, init);
    } catch (err) {
      if (init?.signal?.aborted) throw err;
      const why = err instanceof Error ? err.message : String(err);
      throw new ProviderError('unreachable', `fal could not be reached: ${why}`);
    }
    if (!res.ok) throw await errorFromResponse(res, now());
    return res;
  };
}

function parse<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: Error } },
  raw: unknown,
  what: string,
): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw new ProviderError(
      'upstream_error',
      `fal's ${what} answer was not what its docs describe: ${parsed.error.message}`,
    );
  }
  return parsed.data;
}

async function getTask(
  fal: FalClient,
  ref: Ref,
  refText: string,
  signal?: AbortSignal,
): Promise<ProviderTask> {
  const raw: unknown = await fal.queue.status(ref.modelId, {
    requestId: ref.requestId,
    logs: true,
    ...(signal ? { abortSignal: signal } : {}),
  });
  const status = parse(StatusSchema, raw, 'status');
  const price = FAL_MODELS.find((m) => m.id === ref.modelId)?.price;
  const amount = price ? (Object.values(price)[0] ?? 0) : 0;
  const base: ProviderTask = {
    ref: refText,
    status: 'queued',
    progress: null,
    logs: (status.logs ?? []).map((l) => l.message),
    createdMs: ref.submittedMs,
    cost: { amount, unit: 'USD' },
  };
  if (status.status === 'IN_QUEUE')
    return { ...base, queuePosition: status.queue_position ?? null };
  if (status.status === 'IN_PROGRESS')
    return { ...base, status: 'running', stage: stageOf(status) };
  if (status.status !== 'COMPLETED') {
    const code = `fal_${status.status.toLowerCase()}`;
    const message = `fal reports this request as ${status.status}, which Kiln does not know; it is treated as failed.`;
    return { ...base, status: 'failed', error: { code, message }, refunded: false };
  }
  return completed(fal, ref, base, status, signal);
}

/** The latest log line, as the stage a person reads ("Sampling sparse structure"). */
function stageOf(status: FalStatus): string | null {
  const last = status.logs?.at(-1)?.message.trim();
  if (!last) return null;
  return last.length > 80 ? `${last.slice(0, 79)}…` : last;
}

async function completed(
  fal: FalClient,
  ref: Ref,
  base: ProviderTask,
  status: FalStatus,
  signal?: AbortSignal,
): Promise<ProviderTask> {
  let data: unknown;
  try {
    const result = await fal.queue.result(ref.modelId as 'fal-ai/trellis', {
      requestId: ref.requestId,
      ...(signal ? { abortSignal: signal } : {}),
    });
    data = result.data;
  } catch (err) {
    // The request's own failure is its result's HTTP error; a call that failed is rethrown.
    const status = err instanceof FalHttpError ? err.details.status : undefined;
    if (
      !(err instanceof FalHttpError) ||
      status === undefined ||
      [401, 403, 404, 429].includes(status)
    )
      throw err;
    const failure = failureOf(status, err.details.vendorCode?.toString(), err.detail);
    const { code, message, refunded } = failure;
    return {
      ...base,
      status: 'failed',
      error: { code, message },
      refunded,
      ...(refunded ? { cost: { amount: 0, unit: 'USD' } } : {}),
    };
  }
  if (status.error) {
    const failure = failureOf(500, status.error_type ?? undefined, status.error);
    return {
      ...base,
      status: 'failed',
      error: { code: failure.code, message: failure.message },
      refunded: true,
    };
  }
  const result = parse(ResultSchema, data, 'result');
  const glb = result.model_glb ?? result.model_mesh;
  return {
    ...base,
    status: 'succeeded',
    stage: null,
    result: {
      glbUrl: glb?.url ?? '',
      thumbnailUrl: result.thumbnail?.url ?? null,
      // The files were made after the submit, so they live at least this long.
      expiresMs: ref.submittedMs + FAL_RESULT_LIFETIME_S * 1000,
    },
  };
}

/**
 * The account's credits from the Platform API's billing call. fal answers it only for ADMIN
 * keys: an API-scoped key gets 403, and then there is no balance Kiln can read (null).
 */
async function readBalance(
  guarded: typeof fetch,
  platformUrl: string,
  key: string,
  now: () => number,
  signal?: AbortSignal,
): Promise<ProviderBalance | null> {
  let res: Response;
  try {
    res = await guarded(`${platformUrl}/account/billing?expand=credits`, {
      headers: { authorization: `Key ${key}`, accept: 'application/json' },
      ...(signal ? { signal } : {}),
    });
  } catch (err) {
    if (err instanceof ProviderError && err.details.status === 403 && err.kind === 'invalid_key') {
      return null;
    }
    throw err;
  }
  const billing = parse(BillingSchema, await res.json().catch(() => undefined), 'billing');
  if (!billing.credits) return null;
  return { amount: billing.credits.current_balance, unit: 'USD', asOfMs: now() };
}
