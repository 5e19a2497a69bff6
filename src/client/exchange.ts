import { MAX_TIMER_MS, raceSignal, userAbortError } from './abort.ts';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  DeadlineExceededError,
  parseBody,
  type KilnError,
} from './errors.ts';
import type { RequestOptions } from './types.ts';

/** What a 2xx body must parse into; throws InvalidResponseError otherwise. */
export type Parse<T> = (body: unknown, response: Response) => T;

/** One operation's request, as the client's methods describe it. */
export interface Call<T> {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  idempotencyKey?: string | undefined;
  timeoutMs: number;
  opts: RequestOptions;
  parse: Parse<T>;
}

/**
 * One HTTP exchange, headers and body, under min(timeout, time left before the deadline).
 * Failures come back as the client's typed errors: an abort as APIUserAbortError, the timeout
 * as APITimeoutError (DeadlineExceededError when the deadline was the nearer limit), a network
 * failure as APIConnectionError, a non-2xx answer as APIError by status.
 */
export async function exchange<T>(
  fetchFn: typeof fetch,
  call: Call<T>,
  url: string,
  headers: Headers,
): Promise<T> {
  const { signal, deadline } = call.opts;
  const left = deadline === undefined ? Infinity : deadline - Date.now();
  if (left <= 0)
    throw new DeadlineExceededError('The deadline passed before the request was sent.');
  const byDeadline = left < call.timeoutMs;
  const limit = Math.min(left, call.timeoutMs);
  const controller = new AbortController();
  let fired = false;
  const timer =
    limit <= MAX_TIMER_MS
      ? setTimeout(() => {
          fired = true;
          controller.abort(new Error('timeout'));
        }, limit)
      : undefined;
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });

  const fail = (error: unknown): KilnError => {
    if (signal?.aborted) return userAbortError(signal);
    if (fired && byDeadline)
      return new DeadlineExceededError('The deadline passed while waiting for the upstream.');
    if (fired)
      return new APITimeoutError(
        `The upstream did not answer ${call.method} ${call.path} within ${call.timeoutMs} ms.`,
      );
    const detail = error instanceof Error && error.message ? `: ${error.message}` : '.';
    return new APIConnectionError(`Could not reach the upstream${detail}`, { cause: error });
  };

  try {
    let response: Response;
    let text: string;
    try {
      const init: RequestInit = { method: call.method, headers, signal: controller.signal };
      if (call.body !== undefined) init.body = JSON.stringify(call.body);
      response = await raceSignal(fetchFn(url, init), controller.signal);
      text = await raceSignal(response.text(), controller.signal);
    } catch (error) {
      throw fail(error);
    }
    const body = parseBody(text);
    if (!response.ok)
      throw APIError.from(response.status, body, response.headers, response.statusText);
    return call.parse(body, response);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
