// Which URLs a safe fetch may ask for: http(s) without credentials, and the hosts an operator lets
// past the address guard (`allowedHosts`: an origin, `host:port` or a bare hostname).
import { isIPv6 } from 'node:net';
import { SafeFetchError } from './safe-fetch-error.ts';

export function parseTarget(raw: string): URL {
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
export const effectivePort = (url: URL) =>
  url.port === '' ? defaultPort(url.protocol) : Number(url.port);
export const bareHost = (hostname: string) =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;

export interface HostRule {
  hostname: string;
  port: number | undefined; // undefined: any port
  /** `https:` when the rule was an origin: then only that scheme (and its effective port). */
  protocol?: string;
}

export function parseHostRule(entry: string): HostRule | undefined {
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

export function isAllowedHost(url: URL, rules: readonly HostRule[]): boolean {
  const port = effectivePort(url);
  return rules.some(
    (r) =>
      r.hostname === url.hostname &&
      (r.port === undefined || r.port === port) &&
      (r.protocol === undefined || r.protocol === url.protocol),
  );
}

/**
 * Kiln's own addresses (PUBLIC_URL, the address it listens on) as `allowedHosts` entries: each
 * one's origin, which lets exactly its scheme, host and effective port past the address guard
 * (80 for `http` and 443 for `https` without a port), on every hop, redirects included. Never
 * `url.host`: for `http://127.0.0.1` that is a bare hostname, which allows every port of the
 * host. The one rule for Kiln's pasted addresses and the mock's image fetch (decision 0093);
 * unset, unparseable and non-http(s) entries are left out.
 */
export function exactOrigins(urls: readonly (string | undefined)[]): string[] {
  return urls.flatMap((u) => {
    const url = u === undefined ? null : URL.parse(u);
    return url && (url.protocol === 'http:' || url.protocol === 'https:') ? [url.origin] : [];
  });
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
