// SSRF-safe, one-shot download of a generation's GLB for the archive.
//
// `model_url` comes from an upstream we do not fully trust, so every hop is checked before a
// connection is opened: scheme (http/https only, no credentials), every address the hostname
// resolves to (no private, loopback, link-local, ... ranges unless the host is explicitly allowed),
// and the socket is pinned to the addresses that were validated (no second DNS resolution, so no
// DNS rebinding). Redirects are followed by hand and each hop is re-validated. The body is
// size-capped while streaming and must be a binary glTF 2.0 (GLB).
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, isIPv4, isIPv6 } from 'node:net';
import { GLB_HEADER_BYTES, readGlbHeader } from '../../formats/index.ts';

export type ArchiveFetchErrorCode =
  | 'bad_url'
  | 'blocked_address'
  | 'too_large'
  | 'timeout'
  | 'http_status'
  | 'not_glb'
  | 'too_many_redirects'
  | 'network';

export class ArchiveFetchError extends Error {
  override readonly name = 'ArchiveFetchError';
  readonly code: ArchiveFetchErrorCode;
  /** The HTTP status, for `http_status`. */
  readonly status?: number;

  constructor(
    code: ArchiveFetchErrorCode,
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
}

export const DEFAULT_MAX_BYTES = 100 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_TIMER_MS = 2 ** 31 - 1;

// ---------------------------------------------------------------------------------------------
// Address classification

/** [network, prefix length] for IPv4 ranges that must never be fetched from. */
const BLOCKED_V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT shared address space
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1 (documentation)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2 (documentation)
  ['203.0.113.0', 24], // TEST-NET-3 (documentation)
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, includes 255.255.255.255 broadcast
];

function v4ToInt(ip: string): number {
  let n = 0;
  for (const part of ip.split('.')) n = n * 256 + Number(part);
  return n;
}

const BLOCKED_V4_INT = BLOCKED_V4.map(([net, bits]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { net: (v4ToInt(net) & mask) >>> 0, mask };
});

function isBlockedV4Int(n: number): boolean {
  return BLOCKED_V4_INT.some(({ net, mask }) => (n & mask) >>> 0 === net);
}

/** Eight 16-bit groups, or undefined when `ip` is not an IPv6 address. */
function parseV6(ip: string): number[] | undefined {
  if (!isIPv6(ip)) return undefined;
  let s = ip;
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    // Trailing dotted IPv4 (::ffff:1.2.3.4) → two hex groups (::ffff:102:304).
    const n = v4ToInt(last);
    s = `${s.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const dbl = s.indexOf('::');
  let out: number[];
  if (dbl === -1) {
    out = groups(s);
  } else {
    const head = groups(s.slice(0, dbl));
    const rest = groups(s.slice(dbl + 2));
    out = [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
  }
  return out.length === 8 && out.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)
    ? out
    : undefined;
}

function isBlockedV6(g: number[]): boolean {
  const at = (i: number) => g[i] ?? 0;
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const embedded = (hi: number, lo: number) => isBlockedV4Int(((hi << 16) >>> 0) + lo);

  // ::/96: unspecified (::), loopback (::1), deprecated IPv4-compatible. Never fetch.
  if (zero(0, 6)) return true;
  // ::ffff:0:0/96 IPv4-mapped: judged as the IPv4 address.
  if (zero(0, 5) && at(5) === 0xffff) return embedded(at(6), at(7));
  // ::ffff:0:0:0/96 IPv4-translated (SIIT): judged as the IPv4 address.
  if (zero(0, 4) && at(4) === 0xffff && at(5) === 0) return embedded(at(6), at(7));
  // 64:ff9b::/96 well-known NAT64 prefix: judged as the embedded IPv4 address.
  if (at(0) === 0x64 && at(1) === 0xff9b && zero(2, 6)) return embedded(at(6), at(7));
  // Everything outside 2000::/3 (global unicast) is special: 64:ff9b:1::/48 local NAT64,
  // 100::/64 discard, fc00::/7 unique-local, fe80::/10 link-local, fec0::/10 site-local,
  // ff00::/8 multicast, 5f00::/16 SRv6, and unassigned space.
  if ((at(0) & 0xe000) !== 0x2000) return true;
  // 2001::/23 IETF protocol assignments (incl. Teredo 2001::/32), 2001:db8::/32 documentation.
  if (at(0) === 0x2001 && (at(1) < 0x200 || at(1) === 0xdb8)) return true;
  // 2002::/16 6to4: judged as the embedded IPv4 address.
  if (at(0) === 0x2002) return embedded(at(1), at(2));
  // 3fff::/20 documentation.
  if (at(0) === 0x3fff && (at(1) & 0xf000) === 0) return true;
  return false;
}

/**
 * True when `ip` must not be fetched from: private, loopback, link-local, unique-local, CGNAT,
 * unspecified, multicast, documentation, benchmarking or otherwise reserved. IPv4-mapped
 * (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 addresses are judged by their embedded IPv4
 * address. Accepts brackets and a zone id (`[fe80::1%eth0]`). Anything that is not an IP address
 * is treated as blocked (fail closed).
 */
export function isPrivateAddress(ip: string): boolean {
  let s = ip.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  if (zone !== -1) s = s.slice(0, zone);
  if (isIPv4(s)) return isBlockedV4Int(v4ToInt(s));
  const groups = parseV6(s);
  if (!groups) return true;
  return isBlockedV6(groups);
}

// ---------------------------------------------------------------------------------------------
// URL and host checks

function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ArchiveFetchError('bad_url', 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ArchiveFetchError('bad_url', `scheme ${url.protocol} is not allowed`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new ArchiveFetchError('bad_url', 'URLs with credentials are not allowed');
  }
  if (url.hostname === '') throw new ArchiveFetchError('bad_url', 'URL has no host');
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
}

function parseHostRule(entry: string): HostRule | undefined {
  const e = entry.trim().toLowerCase();
  if (e === '') return undefined;
  try {
    if (e.includes('://')) {
      const u = new URL(e);
      return { hostname: u.hostname, port: effectivePort(u) };
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
    (r) => r.hostname === url.hostname && (r.port === undefined || r.port === port),
  );
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
      found = await abortable(lookup(hostname), signal);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new ArchiveFetchError('network', `could not resolve ${hostname}`, { cause: err });
    }
    addresses = [];
    for (const a of found) {
      const family = isIP(a.address);
      // Something that is not an IP address cannot be validated: refuse rather than connect.
      if (family === 0) {
        throw new ArchiveFetchError('blocked_address', `${hostname} resolved to a non-address`);
      }
      addresses.push({ address: a.address, family: family === 6 ? 6 : 4 });
    }
    if (addresses.length === 0) {
      throw new ArchiveFetchError('network', `${hostname} resolved to no addresses`);
    }
  }
  if (!isAllowedHost(url, rules)) {
    const bad = addresses.find((a) => isPrivateAddress(a.address));
    if (bad) {
      throw new ArchiveFetchError(
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

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e as Error);
      },
    );
  });
}

interface Exchange {
  req: http.ClientRequest;
  res: http.IncomingMessage;
}

function send(target: Target, request: RequestFunction, signal: AbortSignal): Promise<Exchange> {
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
      accept: 'model/gltf-binary, application/octet-stream;q=0.9, */*;q=0.1',
      'accept-encoding': 'identity',
      'user-agent': 'kiln-archiver',
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

/** Checks the 12-byte GLB header; returns an error or undefined. */
function checkGlbHeader(bytes: Uint8Array, maxBytes: number): ArchiveFetchError | undefined {
  const header = readGlbHeader(bytes);
  if (!header.ok) return new ArchiveFetchError('not_glb', `body ${header.message}`);
  if (header.length > maxBytes) {
    return new ArchiveFetchError(
      'too_large',
      `GLB declares ${header.length} bytes, over ${maxBytes}`,
    );
  }
  return undefined;
}

function readGlb(exchange: Exchange, maxBytes: number, signal: AbortSignal): Promise<Uint8Array> {
  const { res } = exchange;
  const declared = res.headers['content-length'];
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBytes) {
    discard(exchange);
    return Promise.reject(
      new ArchiveFetchError('too_large', `Content-Length ${declared} is over ${maxBytes} bytes`),
    );
  }
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let headerChecked = false;
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
        finish(new ArchiveFetchError('too_large', `body is over ${maxBytes} bytes`));
        return;
      }
      chunks.push(chunk);
      if (!headerChecked && total >= GLB_HEADER_BYTES) {
        headerChecked = true;
        // Fail fast on a non-GLB or an oversized declared length, before reading the rest.
        const err = checkGlbHeader(Buffer.concat(chunks, total), maxBytes);
        if (err) finish(err);
      }
    });
    res.on('end', () => {
      if (settled) return;
      if (!res.complete) {
        finish(new ArchiveFetchError('network', 'connection closed before the body completed'));
        return;
      }
      // Copy into a fresh buffer so the result never shares Node's pooled memory.
      const body = new Uint8Array(total);
      let offset = 0;
      for (const c of chunks) {
        body.set(c, offset);
        offset += c.byteLength;
      }
      const err = checkGlbHeader(body, maxBytes);
      if (err) {
        finish(err);
        return;
      }
      const length = new DataView(body.buffer).getUint32(8, true);
      if (length !== total) {
        finish(
          new ArchiveFetchError(
            'not_glb',
            `GLB header declares ${length} bytes, body has ${total}`,
          ),
        );
        return;
      }
      finish(undefined, body);
    });
    res.on('error', (err) => finish(err));
    res.on('close', () => {
      if (!settled) {
        finish(new ArchiveFetchError('network', 'connection closed before the body completed'));
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
function callerAbortError(reason: unknown): ArchiveFetchError {
  if (reason instanceof ArchiveFetchError) return reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new ArchiveFetchError('timeout', 'fetch timed out (caller signal)', { cause: reason });
  }
  return new ArchiveFetchError('network', 'fetch aborted', { cause: reason });
}

/**
 * Downloads `url` once, SSRF-safely, and returns the GLB bytes.
 *
 * - http/https only, no credentials in the URL (`bad_url`);
 * - every resolved address must be public unless the URL's host is in `allowedHosts`
 *   (`blocked_address`); the socket connects only to those validated addresses;
 * - redirects are followed by hand, each hop re-validated (`too_many_redirects` past the limit);
 * - non-2xx → `http_status`; over `maxBytes` → `too_large`; past `timeoutMs` → `timeout`;
 * - the body must be a GLB 2.0 whose header length matches the body (`not_glb`);
 * - anything else (DNS failure, refused, reset, caller abort) → `network`.
 *
 * Rejects only with {@link ArchiveFetchError} (or `RangeError` for invalid options).
 */
export async function fetchGlbSafely(
  url: string,
  options: SafeFetchOptions = {},
): Promise<Uint8Array> {
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

  let current = parseTarget(url);

  const controller = new AbortController();
  const signal = controller.signal;
  const timer = setTimeout(
    () =>
      controller.abort(new ArchiveFetchError('timeout', `no complete GLB within ${timeoutMs} ms`)),
    Math.min(timeoutMs, MAX_TIMER_MS),
  );
  const outer = options.signal;
  const onOuterAbort = () => controller.abort(callerAbortError(outer?.reason));
  if (outer?.aborted) onOuterAbort();
  else outer?.addEventListener('abort', onOuterAbort, { once: true });

  try {
    for (let redirects = 0; ; redirects++) {
      const target = await resolveTarget(current, rules, lookup, signal);
      const exchange = await send(target, request, signal);
      const status = exchange.res.statusCode ?? 0;

      if (REDIRECT_STATUSES.has(status)) {
        const location = exchange.res.headers.location;
        discard(exchange);
        if (redirects >= maxRedirects) {
          throw new ArchiveFetchError('too_many_redirects', `more than ${maxRedirects} redirects`);
        }
        if (location === undefined || location === '') {
          throw new ArchiveFetchError('http_status', `redirect ${status} without Location`, {
            status,
          });
        }
        let next: string;
        try {
          next = new URL(location, current).href;
        } catch {
          throw new ArchiveFetchError('bad_url', 'redirect Location is not a URL');
        }
        current = parseTarget(next);
        continue;
      }
      if (status < 200 || status > 299) {
        discard(exchange);
        throw new ArchiveFetchError('http_status', `HTTP ${status}`, { status });
      }
      return await readGlb(exchange, maxBytes, signal);
    }
  } catch (err) {
    // Once aborted, the abort reason wins over whatever error the teardown produced.
    if (signal.aborted) throw callerAbortError(signal.reason);
    if (err instanceof ArchiveFetchError) throw err;
    throw new ArchiveFetchError('network', err instanceof Error ? err.message : 'request failed', {
      cause: err,
    });
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}
