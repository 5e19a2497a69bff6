import {
  ERROR_CODES,
  ERROR_TYPES,
  IDEMPOTENCY_KEY_PROBLEM,
  IDEMPOTENCY_KEY_RE,
  parseCreateRequest,
  type CreateGenerationInput,
  type ErrorObject,
  type Task,
} from '../contract/index.ts';
import { APIUserAbortError, AuthenticationError, InvalidRequestError } from './errors.ts';
import { requester } from './request.ts';
import { fallbackModels, parseModels, parseTask } from './responses.ts';
import { positiveMs, settingsFrom } from './settings.ts';
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

export { DEFAULTS } from './settings.ts';

function localInvalid(param: string, message: string, code: string): InvalidRequestError {
  const error: ErrorObject = { message, type: ERROR_TYPES.invalidRequest, code, param };
  return InvalidRequestError.local(error);
}

/** A task id that can stand in a path: not empty, and not a dot segment ("." or ".."). */
function checkTaskId(id: string): void {
  if (typeof id !== 'string' || id === '')
    throw localInvalid('taskId', 'taskId is required.', ERROR_CODES.missingField);
  // "." and ".." (even percent-encoded) are dot segments to a URL parser: /tasks/.. would become /.
  if (id === '.' || id === '..')
    throw localInvalid(
      'taskId',
      `taskId ${JSON.stringify(id)} is not a valid task id.`,
      ERROR_CODES.invalidValue,
    );
}

function checkIdempotencyKey(key: string | undefined): void {
  if (key !== undefined && !IDEMPOTENCY_KEY_RE.test(key))
    throw localInvalid(
      'idempotencyKey',
      IDEMPOTENCY_KEY_PROBLEM.replace('Idempotency-Key', 'idempotencyKey'),
      ERROR_CODES.invalidValue,
    );
}

/**
 * The upstream API's typed client: its options are checked once (settings.ts), each method
 * checks its input locally and describes one call, which request.ts sends under the retry policy
 * and exchange.ts as one HTTP exchange; waiting for a task is wait-for-task.ts.
 */
export function createClient(options: ClientOptions): KilnClient {
  const settings = settingsFrom(options);
  const { request, pause } = requester(settings);

  async function createGeneration(
    body: CreateGenerationInput,
    opts: CreateOptions = {},
  ): Promise<Task> {
    const parsed = parseCreateRequest(body);
    if (!parsed.ok) throw InvalidRequestError.local(parsed.error);
    checkIdempotencyKey(opts.idempotencyKey);
    const fallbackTimeout =
      parsed.value.mode === 'sync' ? settings.syncTimeoutMs : settings.timeoutMs;
    return request({
      method: 'POST',
      path: '/3d/generations',
      body: parsed.value,
      idempotencyKey: opts.idempotencyKey,
      timeoutMs: positiveMs(opts.timeoutMs, fallbackTimeout),
      opts,
      parse: parseTask,
    });
  }

  async function getTask(id: string, opts: RequestOptions = {}): Promise<Task> {
    checkTaskId(id);
    return request({
      method: 'GET',
      path: `/tasks/${encodeURIComponent(id)}`,
      timeoutMs: positiveMs(opts.timeoutMs, settings.timeoutMs),
      opts,
      parse: parseTask,
    });
  }

  async function listModels(opts: RequestOptions = {}): Promise<ModelListing> {
    try {
      const models = await request({
        method: 'GET',
        path: '/models',
        timeoutMs: positiveMs(opts.timeoutMs, settings.timeoutMs),
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
    baseURL: settings.base.href,
    createGeneration,
    getTask,
    listModels,
    waitForTask,
    generate,
  };
}
