import { ErrorBodySchema, type ErrorObject, type Task } from '../contract/index.ts';
import { retryAfterMsFrom } from './retry-after.ts';

/** The root of every error this client throws. */
export class KilnError extends Error {
  override name = 'KilnError';
}

/** Reason phrases for when a response carries no statusText (HTTP/2, synthetic Responses). */
const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** "502 Bad Gateway", or "599" when the phrase is unknown. */
export function describeStatus(status: number, statusText?: string): string {
  const reason = statusText?.trim() || REASONS[status];
  return reason ? `${status} ${reason}` : String(status);
}

/** A text body becomes parsed JSON when it is JSON; otherwise it stays text ('' when empty). */
export function parseBody(text: string): unknown {
  if (text.trim() === '') return '';
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function messageFromLooseBody(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  if (typeof record.error === 'string' && record.error.trim()) return record.error;
  if (typeof record.message === 'string' && record.message.trim()) return record.message;
  return undefined;
}

function errorObjectOf(body: unknown): ErrorObject | undefined {
  const parsed = ErrorBodySchema.safeParse(body);
  return parsed.success ? parsed.data.error : undefined;
}

/** The sentence an error body (or its absence) yields. */
function messageFor(
  status: number,
  body: unknown,
  error: ErrorObject | undefined,
  statusText?: string,
): string {
  if (error?.message.trim()) return error.message;
  const loose = messageFromLooseBody(body);
  if (loose) return loose;
  const what = describeStatus(status, statusText);
  if (body === undefined || body === null || body === '')
    return `The upstream answered ${what} with an empty body.`;
  if (typeof body === 'string') return `The upstream answered ${what} with a non-JSON body.`;
  return `The upstream answered ${what} without an error message.`;
}

export interface APIErrorOptions {
  /** The response's reason phrase, used in generated messages. */
  statusText?: string;
  /** True when the client produced the error itself, before any request. */
  local?: boolean;
  cause?: unknown;
}

/**
 * An HTTP answer that the client does not turn into a result: a non-2xx status,
 * or (InvalidResponseError) a 2xx whose body is not what the operation returns.
 */
export class APIError extends KilnError {
  override name = 'APIError';
  readonly status: number;
  /** The response's reason phrase, when it had one. */
  readonly statusText: string | undefined;
  readonly headers: Headers;
  /** The body: parsed JSON when it was JSON, the raw text otherwise ('' when empty). */
  readonly body: unknown;
  /** The spec's error object (section 7), when the body had that shape. */
  readonly error: ErrorObject | undefined;
  readonly type: string | undefined;
  readonly code: string | undefined;
  readonly param: string | undefined;
  /** From the `x-request-id` response header. */
  readonly requestId: string | undefined;
  /** From `Retry-After` (seconds or HTTP-date) or `retry-after-ms`; undefined when absent or unparseable. */
  readonly retryAfterMs: number | undefined;
  /** True when the client raised this itself (e.g. local validation); no request was sent. */
  readonly local: boolean;

  constructor(
    status: number,
    body: unknown,
    headers?: HeadersInit,
    message?: string,
    options: APIErrorOptions = {},
  ) {
    const parsed = typeof body === 'string' ? parseBody(body) : body;
    const error = errorObjectOf(parsed);
    super(message ?? messageFor(status, parsed, error, options.statusText), {
      cause: options.cause,
    });
    this.status = status;
    this.statusText = options.statusText;
    this.headers = new Headers(headers);
    this.body = parsed;
    this.error = error;
    this.type = error?.type ?? undefined;
    this.code = error?.code ?? undefined;
    this.param = error?.param ?? undefined;
    this.requestId = this.headers.get('x-request-id') ?? undefined;
    this.retryAfterMs = retryAfterMsFrom(this.headers);
    this.local = options.local ?? false;
  }

  /** The subclass for an HTTP status, built from the body (parsed or raw text) and headers. */
  static from(status: number, body: unknown, headers?: HeadersInit, statusText?: string): APIError {
    const options: APIErrorOptions = statusText === undefined ? {} : { statusText };
    const Class = classForStatus(status);
    return new Class(status, body, headers, undefined, options);
  }
}

/** 400 or 422: the request was refused; `param` names the field when the upstream says. */
export class InvalidRequestError extends APIError {
  override name = 'InvalidRequestError';

  /** A validation failure found before sending: status 400, `local` true, no request made. */
  static local(error: ErrorObject): InvalidRequestError {
    return new InvalidRequestError(400, { error }, undefined, error.message, { local: true });
  }
}
/** 401 or 403: missing, wrong or insufficient API key. */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
/** 402: the balance does not cover the task. */
export class InsufficientCreditsError extends APIError {
  override name = 'InsufficientCreditsError';
}
/** 404: unknown task (or route). */
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
/** 409: e.g. the same Idempotency-Key is still being processed. */
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
/** 429: slow down; `retryAfterMs` says for how long when the upstream sent Retry-After. */
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
}
/** 5xx. */
export class ServerError extends APIError {
  override name = 'ServerError';
}
/** A 2xx whose body is not JSON or not the shape the operation returns. */
export class InvalidResponseError extends APIError {
  override name = 'InvalidResponseError';
}

type APIErrorClass = new (
  status: number,
  body: unknown,
  headers?: HeadersInit,
  message?: string,
  options?: APIErrorOptions,
) => APIError;

function classForStatus(status: number): APIErrorClass {
  switch (status) {
    case 400:
    case 422:
      return InvalidRequestError;
    case 401:
    case 403:
      return AuthenticationError;
    case 402:
      return InsufficientCreditsError;
    case 404:
      return NotFoundError;
    case 409:
      return ConflictError;
    case 429:
      return RateLimitError;
    default:
      return status >= 500 ? ServerError : APIError;
  }
}

/** fetch threw (DNS, refused connection, reset, CORS, offline…), or reading the body failed. */
export class APIConnectionError extends KilnError {
  override name = 'APIConnectionError';
  constructor(message = 'Could not reach the upstream.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** One HTTP attempt took longer than its `timeoutMs`. */
export class APITimeoutError extends KilnError {
  override name = 'APITimeoutError';
  constructor(message = 'The request timed out.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The caller's overall `deadline` passed (or would pass before the next attempt
 * or poll could start). `cause` is the last failure when there was one; `task`
 * is the last task seen by waitForTask/generate.
 */
export class DeadlineExceededError extends APITimeoutError {
  override name = 'DeadlineExceededError';
  readonly task: Task | undefined;
  constructor(
    message = 'The deadline passed before the operation finished.',
    options: { cause?: unknown; task?: Task } = {},
  ) {
    super(message, 'cause' in options ? { cause: options.cause } : {});
    this.task = options.task;
  }
}

/** The caller's AbortSignal fired. Never retried. `cause` is the signal's reason. */
export class APIUserAbortError extends KilnError {
  override name = 'APIUserAbortError';
  constructor(message = 'The request was aborted.', options?: { cause?: unknown }) {
    super(message, options);
  }
}
