import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/**
 * Who sent a request, for per-client limits: the socket's address, or with `trustedProxies`
 * hops of load balancers in front (TRUST_PROXY), the address the nearest of them saw in
 * X-Forwarded-For. Entries a client wrote itself (further left) are never believed.
 */
export function clientAddress(c: Context, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const forwarded = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const hop = forwarded[forwarded.length - trustedProxies];
    if (hop) return hop;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // in-process requests (tests) have no socket
  }
}
