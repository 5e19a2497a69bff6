import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { ERROR_CODES, isApiKeyShaped } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { bearerKey, type OwnerOf } from '../owner-id.ts';
import type { KeyChecker } from '../proxy/key-check.ts';
import { notKeyShaped } from './owner.ts';

export interface AcceptedKeyOptions {
  checker: KeyChecker;
  ownerOf: OwnerOf;
  /** True when the request may write under its key (the routes that record or change things). */
  writes: (c: Context) => boolean;
  /**
   * True when the upstream accepted this owner's key before (a library row is only written
   * after an answer): asked only while the upstream cannot be reached.
   */
  knownOwner: (owner: string) => Promise<boolean>;
}

/**
 * A key the upstream has never accepted writes nothing (decision 0092): before a request that
 * may write (an idempotency record, a rate-limit counter, an intent, a collection), its key is
 * checked with the upstream. A refused key gets the 401 and nothing is kept; while the upstream
 * cannot be asked, a key already in the library goes on and an unknown one gets a 503.
 */
export function acceptedKey(options: AcceptedKeyOptions) {
  return createMiddleware(async (c, next) => {
    const header = c.req.header('authorization');
    const key = bearerKey(header);
    if (!key || !options.writes(c)) return next();
    if (!isApiKeyShaped(key)) throw notKeyShaped();
    const owner = options.ownerOf(key);
    const verdict = await options.checker.verdict(owner, header!, c.req.raw);
    if (verdict === 'refused')
      throw new ApiError(401, {
        code: ERROR_CODES.invalidApiKey,
        message:
          'The upstream does not accept this API key, so Kiln kept nothing. Check the key in your account settings under API keys.',
        param: 'authorization',
      });
    if (verdict === 'unknown' && !(await options.knownOwner(owner)))
      throw new ApiError(
        503,
        {
          code: ERROR_CODES.serviceUnavailable,
          message:
            'Kiln cannot check this API key with the upstream just now, so it kept nothing. Try again in a few seconds.',
        },
        { headers: { 'retry-after': '5' } },
      );
    await next();
  });
}
