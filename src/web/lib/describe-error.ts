import {
  APIConnectionError,
  APITimeoutError,
  AuthenticationError,
  InsufficientCreditsError,
  InvalidRequestError,
  KilnError,
  RateLimitError,
} from '../../client/index.ts';

export interface ShownError {
  /** Where it belongs: the key, a form field (the API's `param`), or the form as a whole. */
  at: 'key' | 'form' | string;
  message: string;
}

/** An API error as a sentence next to what it concerns. */
export function describeError(
  err: unknown,
  context: { price?: number | null; balance?: number | null } = {},
): ShownError {
  if (err instanceof AuthenticationError)
    return { at: 'key', message: `Your API key was refused: ${err.message}` };
  if (err instanceof InsufficientCreditsError) {
    const known =
      context.price != null && context.balance != null
        ? ` This model costs ${context.price} credits and your balance is ${context.balance}.`
        : '';
    return {
      at: 'form',
      message:
        `Not enough credits. ${err.message}${known && !err.message.includes('balance') ? known : ''}`.trim(),
    };
  }
  if (err instanceof RateLimitError) {
    const s = err.retryAfterMs ? Math.max(1, Math.ceil(err.retryAfterMs / 1000)) : null;
    return {
      at: 'form',
      message: `Too many requests right now.${s ? ` Try again in ${s} s.` : ' Try again in a moment.'}`,
    };
  }
  if (err instanceof InvalidRequestError && err.param) {
    const field = err.param.replace(/\[\d+\]$/, '');
    return { at: field, message: err.message };
  }
  if (err instanceof APITimeoutError)
    return {
      at: 'form',
      message: 'The request took too long. Check your connection and try again.',
    };
  if (err instanceof APIConnectionError)
    return {
      at: 'form',
      message: 'Kiln’s server could not be reached. Check that it is running, then try again.',
    };
  if (err instanceof KilnError || err instanceof Error) return { at: 'form', message: err.message };
  return { at: 'form', message: 'Something went wrong. Try again.' };
}
