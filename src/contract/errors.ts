import { z } from 'zod';

/** `error.type` values of DESIGN.md (the spec leaves them open). */
export const ERROR_TYPES = {
  invalidRequest: 'invalid_request_error',
  authentication: 'authentication_error',
  insufficientCredits: 'insufficient_credits',
  notFound: 'not_found',
  rateLimit: 'rate_limit_error',
  api: 'api_error',
} as const;
export type ErrorType = (typeof ERROR_TYPES)[keyof typeof ERROR_TYPES];

/** `error.type` for an HTTP status (DESIGN "Choices the spec leaves open"): the one mapping. */
export function errorTypeFor(status: number): ErrorType {
  if (status === 401) return ERROR_TYPES.authentication;
  if (status === 402) return ERROR_TYPES.insufficientCredits;
  if (status === 404) return ERROR_TYPES.notFound;
  if (status === 429) return ERROR_TYPES.rateLimit;
  if (status >= 500) return ERROR_TYPES.api;
  return ERROR_TYPES.invalidRequest;
}

/**
 * `error.code` values of the mock and of Kiln's own API (a real upstream may send others). Every
 * code Kiln or its mock sends is listed here; a test checks that none is written elsewhere.
 */
export const ERROR_CODES = {
  missingField: 'missing_field',
  invalidValue: 'invalid_value',
  invalidJson: 'invalid_json',
  invalidImageCount: 'invalid_image_count',
  promptTooLong: 'prompt_too_long',
  unsupportedInput: 'unsupported_input',
  missingApiKey: 'missing_api_key',
  invalidApiKey: 'invalid_api_key',
  insufficientCredits: 'insufficient_credits',
  taskNotFound: 'task_not_found',
  taskNotArchived: 'task_not_archived',
  routeNotFound: 'route_not_found',
  rateLimited: 'rate_limited',
  internal: 'internal_error',
  imageDownloadFailed: 'image_download_failed',
  unsupportedMediaType: 'unsupported_media_type',
  // Kiln's own API
  assetNotFound: 'asset_not_found',
  shareNotFound: 'share_not_found',
  /** No such collection for this key (never made, another owner's, or deleted). */
  collectionNotFound: 'collection_not_found',
  /** The owner already has a collection by that name (names are unique regardless of case). */
  collectionNameTaken: 'collection_name_taken',
  uploadNotFound: 'upload_not_found',
  fileNotFound: 'file_not_found',
  upstreamUnreachable: 'upstream_unreachable',
  upstreamTimeout: 'upstream_timeout',
  serviceUnavailable: 'service_unavailable',
  emptyFile: 'empty_file',
  fileTooLarge: 'file_too_large',
  imageTooLarge: 'image_too_large',
  imageDamaged: 'image_damaged',
  unsupportedImageType: 'unsupported_image_type',
  invalidMultipart: 'invalid_multipart',
  missingFile: 'missing_file',
  uploadQuotaExceeded: 'upload_quota_exceeded',
  bodyTooLarge: 'body_too_large',
  idempotencyKeyReused: 'idempotency_key_reused',
  idempotencyKeyInUse: 'idempotency_key_in_use',
  // A task's input could not be used (the task fails; its credits are refunded):
  /** The bytes are not an image the generator can decode. */
  imageDecodeFailed: 'image_decode_failed',
  /** The image decodes, but no object can be told from its backdrop. */
  noSubjectFound: 'no_subject_found',
  /** The views do not show one object (front, right, back, left). */
  viewsDoNotMatch: 'views_do_not_match',
  /** The prompt has nothing to make. */
  emptyPrompt: 'empty_prompt',
  generationFailed: 'generation_failed',
  // Optimising a model (Kiln's own API):
  /** No such optimise job for this key (never made, another key's, or forgotten). */
  optimiseJobNotFound: 'optimise_job_not_found',
  /** The optimiser's queue is full; try again after Retry-After. */
  optimiseBusy: 'optimise_busy',
  /** The model could not be optimised as asked (the message says why). */
  optimiseFailed: 'optimise_failed',
  /** Optimising took longer than its time limit and was stopped. */
  optimiseTimeout: 'optimise_timeout',
  /**
   * The Kiln server running the job stopped (a restart or a crash) before it finished: nothing is
   * wrong with the model or the options; run it again.
   */
  optimiseInterrupted: 'optimise_interrupted',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** The code of a task failure for each kind of unusable input (`GeneratorInputError.reason`). */
export const INPUT_FAILURE_CODES = {
  not_an_image: ERROR_CODES.imageDecodeFailed,
  no_subject: ERROR_CODES.noSubjectFound,
  views_disagree: ERROR_CODES.viewsDoNotMatch,
  empty_prompt: ERROR_CODES.emptyPrompt,
} as const;

/** The error object of spec section 7. Only `message` is relied upon. */
export const ErrorObjectSchema = z
  .object({
    message: z.string(),
    type: z.string().nullish(),
    code: z.string().nullish(),
    param: z.string().nullish(),
  })
  .loose();
export type ErrorObject = z.infer<typeof ErrorObjectSchema>;

export const ErrorBodySchema = z.object({ error: ErrorObjectSchema }).loose();
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** An error object as Kiln and its mock make it: its code is one of the contract's. */
export type KnownErrorObject = {
  message: string;
  type: ErrorType;
  code: ErrorCode;
  param?: string;
};

/** What Kiln or its mock says went wrong: one of the contract's codes, and the field if any. */
export interface ApiErrorInit {
  code: ErrorCode;
  message: string;
  param?: string | undefined;
  /** Only where the status does not say it (a 400 that is not the caller's request's fault). */
  type?: string | undefined;
}

/**
 * The error object of an answer with this status, as Kiln and its mock send it: `message`, then
 * `type` (from the status unless given), `code`, and `param` only when there is a field to name.
 */
export function errorObjectFor(status: number, error: ApiErrorInit): ErrorObject {
  return {
    message: error.message,
    type: error.type ?? errorTypeFor(status),
    code: error.code,
    ...(error.param !== undefined ? { param: error.param } : {}),
  };
}

export function errorBody(error: ErrorObject): ErrorBody {
  return { error };
}
