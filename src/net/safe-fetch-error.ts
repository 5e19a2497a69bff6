// How a safe fetch fails: one error class whose code says which rule stopped it.
export type SafeFetchErrorCode =
  | 'bad_url'
  | 'blocked_address'
  | 'too_large'
  | 'timeout'
  | 'http_status'
  | 'bad_body'
  | 'too_many_redirects'
  | 'network';

export class SafeFetchError extends Error {
  override readonly name = 'SafeFetchError';
  readonly code: SafeFetchErrorCode;
  /** The HTTP status, for `http_status`. */
  readonly status?: number;

  constructor(
    code: SafeFetchErrorCode,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options?.status !== undefined) this.status = options.status;
  }
}

/** Maps the caller's abort reason: a TimeoutError stays a timeout, anything else is `network`. */
export function callerAbortError(reason: unknown): SafeFetchError {
  if (reason instanceof SafeFetchError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new SafeFetchError('timeout', 'fetch timed out (caller signal)', { cause: reason });
  }
  return new SafeFetchError('network', 'fetch aborted', { cause: reason });
}
