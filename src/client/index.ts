export { createClient, DEFAULTS } from './client.ts';
export {
  KilnError,
  APIError,
  InvalidRequestError,
  AuthenticationError,
  InsufficientCreditsError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  ServerError,
  InvalidResponseError,
  APIConnectionError,
  APITimeoutError,
  DeadlineExceededError,
  APIUserAbortError,
  describeStatus,
  type APIErrorOptions,
} from './errors.ts';
export { parseRetryAfter } from './retry-after.ts';
export { RETRY, backoffDelay, isRetryableStatus, isRetryableError, retryDelay } from './retry.ts';
export { defaultPollInterval } from './wait-for-task.ts';
export { defaultSleep } from './abort.ts';
export type {
  ClientOptions,
  CreateOptions,
  GenerateOptions,
  KilnClient,
  ModelListing,
  PollInterval,
  RequestOptions,
  WaitOptions,
} from './types.ts';
