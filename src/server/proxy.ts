import type { Context } from 'hono';
import { ERROR_TYPES, type ErrorBody } from '../contract/index.ts';

export interface ProxyTarget {
  /**
   * Base URL up to and including /v1, e.g. https://api.example.com/v1, or a
   * function of the incoming URL (mock mode: this server's own origin + /mock/v1).
   */
  baseUrl: string | ((incoming: URL) => string);
  /** How to reach it: global fetch for a remote upstream, the mock's app.fetch in mock mode. */
  fetch: (request: Request) => Promise<Response>;
}

/** Request headers passed upstream. Cookies and other credentials are not. */
const FORWARD_REQUEST = [
  'authorization',
  'content-type',
  'accept',
  'idempotency-key',
  'user-agent',
];
/** Response headers passed back. */
const FORWARD_RESPONSE = [
  'content-type',
  'retry-after',
  'x-request-id',
  'cache-control',
  'content-length',
];

export const SYNC_TIMEOUT_MS = 70_000;
export const DEFAULT_TIMEOUT_MS = 20_000;

function errorResponse(status: 502 | 504, message: string, code: string): Response {
  const body: ErrorBody = { error: { message, type: ERROR_TYPES.api, code } };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * A faithful pass-through of `/api/v1/*` to the upstream: method, path, query,
 * body and status as they are; the body streamed both ways.
 */
export async function proxyToUpstream(
  c: Context,
  target: ProxyTarget,
  rest: string,
): Promise<Response> {
  const incoming = new URL(c.req.url);
  const base = typeof target.baseUrl === 'string' ? target.baseUrl : target.baseUrl(incoming);
  const destination = `${base}${rest}${incoming.search}`;
  const headers = new Headers();
  for (const name of FORWARD_REQUEST) {
    const value = c.req.header(name);
    if (value) headers.set(name, value);
  }
  const method = c.req.method;
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const body = hasBody ? await c.req.arrayBuffer() : undefined;
  const sync =
    hasBody &&
    body &&
    body.byteLength < 1_000_000 &&
    /"mode"\s*:\s*"sync"/.test(new TextDecoder().decode(body));
  const timeoutMs = sync ? SYNC_TIMEOUT_MS : DEFAULT_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([timeout, c.req.raw.signal]);
  let upstream: Response;
  try {
    upstream = await target.fetch(
      new Request(destination, { method, headers, ...(body ? { body } : {}), signal }),
    );
  } catch {
    if (timeout.aborted)
      return errorResponse(
        504,
        `The upstream did not answer within ${timeoutMs / 1000} s.`,
        'upstream_timeout',
      );
    return errorResponse(502, 'The upstream could not be reached.', 'upstream_unreachable');
  }
  const out = new Headers();
  for (const name of FORWARD_RESPONSE) {
    const value = upstream.headers.get(name);
    if (value) out.set(name, value);
  }
  return new Response(upstream.body, { status: upstream.status, headers: out });
}
