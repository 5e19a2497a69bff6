import { ERROR_CODES } from '../../contract/index.ts';
import { ApiError } from '../middleware/api-error.ts';

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
const FORWARD_REQUEST = ['authorization', 'content-type', 'accept', 'user-agent'];
/** Response headers passed back. */
export const FORWARD_RESPONSE = [
  'content-type',
  'retry-after',
  'x-request-id',
  'cache-control',
  'content-length',
];

/** A sync create blocks up to 55 s upstream; everything else answers fast. */
export const SYNC_TIMEOUT_MS = 70_000;
export const DEFAULT_TIMEOUT_MS = 20_000;

export interface ForwardRequest {
  incoming: Request;
  /** The path after /v1, e.g. `/tasks/abc`. */
  path: string;
  body?: ArrayBuffer | undefined;
  timeoutMs: number;
  /** Extra headers to send (e.g. Idempotency-Key when the upstream should see it). */
  headers?: Record<string, string>;
}

/**
 * A faithful pass-through to the upstream: method, path, query, body and
 * status as they are; the response body streamed back unread. Network
 * failures throw a 502 ApiError, time-outs a 504, with the spec's error body.
 */
export async function forward(target: ProxyTarget, req: ForwardRequest): Promise<Response> {
  const incomingUrl = new URL(req.incoming.url);
  const base = typeof target.baseUrl === 'string' ? target.baseUrl : target.baseUrl(incomingUrl);
  const headers = new Headers(req.headers);
  for (const name of FORWARD_REQUEST) {
    const value = req.incoming.headers.get(name);
    if (value) headers.set(name, value);
  }
  // One controller and one timer (AbortSignal.any/timeout are costly per request on Node 20).
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('upstream timeout'));
  }, req.timeoutMs);
  const onClientGone = () => controller.abort(new Error('client went away'));
  req.incoming.signal.addEventListener('abort', onClientGone, { once: true });
  let upstream: Response;
  try {
    upstream = await target.fetch(
      new Request(`${base}${req.path}${incomingUrl.search}`, {
        method: req.incoming.method,
        headers,
        ...(req.body ? { body: req.body } : {}),
        signal: controller.signal,
      }),
    );
  } catch {
    if (timedOut)
      throw new ApiError(504, {
        code: ERROR_CODES.upstreamTimeout,
        message: `The upstream did not answer within ${req.timeoutMs / 1000} s.`,
      });
    throw new ApiError(502, {
      code: ERROR_CODES.upstreamUnreachable,
      message: 'The upstream could not be reached.',
    });
  } finally {
    // The answer has begun (or failed): the time limit covered the wait for it.
    clearTimeout(timer);
    req.incoming.signal.removeEventListener('abort', onClientGone);
  }
  const out = new Headers();
  for (const name of FORWARD_RESPONSE) {
    const value = upstream.headers.get(name);
    if (value) out.set(name, value);
  }
  return new Response(upstream.body, { status: upstream.status, headers: out });
}
