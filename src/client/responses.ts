import {
  FALLBACK_MODELS,
  ModelListSchema,
  ModelRecordSchema,
  TaskSchema,
  type ModelRecord,
  type Task,
} from '../contract/index.ts';
import { InvalidResponseError, describeStatus } from './errors.ts';
import type { Parse } from './exchange.ts';

/** A 2xx whose body is not `what` (a task, a model listing) as an InvalidResponseError. */
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

export const parseTask: Parse<Task> = (body, response) => {
  const result = TaskSchema.safeParse(body);
  if (result.success) return result.data;
  throw invalidResponse(response, body, 'a task', result.error);
};

/**
 * The models listing: the mock's `{ object: "list", data: [...] }`, or leniently
 * `{ models: [...] }`, a bare array, or records given as plain id strings.
 * Records that do not parse are dropped; an empty result is an invalid response.
 */
export const parseModels: Parse<ModelRecord[]> = (body, response) => {
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

/** The spec's six aliases, for a listing that failed (each a copy the caller may change). */
export function fallbackModels(): ModelRecord[] {
  return FALLBACK_MODELS.data.map((model) => ({ ...model }));
}
