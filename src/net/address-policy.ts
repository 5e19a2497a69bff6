// Which addresses an untrusted URL may make Kiln connect to: public unicast only, unless the
// host is explicitly allowed. Pure functions, tested without a packet sent.
import { isIPv4, isIPv6 } from 'node:net';

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
