// How a mock task fails: the error object its `fail` records, for each way a generation can end.
import {
  ERROR_CODES,
  ERROR_TYPES,
  INPUT_FAILURE_CODES,
  type ErrorObject,
} from '../contract/index.ts';
import type { ImageFetchError } from './fetch-image.ts';
import type { TaskRow } from './store.ts';

/** Explicit trigger for tests and demos: a prompt or image URL containing it fails at generation. */
const FAIL_TRIGGER = 'mock:fail';

/** A failure the task reports as is (its error object is the task's `error`). */
export class TaskFailure extends Error {
  constructor(readonly error: ErrorObject) {
    super(error.message);
  }
}

type TaskRequest = TaskRow['request'];

/** The `param` of input image `i`: `image_urls[i]` for views, `image_url` for one photo. */
const imageParam = (req: TaskRequest, i: unknown) =>
  req.image_urls ? (typeof i === 'number' ? `image_urls[${i}]` : 'image_urls') : 'image_url';

/** Input image `i` could not be downloaded. */
export function downloadFailure(err: ImageFetchError, req: TaskRequest, i: number): TaskFailure {
  const param = imageParam(req, i);
  return new TaskFailure({
    message: `${err.message} (${param})`,
    type: ERROR_TYPES.invalidRequest,
    code: ERROR_CODES.imageDownloadFailed,
    param,
  });
}

/** The request names the explicit trigger ({@link FAIL_TRIGGER}); undefined otherwise. */
export function triggeredFailure(req: TaskRequest): TaskFailure | undefined {
  const inputs = [req.image_url ?? '', ...(req.image_urls ?? []), req.prompt ?? ''];
  if (!inputs.some((u) => u.includes(FAIL_TRIGGER))) return undefined;
  return new TaskFailure({
    message: 'The generator failed on this input (explicit mock:fail trigger).',
    type: ERROR_TYPES.api,
    code: ERROR_CODES.generationFailed,
  });
}

/**
 * The generator said its input is not usable (`generator.isInputError`): the code its `reason`
 * names (image decode failure by default), on the image it names or the prompt.
 */
export function inputFailure(err: unknown, req: TaskRequest): TaskFailure {
  const index = (err as { imageIndex?: unknown }).imageIndex;
  const reason = (err as { reason?: unknown }).reason;
  const param = reason === 'empty_prompt' ? 'prompt' : imageParam(req, index);
  return new TaskFailure({
    message: `${(err as Error).message} (${param})`,
    type: ERROR_TYPES.invalidRequest,
    code:
      typeof reason === 'string' && reason in INPUT_FAILURE_CODES
        ? INPUT_FAILURE_CODES[reason as keyof typeof INPUT_FAILURE_CODES]
        : ERROR_CODES.imageDecodeFailed,
    param,
  });
}

/** The error a task records for what ended it: its own, or an internal error of the generator. */
export function failureError(err: unknown): ErrorObject {
  return err instanceof TaskFailure
    ? err.error
    : {
        message: 'The task failed on an internal error of the generator.',
        type: ERROR_TYPES.api,
        code: ERROR_CODES.generationFailed,
      };
}
