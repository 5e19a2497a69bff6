import {
  ERROR_CODES,
  ERROR_TYPES,
  FALLBACK_MODELS,
  IDEMPOTENCY_KEY_PROBLEM,
  IDEMPOTENCY_KEY_RE,
  ModelListSchema,
  ModelRecordSchema,
  parseCreateRequest,
  TaskSchema,
  type CreateGenerationInput,
  type ErrorObject,
  type ModelRecord,
  type Task,
} from '../contract/index.ts';
import { MAX_TIMER_MS, defaultSleep, raceSignal, throwIfAborted, userAbortError } from './abort.ts';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  DeadlineExceededError,
  InvalidRequestError,
  InvalidResponseError,
  describeStatus,
  parseBody,
  type KilnError,
} from './errors.ts';
import { isRetryableError, retryDelay } from './retry.ts';
import type {
  ClientOptions,
  CreateOptions,
  GenerateOptions,
  KilnClient,
  ModelListing,
  RequestOptions,
  WaitOptions,
} from './types.ts';
import { pollTask, type PollDeps } from './wait-for-task.ts';

export const DEFAULTS = {
  maxRetries: 2,
  timeoutMs: 30_000,
  /** The upstream blocks a sync create for up to 55 s; 15 s of slack for transfer and queues. */
  syncTimeoutMs: 70_000,
} as const;

/** What a 2xx body must parse into; throws InvalidResponseError otherwise. */
type Parse<T> = (body: unknown, response: Response) => T;

interface Call<T> {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  idempotencyKey?: string | undefined;
  timeoutMs: number;
  opts: RequestOptions;
  parse: Parse<T>;
}

function positiveMs(value: number | undefined, fallback: number): number {
  return value === undefined || Number.isNaN(value) || value <= 0 ? fallback : value;
}

function retriesOr(value: number | undefined, fallback: number): number {
  return value !== undefined && value >= 0 ? Math.floor(value) : fallback;
}

function resolveBase(baseURL: string): URL {
  const here = (globalThis as { location?: { href?: unknown } }).location?.href;
  try {
    return new URL(baseURL, typeof here === 'string' ? here : undefined);
  } catch {
    throw new TypeError(
      `baseURL must be an absolute URL (e.g. http://localhost:8080/api/v1); got ${JSON.stringify(baseURL)}.`,
    );
  }
}

function localInvalid(param: string, message: string, code: string): InvalidRequestError {
  const error: ErrorObject = { message, type: ERROR_TYPES.invalidRequest, code, param };
  return InvalidRequestError.local(error);
}

/** Visible ASCII only: anything else cannot travel in a header (or is a paste accident). */
const HEADER_TOKEN = /^[\x21-\x7e]+$/;

function invalidResponse(
  response: Response,
  body: unknown,
  what: string,
  cause?: unknown,
): InvalidResponseError {
  const status = describeStatus(response.status, response.statusText);
  const message =
    body === ''
      ? `The upstream answered ${status} with an empty body where ${what} was expected.`
      : typeof body === 'string'
        ? `The upstream answered ${status} with a non-JSON body where ${what} was expected.`
        : `The upstream answered ${status} with a body that is not ${what}.`;
  return new InvalidResponseError(response.status, body, response.headers, message, { cause });
}

const parseTask: Parse<Task> = (body, response) => {
  const result = TaskSchema.safeParse(body);
  if (result.success) return result.data;
  throw invalidResponse(response, body, 'a task', result.error);
};

/**
 * The models listing: the mock's `{ object: "list", data: [...] }`, or leniently
 * `{ models: [...] }`, a bare array, or records given as plain id strings.
 * Records that do not parse are dropped; an empty result is an invalid response.
 */
const parseModels: Parse<ModelRecord[]> = (body, response) => {
  const strict = ModelListSchema.safeParse(body);
  if (strict.success && strict.data.data.length > 0) return strict.data.data;
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const items: unknown = Array.isArray(body) ? body : (record.data ?? record.models);
  const models: ModelRecord[] = [];
  if (Array.isArray(items))
    for (const item of items) {
      const parsed = ModelRecordSchema.safeParse(typeof item === 'string' ? { id: item } : item);
      if (parsed.success) models.push(parsed.data);
    }
  if (models.length > 0) return models;
  throw invalidResponse(
    response,
    body,
    'a model listing',
    strict.success ? undefined : strict.error,
  );
};

function defaultFetch(): typeof fetch {
  const global = globalThis as { fetch?: typeof fetch };
  if (typeof global.fetch !== 'function')
    throw new TypeError('No fetch implementation: pass options.fetch.');
  return global.fetch.bind(globalThis);
}

function fallbackModels(): ModelRecord[] {
  return FALLBACK_MODELS.data.map((model) => ({ ...model }));
}

export function createClient(options: ClientOptions): KilnClient {
  const base = resolveBase(options.baseURL);
  const apiKey = options.apiKey?.trim() || undefined;
  if (apiKey !== undefined && base.href.includes(apiKey))
    throw new TypeError(
      'baseURL must not contain the API key; it is sent only in the Authorization header.',
    );
  const keyProblem =
    apiKey !== undefined && !HEADER_TOKEN.test(apiKey)
      ? 'The API key contains spaces or characters that cannot be sent in a header; paste it again.'
      : undefined;
  const fetchFn = options.fetch ?? defaultFetch();
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const maxRetries = retriesOr(options.maxRetries, DEFAULTS.maxRetries);
  const timeoutMs = positiveMs(options.timeoutMs, DEFAULTS.timeoutMs);
  const syncTimeoutMs = positiveMs(options.syncTimeoutMs, DEFAULTS.syncTimeoutMs);
  const defaultHeaders = { ...options.defaultHeaders };

  function urlFor(path: string): string {
    const url = new URL(base.href);
    url.pathname = url.pathname.replace(/\/+$/, '') + path;
    return url.href;
  }

  function headersFor(call: Call<unknown>): Headers {
    if (keyProblem)
      throw new AuthenticationError(
        401,
        {
          error: {
            message: keyProblem,
            type: ERROR_TYPES.authentication,
            code: ERROR_CODES.invalidApiKey,
          },
        },
        undefined,
        keyProblem,
        { local: true },
      );
    const headers = new Headers(defaultHeaders);
    headers.set('Accept', 'application/json');
    if (apiKey !== undefined) headers.set('Authorization', `Bearer ${apiKey}`);
    if (call.body !== undefined) headers.set('Content-Type', 'application/json');
    if (call.idempotencyKey !== undefined) headers.set('Idempotency-Key', call.idempotencyKey);
    return headers;
  }

  /** Sleeps, rejecting with APIUserAbortError as soon as `signal` aborts (even if `sleep` ignores it). */
  async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    throwIfAborted(signal);
    try {
      await raceSignal(sleep(ms, signal), signal);
    } catch (error) {
      if (signal?.aborted) throw userAbortError(signal);
      throw error;
    }
    throwIfAborted(signal);
  }

  /** One HTTP exchange, headers and body, under min(timeout, time left before the deadline). */
  async function attemptOnce<T>(call: Call<T>, url: string, headers: Headers): Promise<T> {
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

  /** attemptOnce with the retry policy of retry.ts. */
  async function request<T>(call: Call<T>): Promise<T> {
    const { signal, deadline } = call.opts;
    const retries = retriesOr(call.opts.maxRetries, maxRetries);
    const hasKey = call.idempotencyKey !== undefined;
    const repeatable = call.method === 'GET' || hasKey;
    const headers = headersFor(call);
    const url = urlFor(call.path);
    for (let attempt = 0; ; attempt++) {
      throwIfAborted(signal);
      try {
        return await attemptOnce(call, url, headers);
      } catch (error) {
        if (!repeatable || attempt >= retries || !isRetryableError(error, hasKey)) throw error;
        const delay = retryDelay(error, attempt, random);
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

  async function createGeneration(
    body: CreateGenerationInput,
    opts: CreateOptions = {},
  ): Promise<Task> {
    const parsed = parseCreateRequest(body);
    if (!parsed.ok) throw InvalidRequestError.local(parsed.error);
    const { idempotencyKey } = opts;
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_RE.test(idempotencyKey))
      throw localInvalid(
        'idempotencyKey',
        IDEMPOTENCY_KEY_PROBLEM.replace('Idempotency-Key', 'idempotencyKey'),
        ERROR_CODES.invalidValue,
      );
    const fallbackTimeout = parsed.value.mode === 'sync' ? syncTimeoutMs : timeoutMs;
    return request({
      method: 'POST',
      path: '/3d/generations',
      body: parsed.value,
      idempotencyKey,
      timeoutMs: positiveMs(opts.timeoutMs, fallbackTimeout),
      opts,
      parse: parseTask,
    });
  }

  async function getTask(id: string, opts: RequestOptions = {}): Promise<Task> {
    if (typeof id !== 'string' || id === '')
      throw localInvalid('taskId', 'taskId is required.', ERROR_CODES.missingField);
    // "." and ".." (even percent-encoded) are dot segments to a URL parser: /tasks/.. would become /.
    if (id === '.' || id === '..')
      throw localInvalid(
        'taskId',
        `taskId ${JSON.stringify(id)} is not a valid task id.`,
        ERROR_CODES.invalidValue,
      );
    return request({
      method: 'GET',
      path: `/tasks/${encodeURIComponent(id)}`,
      timeoutMs: positiveMs(opts.timeoutMs, timeoutMs),
      opts,
      parse: parseTask,
    });
  }

  async function listModels(opts: RequestOptions = {}): Promise<ModelListing> {
    try {
      const models = await request({
        method: 'GET',
        path: '/models',
        timeoutMs: positiveMs(opts.timeoutMs, timeoutMs),
        opts,
        parse: parseModels,
      });
      return { models, fallback: false };
    } catch (error) {
      if (error instanceof AuthenticationError || error instanceof APIUserAbortError) throw error;
      return { models: fallbackModels(), fallback: true, error };
    }
  }

  const pollDeps: PollDeps = { getTask, pause };

  function waitForTask(id: string, opts: WaitOptions = {}): Promise<Task> {
    return pollTask(pollDeps, id, opts);
  }

  async function generate(body: CreateGenerationInput, opts: GenerateOptions = {}): Promise<Task> {
    const task = await createGeneration(body, opts);
    return pollTask(pollDeps, task.id, opts, task);
  }

  return {
    baseURL: base.href,
    createGeneration,
    getTask,
    listModels,
    waitForTask,
    generate,
  };
}
