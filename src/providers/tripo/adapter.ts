// Kiln's adapter for Tripo's v2 OpenAPI (https://api.tripo3d.ai/v2/openapi): a thin typed client
// (Tripo's official JS SDK speaks its v3 API, not this one: decision 0111), zod at the boundary.
import { z } from 'zod';
import {
  ProviderError,
  type AdapterDeps,
  type ProviderAdapter,
  type ProviderInput,
  type ProviderTask,
} from '../types.ts';
import { errorOf, slotsOf, taskOf } from './mapping.ts';
import { TRIPO_MODELS, priceOfTask } from './models.ts';
import {
  TripoBalanceSchema,
  TripoCreatedSchema,
  TripoErrorSchema,
  TripoTaskSchema,
  TripoUploadSchema,
} from './schemas.ts';

/** Every success answer: code 0 and its data. */
const SuccessSchema = z.object({ code: z.literal(0), data: z.unknown() });

/** Tripo's public API, the default of TRIPO_API_URL. */
export const TRIPO_DEFAULT_API_URL = 'https://api.tripo3d.ai/v2/openapi';

/** A task id as a path segment: Tripo's are UUIDs. */
const REF_RE = /^[A-Za-z0-9_-]{1,100}$/;

interface Call {
  method?: 'GET' | 'POST';
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal | undefined;
}

/** Retry-After in seconds (a number or an HTTP date), when the answer has one. */
function retryAfterOf(header: string | null, now: number): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The `type` Tripo's file object takes ("not validated, but strongly advised"). */
function fileTypeOf(mimeOrUrl: string): string {
  if (/png/i.test(mimeOrUrl)) return 'png';
  if (/webp/i.test(mimeOrUrl)) return 'webp';
  return 'jpg';
}

function dataUriBlob(uri: string): { blob: Blob; type: string } {
  const m = /^data:([^;,]*)((?:;[^;,]*)*),(.*)$/s.exec(uri);
  if (!m)
    throw new ProviderError('invalid_input', 'The image is not a readable data: URI.', {
      param: 'image',
    });
  const mime = m[1] || 'application/octet-stream';
  const body = m[3] ?? '';
  const bytes = /;base64/i.test(m[2] ?? '')
    ? Buffer.from(body, 'base64')
    : Buffer.from(decodeURIComponent(body), 'utf8');
  return { blob: new Blob([bytes], { type: mime }), type: fileTypeOf(mime) };
}

type Caller = <T extends z.ZodType>(
  key: string,
  path: string,
  data: T,
  init?: Call,
) => Promise<z.infer<T>>;

/** One request to Tripo with the key; its `data` checked, or the answer as a ProviderError. */
function caller(base: string, doFetch: typeof fetch, now: () => number): Caller {
  return async (key, path, data, init = {}) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
    if (init.json !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await doFetch(`${base}${path}`, {
        method: init.method ?? 'GET',
        headers,
        ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
        ...(init.form ? { body: init.form } : {}),
        ...(init.signal ? { signal: init.signal } : {}),
      });
    } catch (err) {
      if (init.signal?.aborted) throw init.signal.reason;
      throw new ProviderError(
        'unreachable',
        `Tripo could not be reached (${(err as Error).message}).`,
      );
    }
    const body: unknown = await res.json().catch(() => undefined);
    const ok = SuccessSchema.safeParse(body);
    const parsed = ok.success && res.ok ? data.safeParse(ok.data.data) : undefined;
    if (parsed?.success) return parsed.data;
    const error = TripoErrorSchema.safeParse(body);
    if (!res.ok || (error.success && error.data.code !== 0)) {
      const retryAfterS = retryAfterOf(res.headers.get('Retry-After'), now());
      throw errorOf(res.status, error.success ? error.data : {}, retryAfterS);
    }
    throw new ProviderError(
      'upstream_error',
      `Tripo answered ${path} in a shape Kiln does not know.`,
      {
        status: res.status,
      },
    );
  };
}

/** Tripo's file object for one image: its address, or a token after uploading a data: URI. */
async function fileOf(call: Caller, key: string, url: string, signal?: AbortSignal) {
  if (/^https?:\/\//i.test(url)) return { type: fileTypeOf(new URL(url).pathname), url };
  const { blob, type } = dataUriBlob(url);
  const form = new FormData();
  form.append('file', blob, `image.${type}`);
  const uploaded = await call(key, '/upload', TripoUploadSchema, { method: 'POST', form, signal });
  return { type, file_token: uploaded.image_token };
}

/** The create body for one input (Tripo's defaults otherwise: textured, PBR, standard quality). */
async function bodyOf(
  call: Caller,
  key: string,
  model: string,
  input: ProviderInput,
  signal?: AbortSignal,
) {
  const model_version = model;
  if (input.kind === 'text') return { type: 'text_to_model', model_version, prompt: input.prompt };
  if (input.kind === 'image') {
    const file = await fileOf(call, key, input.imageUrl, signal);
    return { type: 'image_to_model', model_version, file };
  }
  const slots = slotsOf(input.views);
  // An omitted slot is an empty object, as the official Python SDK sends it.
  const files = await Promise.all(
    slots.map((u) => (u ? fileOf(call, key, u, signal) : Promise.resolve({}))),
  );
  return { type: 'multiview_to_model', model_version, files };
}

export function createTripoAdapter(deps: AdapterDeps): ProviderAdapter {
  const base = (deps.baseUrl || TRIPO_DEFAULT_API_URL).replace(/\/+$/, '');
  const now = deps.now ?? Date.now;
  const call = caller(base, deps.fetch ?? fetch, now);
  return {
    name: 'tripo',
    label: 'Tripo',
    recognisesKey: (key) => /^tsk_\S+$/.test(key.trim()),
    models: () => Promise.resolve(TRIPO_MODELS),
    async create(key, model, input, options = {}): Promise<ProviderTask> {
      // Tripo documents no idempotency key: a retried create is a second task (decision 0111).
      if (!TRIPO_MODELS.some((m) => m.id === model)) {
        throw new ProviderError('invalid_input', `Tripo has no model “${model}” Kiln offers.`, {
          param: 'model',
        });
      }
      const json = await bodyOf(call, key, model, input, options.signal);
      const created = await call(key, '/task', TripoCreatedSchema, {
        method: 'POST',
        json,
        signal: options.signal,
      });
      const price = priceOfTask(json.type, model);
      return {
        ref: created.task_id,
        status: 'queued',
        progress: 0,
        stage: "Waiting in Tripo's queue",
        createdMs: now(),
        cost: price === null ? null : { amount: price, unit: 'credits' },
      };
    },
    async get(key, ref, signal) {
      if (!REF_RE.test(ref)) throw new ProviderError('not_found', 'That is not a Tripo task id.');
      return taskOf(await call(key, `/task/${ref}`, TripoTaskSchema, { signal }), now());
    },
    async balance(key, signal) {
      const b = await call(key, '/user/balance', TripoBalanceSchema, { signal });
      return { amount: b.balance, frozen: b.frozen, unit: 'credits', asOfMs: now() };
    },
  };
}
