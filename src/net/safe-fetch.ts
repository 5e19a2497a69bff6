// SSRF-safe, one-shot download of a URL that someone else chose: a generation's GLB for the
// archive (the upstream's `model_url`), an input image for the mock (the caller's `image_url`).
//
// The URL is not trusted, so every hop is checked before a connection is opened: scheme (http/https only, no credentials), every address the hostname
// resolves to (no private, loopback, link-local, ... ranges unless the host is explicitly allowed),
// and the socket is pinned to the addresses that were validated (no second DNS resolution, so no
// DNS rebinding). Redirects are followed by hand and each hop is re-validated. The body is
// size-capped while streaming, and the caller's checks judge its first bytes and the whole.
//
// This file is the entry point and the redirect loop; the URL and host rules are in
// url-rules.ts, resolution and pinning in resolve-target.ts, the exchange and its body in
// exchange.ts, the error in safe-fetch-error.ts.
import { MAX_TIMER_MS } from '../async/index.ts';
import {
  defaultRequest,
  discard,
  readBody,
  send,
  type BodyRules,
  type RequestFunction,
} from './exchange.ts';
import { defaultLookup, resolveTarget, type ResolvedAddress } from './resolve-target.ts';
import { SafeFetchError, callerAbortError } from './safe-fetch-error.ts';
import { parseHostRule, parseTarget, type HostRule } from './url-rules.ts';

export interface SafeFetchOptions {
  /**
   * `host[:port]` values (as in `new URL(u).host`, case-insensitive) that may resolve to
   * private/loopback addresses: the configured upstream's host, the embedded mock's host.
   * A bare hostname (no port) matches any port. Full URLs (`http://h:p`) are accepted too.
   */
  allowedHosts?: readonly string[];
  /** Body size cap in bytes. Default 100 MB. */
  maxBytes?: number;
  /** Overall deadline (DNS, every hop, the whole body). Default 30 s. */
  timeoutMs?: number;
  /** Redirects followed before `too_many_redirects`. Default 5. */
  maxRedirects?: number;
  /** DNS resolution, all addresses. Default `node:dns/promises` `lookup(h, { all: true })`. */
  lookup?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Cancels the fetch (rejects with `network`, or `timeout` for a `TimeoutError` reason). */
  signal?: AbortSignal;
  /** The request layer; see {@link RequestFunction}. */
  request?: RequestFunction;
  /** Every address is allowed (an operator's escape hatch for a LAN server). Default false. */
  allowPrivate?: boolean;
  /** The Accept header. Default any. */
  accept?: string;
  /** The User-Agent header. Default `kiln`. */
  userAgent?: string;
  /**
   * Judges the body's first `headBytes` bytes as soon as they arrive (or the whole body when it
   * is shorter): a sentence saying what is wrong ends the download with `bad_body` (or the check
   * throws a `SafeFetchError` with another code).
   */
  checkHead?: (head: Uint8Array) => string | undefined;
  /** How many bytes `checkHead` wants. Default 16. */
  headBytes?: number;
  /** Judges the whole body; a sentence ends it with `bad_body`. */
  checkBody?: (body: Uint8Array) => string | undefined;
}

export interface Fetched {
  bytes: Uint8Array;
  /** The final response's Content-Type, if it sent one. */
  contentType: string | undefined;
  /** The URL of the final hop, after redirects. */
  url: string;
}

export const DEFAULT_MAX_BYTES = 100 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

// ---------------------------------------------------------------------------------------------
// Entry point

function positive(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new RangeError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  }
  return value;
}

/**
 * Downloads `url` once, SSRF-safely, and returns the body.
 *
 * - http/https only, no credentials in the URL (`bad_url`);
 * - every resolved address must be public unless the URL's host is in `allowedHosts` or
 *   `allowPrivate` is set (`blocked_address`); the socket connects only to those validated
 *   addresses;
 * - redirects are followed by hand, each hop re-validated (`too_many_redirects` past the limit);
 * - non-2xx → `http_status`; over `maxBytes` → `too_large`; past `timeoutMs` → `timeout`;
 * - `checkHead` / `checkBody` sentences → `bad_body`;
 * - anything else (DNS failure, refused, reset, caller abort) → `network`.
 *
 * Rejects only with {@link SafeFetchError} (or `RangeError` for invalid options).
 */
export async function safeFetch(url: string, options: SafeFetchOptions = {}): Promise<Fetched> {
  const maxBytes = positive('maxBytes', options.maxBytes ?? DEFAULT_MAX_BYTES);
  const timeoutMs = positive('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const maxRedirects = Math.floor(
    positive('maxRedirects', options.maxRedirects ?? DEFAULT_MAX_REDIRECTS, true),
  );
  const lookup = options.lookup ?? defaultLookup;
  const request = options.request ?? defaultRequest;
  const rules = (options.allowedHosts ?? [])
    .map(parseHostRule)
    .filter((r): r is HostRule => r !== undefined);
  const allowPrivate = options.allowPrivate === true;
  const identity = { accept: options.accept ?? '*/*', userAgent: options.userAgent ?? 'kiln' };
  const body: BodyRules = {
    maxBytes,
    headBytes: options.headBytes ?? 16,
    checkHead: options.checkHead,
    checkBody: options.checkBody,
  };

  let current = parseTarget(url);

  const controller = new AbortController();
  const signal = controller.signal;
  const timer = setTimeout(
    () =>
      controller.abort(new SafeFetchError('timeout', `no complete body within ${timeoutMs} ms`)),
    Math.min(timeoutMs, MAX_TIMER_MS),
  );
  const outer = options.signal;
  const onOuterAbort = () => controller.abort(callerAbortError(outer?.reason));
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });

  try {
    for (let redirects = 0; ; redirects++) {
      const target = await resolveTarget(current, rules, allowPrivate, lookup, signal);
      const exchange = await send(target, request, signal, identity);
      const status = exchange.res.statusCode ?? 0;

      if (REDIRECT_STATUSES.has(status)) {
        const location = exchange.res.headers.location;
        discard(exchange);
        if (redirects >= maxRedirects) {
          throw new SafeFetchError('too_many_redirects', `more than ${maxRedirects} redirects`);
        }
        if (location === undefined || location === '') {
          throw new SafeFetchError('http_status', `redirect ${status} without Location`, {
            status,
          });
        }
        let next: string;
        try {
          next = new URL(location, current).href;
        } catch {
          throw new SafeFetchError('bad_url', 'redirect Location is not a URL');
        }
        current = parseTarget(next);
        continue;
      }
      if (status < 200 || status > 299) {
        discard(exchange);
        throw new SafeFetchError('http_status', `HTTP ${status}`, { status });
      }
      const contentType = exchange.res.headers['content-type'];
      return { bytes: await readBody(exchange, body, signal), contentType, url: current.href };
    }
  } catch (err) {
    // Once aborted, the abort reason wins over whatever error the teardown produced.
    if (signal.aborted) throw callerAbortError(signal.reason);
    if (err instanceof SafeFetchError) throw err;
    throw new SafeFetchError('network', err instanceof Error ? err.message : 'request failed', {
      cause: err,
    });
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}
