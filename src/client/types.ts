import type { CreateGenerationInput, ModelRecord, Task } from '../contract/index.ts';

export interface ClientOptions {
  /** Up to and including `/v1`, e.g. `http://localhost:8080/api/v1`. Relative URLs resolve against `location` in a browser. */
  baseURL: string;
  /** Sent only as `Authorization: Bearer <key>`; never put in a URL. */
  apiKey?: string | undefined;
  /** Defaults to `globalThis.fetch` (bound). */
  fetch?: typeof fetch | undefined;
  /** Retries after the first attempt, for requests that may be retried. Default 2. */
  maxRetries?: number | undefined;
  /** Per HTTP attempt (headers and body), default 30 000 ms. `Infinity` = no per-attempt limit. */
  timeoutMs?: number | undefined;
  /** Per attempt for `mode: 'sync'` creates, default 70 000 ms (the upstream blocks up to 55 s). */
  syncTimeoutMs?: number | undefined;
  /** Waits between retries and polls; must reject (or the client notices) when `signal` aborts. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** Jitter source in [0, 1), default Math.random. */
  random?: (() => number) | undefined;
  /** Sent on every request; Authorization, Content-Type and Idempotency-Key are set by the client. */
  defaultHeaders?: Record<string, string> | undefined;
}

export interface RequestOptions {
  /** Aborting it rejects with APIUserAbortError at once, even mid-sleep; never retried. */
  signal?: AbortSignal | undefined;
  /** Per HTTP attempt; overrides the client's timeoutMs / syncTimeoutMs. */
  timeoutMs?: number | undefined;
  /** Epoch ms; an overall limit across attempts, retries and polls → DeadlineExceededError. */
  deadline?: number | undefined;
  /** Overrides the client's maxRetries for this call. */
  maxRetries?: number | undefined;
}

export interface CreateOptions extends RequestOptions {
  /**
   * Sent as `Idempotency-Key` (the same on every retry). Only a create that
   * carries one is retried: without it a retry could create (and bill) twice.
   */
  idempotencyKey?: string | undefined;
}

/** Milliseconds between polls, or a function of the wait number (0-based) and the last task. */
export type PollInterval = number | ((attempt: number, task: Task) => number);

export interface WaitOptions extends RequestOptions {
  /** Default: 2000 ms easing by 500 ms per poll to 5000 ms. A value given here is used as is. */
  intervalMs?: PollInterval | undefined;
  /** Called with every task observed (including the terminal one), in order. */
  onProgress?: ((task: Task) => void) | undefined;
}

export interface GenerateOptions extends CreateOptions, WaitOptions {}

export interface ModelListing {
  models: ModelRecord[];
  /** True when `models` is the spec's six aliases because the listing failed or had another shape. */
  fallback: boolean;
  /** Why the fallback was used (the error, or the unexpected body's InvalidResponseError). */
  error?: unknown;
}

export interface KilnClient {
  /** The resolved base URL (no credentials, never the key). */
  readonly baseURL: string;
  /** POST /3d/generations. Validates `body` locally first (InvalidRequestError with `param`, no request). */
  createGeneration(body: CreateGenerationInput, opts?: CreateOptions): Promise<Task>;
  /** GET /tasks/{id}, the id percent-encoded. */
  getTask(id: string, opts?: RequestOptions): Promise<Task>;
  /** GET /models; the spec's aliases (fallback: true) on any failure except authentication or abort. */
  listModels(opts?: RequestOptions): Promise<ModelListing>;
  /** Polls GET /tasks/{id} until completed or failed; a failed task is returned, not thrown. */
  waitForTask(id: string, opts?: WaitOptions): Promise<Task>;
  /** createGeneration, then waitForTask unless the answer is already terminal. */
  generate(body: CreateGenerationInput, opts?: GenerateOptions): Promise<Task>;
}
