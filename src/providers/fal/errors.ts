// fal's HTTP errors in Kiln's terms (ProviderError kinds), and a failed request's error in words a
// person reads. Sources: docs.fal.ai/errors (model errors), the request-errors page (error_type),
// the FAQ (what is charged), fal-ai/fal issues (the 401 and the "Exhausted balance" 403 bodies).
import { ProviderError, type ProviderErrorKind } from '../types.ts';
import { ErrorBodySchema, type FalErrorBody } from './schemas.ts';

/** The first sentence fal gives, and the field it names. */
function detailOf(body: FalErrorBody | undefined): { text?: string; param?: string } {
  const detail = body?.detail;
  if (typeof detail === 'string') return { text: detail };
  const first = detail?.[0];
  if (!first) return {};
  const loc = first.loc ?? [];
  const field = loc[0] === 'body' ? loc.slice(1) : loc;
  return { text: first.msg, ...(field.length > 0 ? { param: field.join('.') } : {}) };
}

/** Seconds from a Retry-After header (seconds or an HTTP date), where there is one. */
function retryAfterSeconds(value: string | null, nowMs: number): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}

const LOCKED = /exhausted balance|top[ _]?up/i;

function kindOf(status: number, text: string): ProviderErrorKind {
  if (status === 401) return 'invalid_key';
  if (status === 402 || (status === 403 && LOCKED.test(text))) return 'insufficient_credits';
  if (status === 403) return 'invalid_key';
  if (status === 404) return 'not_found';
  if (status === 429) return 'rate_limited';
  if (status === 400 || status === 422) return 'invalid_input';
  return 'upstream_error';
}

const SENTENCES: Record<ProviderErrorKind, string> = {
  invalid_key: 'fal did not accept this key',
  insufficient_credits: 'The fal account has no credit left: top it up on fal.ai',
  rate_limited: 'fal asks Kiln to slow down',
  too_many_tasks: 'fal has too many requests from this account',
  invalid_input: 'fal rejected the input',
  not_found: 'fal does not know this request',
  upstream_error: 'fal answered with an error',
  unreachable: 'fal could not be reached',
};

/** A ProviderError for a non-2xx answer from fal, keeping fal's own sentence. */
export class FalHttpError extends ProviderError {
  constructor(
    kind: ProviderErrorKind,
    message: string,
    details: ProviderError['details'],
    /** fal's `detail` as it said it (or the status line). */
    readonly detail: string,
  ) {
    super(kind, message, details);
  }
}

export async function errorFromResponse(res: Response, nowMs: number): Promise<FalHttpError> {
  const raw: unknown = await res.json().catch(() => undefined);
  const parsed = ErrorBodySchema.safeParse(raw);
  const body = parsed.success ? parsed.data : undefined;
  const { text, param } = detailOf(body);
  const kind = kindOf(res.status, text ?? '');
  const vendorCode = body?.error_type ?? res.headers.get('x-fal-error-type') ?? undefined;
  const retryAfterS = retryAfterSeconds(res.headers.get('retry-after'), nowMs);
  const message = text ? `${SENTENCES[kind]}: ${text}` : `${SENTENCES[kind]} (HTTP ${res.status}).`;
  const details = {
    status: res.status,
    ...(vendorCode ? { vendorCode } : {}),
    ...(retryAfterS !== undefined ? { retryAfterS } : {}),
    ...(param ? { param } : {}),
  };
  return new FalHttpError(kind, message, details, text ?? `HTTP ${res.status}`);
}

/** How a failed request reads to a person, and whether fal charged for it. */
export interface Failure {
  code: string;
  message: string;
  refunded: boolean;
}

const REQUEST_ERRORS: Record<string, string> = {
  request_timeout: 'fal stopped the request: it took longer than allowed.',
  startup_timeout: "fal's runner did not start in time.",
  runner_scheduling_failure: 'fal had no runner free for this model.',
  runner_disconnected: "fal's runner disconnected while making the model.",
  runner_server_error: "fal's runner crashed while making the model.",
  internal_error: 'fal had an internal error.',
  client_cancelled: 'The request was cancelled before it finished.',
};

/**
 * A failed request as Kiln shows it, from its result's HTTP status and `error_type`. fal never
 * charges server errors (5xx) or a cancelled request; an input it rejected (4xx, 422 above all)
 * "may still be charged", so Kiln counts that as charged.
 */
export function failureOf(status: number, errorType: string | undefined, detail: string): Failure {
  const known = errorType ? REQUEST_ERRORS[errorType] : undefined;
  if (status >= 400 && status < 500 && errorType !== 'client_cancelled') {
    return {
      code: errorType ?? 'fal_input_rejected',
      message: `fal could not use the input: ${detail} fal may charge for a rejected input.`,
      refunded: false,
    };
  }
  return {
    code: errorType ?? 'fal_server_error',
    message: `${known ?? `fal failed: ${detail}`} fal does not charge for this.`,
    refunded: true,
  };
}
