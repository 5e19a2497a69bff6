import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { routePath } from 'hono/route';
import { bearerKey, fingerprintOf, type OwnerOf } from '../owner-id.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';

/** An incoming X-Request-Id Kiln keeps: up to 128 of A–Z, a–z, 0–9, `.`, `_`, `-`, `:`. */
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request being answered, for code far from its context (the upstream call). */
const current = new AsyncLocalStorage<{ id: string }>();

/** The id of the request being answered (the middleware below gives every one an id first). */
export function currentRequestId(): string | undefined {
  return current.getStore()?.id;
}

/**
 * Every request: an id (an incoming X-Request-Id that is safe to keep, else a new one), echoed
 * in the response and passed upstream (`currentRequestId`); one log line when it is answered (route
 * template, status, duration, the key's fingerprint, never the key); and the HTTP metrics.
 */
export function requestLog(deps: {
  logger: Logger;
  metrics: Metrics;
  ownerOf: OwnerOf;
  /** Routes whose requests are counted but not logged (the scrape itself, health checks). */
  quiet?: (path: string) => boolean;
}): MiddlewareHandler {
  return createMiddleware(async (c, next) => {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const id = given && SAFE_ID.test(given) ? given : randomBytes(9).toString('base64url');
    let failed: unknown;
    try {
      await current.run({ id }, next);
    } catch (err) {
      failed = err;
      throw err;
    } finally {
      const status = failed ? 500 : c.res.status;
      c.res.headers.set('x-request-id', id);
      const seconds = (performance.now() - started) / 1000;
      // The template the request matched (`/api/library/:id`), never the raw path.
      const route = routePath(c) || 'unmatched';
      const method = c.req.method;
      deps.metrics.httpRequests.inc({ route, method, status: String(status) });
      deps.metrics.httpDuration.observe({ route, method }, seconds);
      if (!deps.quiet?.(c.req.path)) {
        const key = bearerKey(c.req.header('authorization'));
        deps.logger.info(
          {
            req_id: id,
            method,
            route,
            status,
            duration_ms: Math.round(seconds * 10_000) / 10,
            ...(key ? { key: fingerprintOf(deps.ownerOf(key)) } : {}),
          },
          'request',
        );
      }
    }
  });
}
