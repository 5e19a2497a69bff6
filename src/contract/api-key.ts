/**
 * What an API key looks like (spec section 5): the `tr_` prefix, then printable characters with
 * no space. A bearer string of another shape is refused with a 401 before anything reads or
 * writes with it (decision 0092); the upstream decides whether a well-shaped key is real.
 */
export const API_KEY_PREFIX = 'tr_';

const KEY_SHAPE = /^tr_[\x21-\x7e]{1,256}$/;

export function isApiKeyShaped(key: string): boolean {
  return KEY_SHAPE.test(key);
}
