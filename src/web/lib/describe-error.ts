import {
  APIConnectionError,
  APITimeoutError,
  AuthenticationError,
  InsufficientCreditsError,
  InvalidRequestError,
  KilnError,
  RateLimitError,
} from '../../client/index.ts';
import { LIMITS } from '../../contract/index.ts';
import { formatNumber } from './entry-format.ts';

export interface ShownError {
  /** Where it belongs: the key, a form field (the API's `param`), or the form as a whole. */
  at: 'key' | 'form' | string;
  message: string;
  /** A refusal for want of credits (the form's shortfall note says it once the balance is known). */
  credits?: true;
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
        ? ` This model costs ${formatNumber(context.price)} credits and your balance is ${formatNumber(context.balance)}.`
        : '';
    const said = /not enough credits/i.test(err.message)
      ? err.message
      : `Not enough credits. ${err.message}`;
    return {
      at: 'form',
      message: `${said}${known && !/balance/i.test(said) ? known : ''}`.trim(),
      credits: true,
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
    return {
      at: field,
      message: fieldMessage({ param: err.param, code: err.code, message: err.message }),
    };
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

const FIELD_WORDS: [RegExp, (m: RegExpExecArray) => string][] = [
  [/\bimage_urls\[(\d+)\]/, (m) => `view ${Number(m[1]) + 1}`],
  [/\bimage_urls\b/, () => 'the views'],
  [/\bimage_url\b/, () => 'the photo'],
];

/**
 * A field's problem in the studio's words: what to do about it, naming photos and views, never
 * the API's field names (`image_urls`). `count` is how many views the form holds.
 */
export function fieldMessage(
  error: { param?: string | null | undefined; code?: string | null | undefined; message: string },
  context: { count?: number } = {},
): string {
  const at = (error.param ?? '').replace(/\[\d+\]$/, '');
  if (error.code === 'missing_field') {
    if (at === 'image_url') return 'Add a photo first.';
    if (at === 'image_urls')
      return `Add ${LIMITS.minImages} to ${LIMITS.maxImages} views of the object.`;
    if (at === 'prompt') return 'Describe the object you want.';
  }
  if (at === 'image_urls' && error.code === 'invalid_image_count') {
    const n = context.count;
    const now = n === undefined ? '' : ` There ${n === 1 ? 'is 1' : `are ${n}`} now.`;
    return `Add ${LIMITS.minImages} to ${LIMITS.maxImages} views of the object.${now}`;
  }
  // The mock ends a task's input failure with the field in brackets: the form shows where.
  let message = error.message.replace(
    /\s*\((?:image_urls(?:\[\d+\])?|image_url|prompt)\)(?=\.?$)/,
    '',
  );
  for (const [re, words] of FIELD_WORDS) {
    for (let m = re.exec(message); m; m = re.exec(message))
      message = message.slice(0, m.index) + words(m) + message.slice(m.index + m[0].length);
  }
  return message.charAt(0).toUpperCase() + message.slice(1);
}
