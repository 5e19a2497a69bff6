// One call to Meshy: the key as a Bearer token, JSON both ways, zod on the answer, and every
// failure as a ProviderError of Kiln's kinds (with Retry-After where Meshy sends it).
import type { z } from 'zod';
import { ProviderError, type ProviderErrorKind } from '../types.ts';
import { MeshyErrorSchema } from './schemas.ts';

export interface MeshyCall {
  baseUrl: string;
  fetch: typeof fetch;
  key: string;
  signal?: AbortSignal | undefined;
}

/** Meshy's 429 says which limit in its message: the queue, or the request rate. */
const QUEUE_FULL =
  /NoMoreConcurrentTasks|NoMorePendingTasks|TooManyPendingTasks|concurrent|pending/i;

export async function meshyRequest<T>(
  call: MeshyCall,
  method: 'GET' | 'POST',
  path: string,
  schema: z.ZodType<T>,
  body?: unknown,
): Promise<T> {
  let res: Response;
  try {
    res = await call.fetch(`${call.baseUrl.replace(/\/+$/, '')}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${call.key}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(call.signal ? { signal: call.signal } : {}),
    });
  } catch (err) {
    if (call.signal?.aborted) throw err;
    throw new ProviderError('unreachable', 'Meshy could not be reached. Kiln tries again later.');
  }
  const json: unknown = await res.json().catch(() => undefined);
  if (!res.ok) throw errorOf(res, json);
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new ProviderError('upstream_error', 'Meshy answered in a shape Kiln does not know.', {
      status: res.status,
    });
  return parsed.data;
}

/** A Meshy error status as Kiln's kind, with a sentence a person can act on. */
function errorOf(res: Response, json: unknown): ProviderError {
  const body = MeshyErrorSchema.safeParse(json);
  const said = body.success
    ? (body.data.message ?? body.data.error_code ?? body.data.code)
    : undefined;
  const details = {
    status: res.status,
    ...(said ? { vendorCode: said } : {}),
    ...retryAfter(res),
  };
  const [kind, sentence] = classify(res.status, said ?? '');
  return new ProviderError(kind, said ? `${sentence} (Meshy: ${said})` : sentence, details);
}

function classify(status: number, said: string): [ProviderErrorKind, string] {
  switch (status) {
    case 400:
    case 422:
      return ['invalid_input', 'Meshy refused the request as it was made.'];
    case 401:
    case 403:
      return ['invalid_key', 'Meshy did not accept this API key.'];
    case 402:
      return ['insufficient_credits', 'The Meshy account has too few credits for this task.'];
    case 404:
      return ['not_found', 'Meshy has no such task for this key.'];
    case 429:
      return QUEUE_FULL.test(said)
        ? [
            'too_many_tasks',
            'The Meshy account already has as many tasks queued as its plan allows; one must finish first.',
          ]
        : [
            'rate_limited',
            'Meshy is receiving too many requests from this account; Kiln waits and tries again.',
          ];
    default:
      return ['upstream_error', `Meshy had an error (HTTP ${status}). Try again in a while.`];
  }
}

function retryAfter(res: Response): { retryAfterS?: number } {
  const raw = res.headers.get('retry-after');
  if (!raw) return {};
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return { retryAfterS: seconds };
  const date = Date.parse(raw);
  return Number.isNaN(date)
    ? {}
    : { retryAfterS: Math.max(0, Math.ceil((date - Date.now()) / 1000)) };
}
