import { raceSignal } from '../../async/index.ts';
import { ERROR_CODES, LIMITS } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { currentRequestId } from '../ops/request-log.ts';

export interface ProxyTarget {
  /**
   * Base URL up to and including /v1, e.g. https://api.example.com/v1, or a
   * function of the incoming URL (mock mode: this server's own origin + /mock/v1).
   */
  baseUrl: string | ((incoming: URL) => string);
  /** How to reach it: global fetch for a remote upstream, the mock's app.fetch in mock mode. */
  fetch: (request: Request) => Promise<Response>;
  /**
   * The upstream runs in this process (the embedded mock): a read cannot hang on a network, so
   * it goes without a timer and an abort signal (they cost more than the read itself).
   */
  inProcess?: boolean;
}

/** Request headers passed upstream. Cookies and other credentials are not. */
const FORWARD_REQUEST = ['authorization', 'content-type', 'accept', 'user-agent'];
/** Response headers passed back (the upstream's own request id as x-upstream-request-id). */
const FORWARD_RESPONSE = ['content-type', 'retry-after', 'cache-control', 'content-length'];

/** A sync create blocks up to `LIMITS.syncWaitMs` upstream (15 s of slack for transfer and
 * queues); everything else answers fast. */
export const SYNC_TIMEOUT_MS = LIMITS.syncWaitMs + 15_000;
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
 * The upstream's own answer to the incoming request: method, path, query and body as they are,
 * with the headers that go upstream. Network failures throw a 502 ApiError, time-outs a 504,
 * with the spec's error body.
 */
export async function forwardRaw(target: ProxyTarget, req: ForwardRequest): Promise<Response> {
  const incomingUrl = new URL(req.incoming.url);
  const base = typeof target.baseUrl === 'string' ? target.baseUrl : target.baseUrl(incomingUrl);
  const headers = new Headers(req.headers);
  for (const name of FORWARD_REQUEST) {
    const value = req.incoming.headers.get(name);
    if (value) headers.set(name, value);
  }
  // The request's id goes upstream, so one id follows a request through both logs.
  const requestId = currentRequestId();
  if (requestId) headers.set('x-request-id', requestId);
  const method = req.incoming.method;
  const url = `${base}${req.path}${incomingUrl.search}`;
  const body = req.body ? { body: req.body } : {};
  if (target.inProcess && (method === 'GET' || method === 'HEAD'))
    return target.fetch(new Request(url, { method, headers }));

  // One controller and one timer (AbortSignal.any/timeout are costly per request on Node 20).
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('upstream timeout'));
  }, req.timeoutMs);
  const onClientGone = () => controller.abort(new Error('client went away'));
  req.incoming.signal.addEventListener('abort', onClientGone, { once: true });
  // The abort ends the wait even when the fetch does not honour it: a Request's signal follows
  // the controller's through a weak reference (undici), which a garbage collection can drop.
  let upstream: Response;
  try {
    upstream = await raceSignal(
      target.fetch(new Request(url, { method, headers, ...body, signal: controller.signal })),
      controller.signal,
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
  return upstream;
}

/**
 * A faithful pass-through to the upstream: method, path, query, body and status as they are; the
 * response body streamed back unread, with the headers that pass back.
 */
export async function forward(target: ProxyTarget, req: ForwardRequest): Promise<Response> {
  const upstream = await forwardRaw(target, req);
  return new Response(upstream.body, { status: upstream.status, headers: passedBack(upstream) });
}

/** The response headers that pass back to the client. */
export function passedBack(upstream: Response): Headers {
  const out = new Headers();
  for (const name of FORWARD_RESPONSE) {
    const value = upstream.headers.get(name);
    if (value) out.set(name, value);
  }
  const theirs = upstream.headers.get('x-request-id');
  if (theirs) out.set('x-upstream-request-id', theirs);
  return out;
}

/**
 * The text of a small response. @hono/node-server's lightweight Response (the global Response in
 * this process) keeps a string body in a symbol-keyed slot until someone asks for a stream;
 * reading the slot saves building a web stream to read a few hundred bytes (the in-process mock's
 * answers; measured with bench/mock-throughput). Any other response is read as usual.
 */
export function smallBodyText(res: Response): Promise<string> {
  const slot = (res as unknown as Record<symbol, unknown>)[lightweightSlot()];
  if (Array.isArray(slot) && typeof slot[1] === 'string') return Promise.resolve(slot[1]);
  return res.text();
}

let slotKey: symbol | undefined;
function lightweightSlot(): symbol {
  slotKey ??=
    Object.getOwnPropertySymbols(new Response('')).find((s) => s.description === 'cache') ??
    Symbol('no lightweight responses');
  return slotKey;
}
