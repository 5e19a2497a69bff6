// SSRF-safe, one-shot download of a URL that someone else chose: a generation's GLB for the
// archive (the upstream's `model_url`), an input image for the mock (the caller's `image_url`).
//
// The URL is not trusted, so every hop is checked before a connection is opened: scheme (http/https only, no credentials), every address the hostname
// resolves to (no private, loopback, link-local, ... ranges unless the host is explicitly allowed),
// and the socket is pinned to the addresses that were validated (no second DNS resolution, so no
// DNS rebinding). Redirects are followed by hand and each hop is re-validated. The body is
// size-capped while streaming, and the caller's checks judge its first bytes and the whole.
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, isIPv6 } from 'node:net';
import { MAX_TIMER_MS, raceSignal } from '../async/index.ts';
import { isPrivateAddress } from './address-policy.ts';

export type SafeFetchErrorCode =
  | 'bad_url'
  | 'blocked_address'
  | 'too_large'
  | 'timeout'
  | 'http_status'
  | 'bad_body'
  | 'too_many_redirects'
  | 'network';

export class SafeFetchError extends Error {
  override readonly name = 'SafeFetchError';
  readonly code: SafeFetchErrorCode;
  /** The HTTP status, for `http_status`. */
  readonly status?: number;

  constructor(
    code: SafeFetchErrorCode,
    message: string,
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    if (options?.status !== undefined) this.status = options.status;
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * Opens one HTTP(S) request. The default is `https.request` for `https:` and `http.request`
 * otherwise. Injectable so tests can observe the connect target (the pinned `lookup`, `hostname`,
 * `servername`, headers) without any packet leaving the machine.
 */
export type RequestFunction = (options: https.RequestOptions) => http.ClientRequest;

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
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

// ---------------------------------------------------------------------------------------------
// URL and host checks

function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SafeFetchError('bad_url', 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SafeFetchError('bad_url', `scheme ${url.protocol} is not allowed`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new SafeFetchError('bad_url', 'URLs with credentials are not allowed');
  }
  if (url.hostname === '') throw new SafeFetchError('bad_url', 'URL has no host');
  return url;
}

const defaultPort = (protocol: string) => (protocol === 'https:' ? 443 : 80);
const effectivePort = (url: URL) =>
  url.port === '' ? defaultPort(url.protocol) : Number(url.port);
const bareHost = (hostname: string) =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

interface HostRule {
  hostname: string;
  port: number | undefined; // undefined: any port
  /** `https:` when the rule was an origin: then only that scheme (and its effective port). */
  protocol?: string;
}

function parseHostRule(entry: string): HostRule | undefined {
  const e = entry.trim().toLowerCase();
  if (e === '') return undefined;
  try {
    if (e.includes('://')) {
      // An origin allows exactly itself: scheme, host and effective port (443 for https
      // without one), never every port of the host.
      const u = new URL(e);
      return { hostname: u.hostname, port: effectivePort(u), protocol: u.protocol };
    }
    // A bare IPv6 address without brackets.
    if (isIPv6(e)) return { hostname: new URL(`http://[${e}]`).hostname, port: undefined };
    const m = /^(\[[^\]]+\]|[^:/[\]]+)(?::(\d{1,5}))?$/.exec(e);
    if (!m?.[1]) return undefined;
    const hostname = new URL(`http://${m[1]}`).hostname; // same normalization as the target URL
    return { hostname, port: m[2] === undefined ? undefined : Number(m[2]) };
  } catch {
    return undefined;
  }
}

function isAllowedHost(url: URL, rules: readonly HostRule[]): boolean {
  const port = effectivePort(url);
  return rules.some(
    (r) =>
      r.hostname === url.hostname &&
      (r.port === undefined || r.port === port) &&
      (r.protocol === undefined || r.protocol === url.protocol),
  );
}

/**
 * Whether `allowedHosts` lets `url` past the address guard (a pure function, for tests and
 * callers that explain a refusal): an origin entry allows exactly its scheme, host and
 * effective port; `host:port` that port of any scheme; a bare hostname any port.
 */
export function isAllowedBy(url: string, allowedHosts: readonly string[]): boolean {
  const rules = allowedHosts.map(parseHostRule).filter((r): r is HostRule => r !== undefined);
  return URL.canParse(url) && isAllowedHost(new URL(url), rules);
}

async function defaultLookup(hostname: string): Promise<ResolvedAddress[]> {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

interface Target {
  url: URL;
  /** Hostname without IPv6 brackets. */
  hostname: string;
  /** Every address the hostname resolved to, all validated; the socket connects only to these. */
  addresses: ResolvedAddress[];
}

async function resolveTarget(
  url: URL,
  rules: readonly HostRule[],
  allowPrivate: boolean,
  lookup: (hostname: string) => Promise<ResolvedAddress[]>,
  signal: AbortSignal,
): Promise<Target> {
  const hostname = bareHost(url.hostname);
  const literal = isIP(hostname);
  let addresses: ResolvedAddress[];
  if (literal !== 0) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    let found: ResolvedAddress[];
    try {
      found = await raceSignal(lookup(hostname), signal);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new SafeFetchError('network', `could not resolve ${hostname}`, { cause: err });
    }
    addresses = [];
    for (const a of found) {
      const family = isIP(a.address);
      // Something that is not an IP address cannot be validated: refuse rather than connect.
      if (family === 0) {
        throw new SafeFetchError('blocked_address', `${hostname} resolved to a non-address`);
      }
      addresses.push({ address: a.address, family: family === 6 ? 6 : 4 });
    }
    if (addresses.length === 0) {
      throw new SafeFetchError('network', `${hostname} resolved to no addresses`);
    }
  }
  if (!allowPrivate && !isAllowedHost(url, rules)) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) {
      throw new SafeFetchError(
        'blocked_address',
        `${url.host} resolves to a non-public address (${bad.address})`,
      );
    }
  }
  return { url, hostname, addresses };
}

/** A `lookup` for the socket that answers only with the already-validated addresses. */
function pinnedLookup(addresses: readonly ResolvedAddress[]) {
  return (
    _hostname: string,
    opts: LookupOptions,
    callback: (
      err: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ): void => {
    const wanted =
      opts.family === 4 || opts.family === 'IPv4'
        ? 4
        : opts.family === 6 || opts.family === 'IPv6'
          ? 6
          : 0;
    const usable = wanted === 0 ? addresses : addresses.filter((a) => a.family === wanted);
    const first = usable[0];
    if (!first) {
      const err: NodeJS.ErrnoException = new Error('no validated address for this family');
      err.code = 'ENOTFOUND';
      callback(err, opts.all ? [] : '', 0);
      return;
    }
    if (opts.all)
      callback(
        null,
        usable.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, first.address, first.family);
  };
}

// ---------------------------------------------------------------------------------------------
// Transport

const defaultRequest: RequestFunction = (options) =>
  options.protocol === 'https:' ? https.request(options) : http.request(options);

interface Exchange {
  req: http.ClientRequest;
  res: http.IncomingMessage;
}

function send(
  target: Target,
  request: RequestFunction,
  signal: AbortSignal,
  identity: { accept: string; userAgent: string },
): Promise<Exchange> {
  const { url, hostname, addresses } = target;
  const options: https.RequestOptions = {
    protocol: url.protocol,
    hostname,
    port: effectivePort(url),
    path: `${url.pathname}${url.search}`,
    method: 'GET',
    // Exactly these headers: no Authorization, no cookies, ever.
    headers: {
      host: url.host,
      accept: identity.accept,
      'accept-encoding': 'identity',
      'user-agent': identity.userAgent,
    },
    // A fresh socket per hop: no pooled connection chosen by host name alone.
    agent: false,
    lookup: pinnedLookup(addresses),
    signal,
    // SNI and certificate checks use the URL's hostname even though we connect to a pinned address.
    ...(url.protocol === 'https:' && isIP(hostname) === 0 ? { servername: hostname } : {}),
  };
  return new Promise<Exchange>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason as Error);
      return;
    }
    let req: http.ClientRequest;
    try {
      req = request(options);
    } catch (err) {
      reject(err as Error);
      return;
    }
    let settled = false;
    const onAbort = () => req.destroy(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    // Errors after the response (socket resets) surface on the response; keep this one quiet.
    req.on('error', (err) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      reject(err);
    });
    req.once('response', (res) => {
      settled = true;
      signal.removeEventListener('abort', onAbort);
      resolve({ req, res });
    });
    req.end();
  });
}

function discard({ req, res }: Exchange): void {
  res.resume();
  res.destroy();
  req.destroy();
}

interface BodyRules {
  maxBytes: number;
  headBytes: number;
  checkHead: ((head: Uint8Array) => string | undefined) | undefined;
  checkBody: ((body: Uint8Array) => string | undefined) | undefined;
}

function readBody(exchange: Exchange, rules: BodyRules, signal: AbortSignal): Promise<Uint8Array> {
  const { res } = exchange;
  const { maxBytes } = rules;
  const declared = res.headers['content-length'];
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
    discard(exchange);
    return Promise.reject(
      new SafeFetchError('too_large', `Content-Length ${declared} is over ${maxBytes} bytes`),
    );
  }
  // A check answers a sentence (→ bad_body), or throws a SafeFetchError of its own choosing.
  const judge = (check: ((b: Uint8Array) => string | undefined) | undefined, b: Uint8Array) => {
    try {
      const problem = check?.(b);
      return problem === undefined ? undefined : new SafeFetchError('bad_body', problem);
    } catch (err) {
      if (err instanceof SafeFetchError) return err;
      throw err;
    }
  };
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let headChecked = false;
    let settled = false;
    const finish = (err: unknown, value?: Uint8Array) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      if (err !== undefined || value === undefined) {
        discard(exchange);
        reject(err as Error);
      } else {
        resolve(value);
      }
    };
    const onAbort = () => finish(signal.reason);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });

    res.on('data', (chunk: Buffer) => {
      if (settled) return;
      total += chunk.byteLength;
      if (total > maxBytes) {
        finish(new SafeFetchError('too_large', `body is over ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
      if (!headChecked && total >= rules.headBytes) {
        headChecked = true;
        // Fail fast on a body that is not what was asked for, before reading the rest.
        const err = judge(rules.checkHead, Buffer.concat(chunks, total));
        if (err) finish(err);
      }
    });
    res.on('end', () => {
      if (settled) return;
      if (!res.complete) {
        finish(new SafeFetchError('network', 'connection closed before the body completed'));
        return;
      }
      // Copy into a fresh buffer so the result never shares Node's pooled memory.
      const body = new Uint8Array(total);
      let offset = 0;
      for (const c of chunks) {
        body.set(c, offset);
        offset += c.byteLength;
      }
      const err =
        (headChecked ? undefined : judge(rules.checkHead, body)) ?? judge(rules.checkBody, body);
      finish(err, body);
    });
    res.on('error', (err) => finish(err));
    res.on('close', () => {
      if (!settled) {
        finish(new SafeFetchError('network', 'connection closed before the body completed'));
      }
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Entry point

function positive(name: string, value: number, allowZero = false): number {
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new RangeError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} number`);
  }
  return value;
}

/** Maps the caller's abort reason: a TimeoutError stays a timeout, anything else is `network`. */
function callerAbortError(reason: unknown): SafeFetchError {
  if (reason instanceof SafeFetchError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new SafeFetchError('timeout', 'fetch timed out (caller signal)', { cause: reason });
  }
  return new SafeFetchError('network', 'fetch aborted', { cause: reason });
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
