import { ERROR_CODES, ERROR_TYPES, IDEMPOTENCY_HEADER } from '../contract/index.ts';
import { raceSignal, throwIfAborted, userAbortError } from './abort.ts';
import { AuthenticationError, DeadlineExceededError } from './errors.ts';
import { exchange, type Call } from './exchange.ts';
import { isRetryableError, retryDelay } from './retry.ts';
import { retriesOr, type Settings } from './settings.ts';

/** How a client sends: `request` (exchanges under the retry policy) and `pause` (its waits). */
export interface Requester {
  request<T>(call: Call<T>): Promise<T>;
  /** Sleeps, rejecting with APIUserAbortError as soon as `signal` aborts (even if `sleep` ignores it). */
  pause(ms: number, signal: AbortSignal | undefined): Promise<void>;
}

/** The absolute URL of `path` under the base URL. */
function urlFor(base: URL, path: string): string {
  const url = new URL(base.href);
  url.pathname = url.pathname.replace(/\/+$/, '') + path;
  return url.href;
}

/** A key that cannot be sent, refused as the upstream would refuse it (but locally). */
function keyRefusal(problem: string): AuthenticationError {
  return new AuthenticationError(
    401,
    {
      error: {
        message: problem,
        type: ERROR_TYPES.authentication,
        code: ERROR_CODES.invalidApiKey,
      },
    },
    undefined,
    problem,
    { local: true },
  );
}

function headersFor(settings: Settings, call: Call<unknown>): Headers {
  if (settings.keyProblem) throw keyRefusal(settings.keyProblem);
  const headers = new Headers(settings.defaultHeaders);
  headers.set('Accept', 'application/json');
  if (settings.apiKey !== undefined) headers.set('Authorization', `Bearer ${settings.apiKey}`);
  if (call.body !== undefined) headers.set('Content-Type', 'application/json');
  if (call.idempotencyKey !== undefined) headers.set(IDEMPOTENCY_HEADER, call.idempotencyKey);
  return headers;
}

export function requester(settings: Settings): Requester {
  async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    throwIfAborted(signal);
    try {
      await raceSignal(settings.sleep(ms, signal), signal);
    } catch (error) {
      if (signal?.aborted) throw userAbortError(signal);
      throw error;
    }
    throwIfAborted(signal);
  }

  /** One exchange after another under the retry policy of retry.ts. */
  async function request<T>(call: Call<T>): Promise<T> {
    const { signal, deadline } = call.opts;
    const retries = retriesOr(call.opts.maxRetries, settings.maxRetries);
    const hasKey = call.idempotencyKey !== undefined;
    const repeatable = call.method === 'GET' || hasKey;
    const headers = headersFor(settings, call);
    const url = urlFor(settings.base, call.path);
    for (let attempt = 0; ; attempt++) {
      throwIfAborted(signal);
      try {
        return await exchange(settings.fetch, call, url, headers);
      } catch (error) {
        if (!repeatable || attempt >= retries || !isRetryableError(error, hasKey)) throw error;
        const delay = retryDelay(error, attempt, settings.random);
        if (delay === undefined) throw error;
        if (deadline !== undefined && Date.now() + delay >= deadline)
          throw new DeadlineExceededError(
            `The deadline leaves no time to retry after: ${(error as Error).message}`,
            { cause: error },
          );
        await pause(delay, signal);
      }
    }
  }

  return { request, pause };
}
