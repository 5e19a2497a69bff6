import type { ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import {
  ERROR_CODES,
  errorBody,
  errorObjectFor,
  type ApiErrorInit,
  type ErrorObject,
} from '../contract/index.ts';

/**
 * An answer in the spec's error shape (`{ error: { message, type, code, param? } }`), thrown
 * anywhere in the server or the mock and rendered by `onApiError` (or `getResponse()` where a
 * Response is wanted at once). The code is one of the contract's; the type follows the status.
 */
export class ApiError extends HTTPException {
  readonly error: ErrorObject;
  readonly headers: Record<string, string>;

  constructor(
    status: ContentfulStatusCode,
    error: ApiErrorInit,
    options: { headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(status, { message: error.message, cause: options.cause });
    this.error = errorObjectFor(status, error);
    this.headers = options.headers ?? {};
  }

  override getResponse(): Response {
    return Response.json(errorBody(this.error), { status: this.status, headers: this.headers });
  }
}

export interface OnApiErrorOptions {
  /** The database cannot be reached: a 503 with Retry-After. */
  unavailable?: (err: unknown) => boolean;
  /** The file store (uploads, models, pictures) cannot be reached: said apart from the database. */
  blobsUnavailable?: (err: unknown) => boolean;
  /** The message of a 500 (a bug: its detail is logged, never sent). Default: Kiln's. */
  internalMessage?: string;
  /** Before the log line of a 500 (`error on GET /path: …`). Default: none. */
  logPrefix?: string;
}

const RETRY_SOON = { headers: { 'retry-after': '5' } };

/**
 * `app.onError`: ApiErrors as they are, other HTTP exceptions in the same shape, a store that
 * cannot be reached 503 (`unavailable` tells), the rest 500.
 */
export function onApiError(
  log: (message: string) => void,
  options: OnApiErrorOptions = {},
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
        RETRY_SOON,
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
        RETRY_SOON,
      ).getResponse();
    }
    if (err instanceof HTTPException && err.status < 500)
      return new ApiError(err.status, {
        code: ERROR_CODES.invalidValue,
        message: err.message || 'The request is not valid.',
      }).getResponse();
    log(`${options.logPrefix ?? ''}error on ${c.req.method} ${c.req.path}: ${String(err)}`);
    return new ApiError(500, {
      code: ERROR_CODES.internal,
      message: options.internalMessage ?? 'Kiln had an internal error. Try again.',
    }).getResponse();
  };
}
