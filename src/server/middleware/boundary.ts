import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import {
  ERROR_CODES,
  isStorableText,
  unstorableTextAt,
  unstorableTextMessage,
} from '../../contract/index.ts';
import { formatBytes } from '../../formats/index.ts';
import { ApiError } from '../../http/index.ts';

/** The largest JSON body Kiln's own routes read (creates, uploads and pictures have their own). */
const JSON_BODY_MAX_BYTES = 1024 * 1024;

const unstorable = (param: string) =>
  new ApiError(400, {
    code: ERROR_CODES.invalidValue,
    message: unstorableTextMessage(param),
    param,
  });

/**
 * The boundary every `/api` request crosses first (decision 0075):
 *
 * - a path or query that holds text no store can hold (U+0000, a lone surrogate) is a 400
 *   naming it, before any route reads the database with it;
 * - a body is read only up to `JSON_BODY_MAX_BYTES` (413 past it, counted as it streams in, so
 *   a huge body is never buffered), except on the routes that `ownLimit` names, which set
 *   their own.
 */
export function apiBoundary(ownLimit: (c: Context) => boolean): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: JSON_BODY_MAX_BYTES,
    onError: () => {
      throw new ApiError(413, {
        code: ERROR_CODES.bodyTooLarge,
        message: `The request body is too large: Kiln reads at most ${formatBytes(JSON_BODY_MAX_BYTES)} here.`,
      });
    },
  });
  return createMiddleware(async (c, next) => {
    let path: string;
    try {
      path = decodeURIComponent(c.req.path);
    } catch {
      throw new ApiError(400, {
        code: ERROR_CODES.invalidValue,
        message: 'The address is not valid (a broken %-escape).',
        param: 'path',
      });
    }
    if (!isStorableText(path)) throw unstorable('path');
    const url = new URL(c.req.url);
    for (const [name, value] of url.searchParams)
      if (!isStorableText(name) || !isStorableText(value)) throw unstorable(name);
    const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    if (hasBody && !ownLimit(c)) return limit(c, next);
    await next();
  });
}

/**
 * A JSON request body (read once, through the size limit above), or a 400 that shows the shape
 * expected; text no store can hold is a 400 naming its field.
 */
export async function readJson(c: Context, shape: string): Promise<unknown> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch (err) {
    if (err instanceof ApiError) throw err; // the size limit's 413
    throw new ApiError(400, {
      code: ERROR_CODES.invalidJson,
      message: `The body must be JSON: ${shape}.`,
    });
  }
  const at = unstorableTextAt(body);
  if (at !== undefined) throw unstorable(at);
  return body;
}
