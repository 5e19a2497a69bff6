// Where a safe fetch connects: every address a hostname resolves to, checked against the address
// policy before any connection, and a socket `lookup` pinned to exactly those (no second DNS
// resolution, so no DNS rebinding).
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { raceSignal } from '../async/index.ts';
import { isPrivateAddress } from './address-policy.ts';
import { SafeFetchError } from './safe-fetch-error.ts';
import { bareHost, isAllowedHost, type HostRule } from './url-rules.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export async function defaultLookup(hostname: string): Promise<ResolvedAddress[]> {
  const found = await dnsLookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
}

export interface Target {
  url: URL;
  /** Hostname without IPv6 brackets. */
  hostname: string;
  /** Every address the hostname resolved to, all validated; the socket connects only to these. */
  addresses: ResolvedAddress[];
}

export async function resolveTarget(
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
export function pinnedLookup(addresses: readonly ResolvedAddress[]) {
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
