import { createMiddleware } from 'hono/factory';
import { ERROR_CODES, isApiKeyShaped } from '../../contract/index.ts';
import { bearerKey, type OwnerOf } from '../owner-id.ts';
import { ApiError } from '../../http/index.ts';

export type OwnerEnv = { Variables: { owner: string | undefined } };

/** The 401 of a bearer string that is not an API key at all (decision 0092). */
export function notKeyShaped(): ApiError {
  return new ApiError(401, {
    code: ERROR_CODES.invalidApiKey,
    message:
      'The Authorization header must be "Bearer " followed by an API key starting with tr_ (no spaces).',
    param: 'authorization',
  });
}

/**
 * Sets `c.var.owner`: the HMAC of the request's bearer key (the library files tasks under it;
 * the key itself is never kept), or undefined without one. `required` answers 401 instead. A
 * bearer string that is not key-shaped is a 401 whatever the route: nothing is read or written
 * under it.
 */
export function owner(ownerOf: OwnerOf, options: { required?: string } = {}) {
  return createMiddleware<OwnerEnv>(async (c, next) => {
    const key = bearerKey(c.req.header('authorization'));
    if (!key && options.required !== undefined)
      throw new ApiError(401, {
        code: ERROR_CODES.missingApiKey,
        message: `No API key. Send it as "Authorization: Bearer tr_…" ${options.required}.`,
      });
    if (key && !isApiKeyShaped(key)) throw notKeyShaped();
    c.set('owner', key ? ownerOf(key) : undefined);
    await next();
  });
}

/** The owner `owner({ required })` has checked. */
export function ownerOf(c: { var: { owner: string | undefined } }): string {
  const o = c.var.owner;
  if (o === undefined) throw new Error('owner() with `required` must run first');
  return o;
}
