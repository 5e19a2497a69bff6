import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  DeadlineExceededError,
  InvalidResponseError,
} from './errors.ts';

/**
 * The retry policy of the client.
 *
 * - Which requests: GETs always; a POST create only when it carries an
 *   Idempotency-Key (the same key on every attempt), since a blind retry of a
 *   create could make and bill a second task.
 * - Which failures: connection errors, per-attempt timeouts, 408, 429, 5xx
 *   except 501/505, and 409 only with an Idempotency-Key (the IETF draft's
 *   "original request still in progress"). Never: other 4xx, a 2xx with a bad
 *   body (InvalidResponseError), local validation errors, user aborts, deadlines.
 * - How long: Retry-After / retry-after-ms when present (exactly, up to 60 s;
 *   longer → no retry, the error goes out with `retryAfterMs`), otherwise
 *   equal-jitter exponential backoff from 500 ms, capped at 8 s.
 * - Deadline: a wait that would end at or after the caller's deadline is not
 *   started; DeadlineExceededError is thrown at once with the last failure as `cause`.
 */
export const RETRY = {
  /** First backoff step; doubles per retry. */
  baseDelayMs: 500,
  /** Ceiling of one backoff step. */
  maxDelayMs: 8_000,
  /**
   * Longest Retry-After the client will wait out inside a call. A longer one is
   * not retried: the error (with `retryAfterMs`) goes to the caller at once,
   * since retrying sooner than the upstream asked only burns an attempt.
   */
  maxRetryAfterMs: 60_000,
} as const;

/**
 * Equal-jitter exponential backoff for retry number `attempt` (0 = first retry):
 * half of min(cap, base × 2^attempt) fixed, the other half random.
 * attempt 0 → 250–500 ms, 1 → 500–1000 ms, 2 → 1–2 s, … capped at 4–8 s.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(RETRY.maxDelayMs, RETRY.baseDelayMs * 2 ** Math.max(0, attempt));
  const r = Math.min(1, Math.max(0, random()));
  return Math.round(ceiling / 2 + (ceiling / 2) * r);
}

/** HTTP statuses worth another attempt. 409 only for a request that carries an Idempotency-Key. */
export function isRetryableStatus(status: number, hasIdempotencyKey: boolean): boolean {
  if (status === 408 || status === 429) return true;
  // IETF idempotency-key draft: 409 = "the original request with this key is still in progress".
  if (status === 409) return hasIdempotencyKey;
  // 501 Not Implemented and 505 HTTP Version Not Supported will not change on retry.
  return status >= 500 && status !== 501 && status !== 505;
}

/**
 * Whether a failed attempt may be retried (the caller has already decided that
 * the request itself is safe to repeat: a GET, or a POST with an idempotency key).
 */
export function isRetryableError(error: unknown, hasIdempotencyKey: boolean): boolean {
  if (error instanceof DeadlineExceededError) return false;
  if (error instanceof APITimeoutError || error instanceof APIConnectionError) return true;
  if (error instanceof InvalidResponseError) return false;
  if (error instanceof APIError)
    return !error.local && isRetryableStatus(error.status, hasIdempotencyKey);
  return false;
}

/**
 * How long to wait before retrying after `error`: its Retry-After when present
 * (undefined = too long, do not retry), else the jittered backoff.
 */
export function retryDelay(
  error: unknown,
  attempt: number,
  random: () => number = Math.random,
): number | undefined {
  if (error instanceof APIError && error.retryAfterMs !== undefined) {
    return error.retryAfterMs > RETRY.maxRetryAfterMs ? undefined : error.retryAfterMs;
  }
  return backoffDelay(attempt, random);
}
