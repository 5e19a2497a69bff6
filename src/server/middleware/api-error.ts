import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ERROR_CODES, ERROR_TYPES, errorBody, type ErrorObject } from '../../contract/index.ts';

type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** `error.type` for an HTTP status (DESIGN "Choices the spec leaves open"). */
function typeOf(status: number): string {
  if (status === 401) return ERROR_TYPES.authentication;
  if (status === 402) return ERROR_TYPES.insufficientCredits;
  if (status === 404) return ERROR_TYPES.notFound;
  if (status === 429) return ERROR_TYPES.rateLimit;
  if (status >= 500) return ERROR_TYPES.api;
  return ERROR_TYPES.invalidRequest;
}

/**
 * An answer in the spec's error shape (`{ error: { message, type, code, param? } }`), thrown
 * anywhere in the server and rendered by `onApiError`. The code is one of the contract's.
 */
export class ApiError extends HTTPException {
  readonly error: ErrorObject;
  readonly headers: Record<string, string>;

  constructor(
    status: ContentfulStatusCode,
    error: { code: ErrorCode; message: string; param?: string; type?: string },
    options: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(status, { message: error.message, cause: options.cause });
    this.error = {
      message: error.message,
      type: error.type ?? typeOf(status),
      code: error.code,
      ...(error.param !== undefined ? { param: error.param } : {}),
    };
    this.headers = options.headers ?? {};
  }

  override getResponse(): Response {
    return Response.json(errorBody(this.error), { status: this.status, headers: this.headers });
  }
}

/**
 * `app.onError`: ApiErrors as they are, other HTTP exceptions in the same shape, a store that
 * cannot be reached 503 (`unavailable` tells), the rest 500.
 */
export function onApiError(
  log: (message: string) => void,
  options: {
    unavailable?: (err: unknown) => boolean;
    /** The file store (uploads, models, pictures) cannot be reached: said apart from the database. */
    blobsUnavailable?: (err: unknown) => boolean;
  } = {},
): ErrorHandler {
  return (err, c) => {
    if (err instanceof ApiError) return err.getResponse();
    if (options.blobsUnavailable?.(err)) {
      log(`file store unavailable on ${c.req.method} ${c.req.path}: ${String(err)}`);
      return new ApiError(
        503,
        {
          code: ERROR_CODES.serviceUnavailable,
          message:
            'Kiln cannot reach its file store (where uploads and models are kept) just now. Try again in a few seconds.',
        },
        { headers: { 'retry-after': '5' } },
      ).getResponse();
    }
    if (options.unavailable?.(err)) {
      log(`unavailable on ${c.req.method} ${c.req.path}: ${String(err)}`);
      return new ApiError(
        503,
        {
          code: ERROR_CODES.serviceUnavailable,
          message: 'Kiln cannot reach its database just now. Try again in a few seconds.',
        },
        { headers: { 'retry-after': '5' } },
      ).getResponse();
    }
    if (err instanceof HTTPException && err.status < 500)
      return new ApiError(err.status, {
        code: ERROR_CODES.invalidValue,
        message: err.message || 'The request is not valid.',
      }).getResponse();
    log(`error on ${c.req.method} ${c.req.path}: ${String(err)}`);
    return new ApiError(500, {
      code: ERROR_CODES.internal,
      message: 'Kiln had an internal error. Try again.',
    }).getResponse();
  };
}
