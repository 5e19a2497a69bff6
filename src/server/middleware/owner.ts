import { createMiddleware } from 'hono/factory';
import { ERROR_CODES, isApiKeyShaped } from '../../contract/index.ts';
import { LIBRARY_HEADER, isLibraryKeyShaped, libraryKeyOf, type OwnerOf } from '../owner-id.ts';
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

/** The 401 of a library header that is not a library key (decision 0114). */
function notLibraryKeyShaped(): ApiError {
  return new ApiError(401, {
    code: ERROR_CODES.invalidApiKey,
    message: `The ${LIBRARY_HEADER} header must be a library key (kl_ and 43 letters, digits, - or _) or an API key starting with tr_.`,
    param: LIBRARY_HEADER,
  });
}

/**
 * Sets `c.var.owner`: the HMAC of the key naming the request's library (its library header,
 * else its bearer key) (the library files tasks under it;
 * the key itself is never kept), or undefined without one. `required` answers 401 instead. A
 * bearer string that is not key-shaped is a 401 whatever the route: nothing is read or written
 * under it.
 */
export function owner(ownerOf: OwnerOf, options: { required?: string } = {}) {
  return createMiddleware<OwnerEnv>(async (c, next) => {
    const key = libraryKeyOf((name) => c.req.header(name));
    if (!key && options.required !== undefined)
      throw new ApiError(401, {
        code: ERROR_CODES.missingApiKey,
        message: `No API key. Send it as "Authorization: Bearer tr_…" ${options.required}.`,
      });
    if (key && !isApiKeyShaped(key) && !isLibraryKeyShaped(key))
      throw c.req.header(LIBRARY_HEADER) ? notLibraryKeyShaped() : notKeyShaped();
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
