import type { Context } from 'hono';
import {
  ERROR_CODES,
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_KEY_PROBLEM,
  IDEMPOTENCY_KEY_RE,
} from '../contract/index.ts';
import { ApiError } from './api-error.ts';

/** The request's Idempotency-Key, if it sent one; a malformed one is a 400. */
export function idempotencyKeyOf(c: Context): string | undefined {
  const key = c.req.header(IDEMPOTENCY_HEADER);
  if (key !== undefined && !IDEMPOTENCY_KEY_RE.test(key))
    throw new ApiError(400, {
      code: ERROR_CODES.invalidValue,
      message: IDEMPOTENCY_KEY_PROBLEM,
      param: IDEMPOTENCY_HEADER,
    });
  return key;
}

/** The 409 for a key already used with a different request body. */
export function idempotencyKeyReused(): ApiError {
  return new ApiError(409, {
    code: ERROR_CODES.idempotencyKeyReused,
    message:
      'This Idempotency-Key was already used with a different request body. Use a new key for a new task.',
    param: IDEMPOTENCY_HEADER,
  });
}
