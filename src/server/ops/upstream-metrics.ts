import type { ProxyTarget } from '../proxy/forward.ts';
import type { Metrics } from './metrics.ts';

/** What an upstream call is, by its method and URL (a bounded label; no URL parsing). */
export function upstreamOperation(method: string, url: string): string {
  const path = url.split('?', 1)[0]!;
  if (method === 'POST' && path.endsWith('/3d/generations')) return 'create';
  if (method === 'GET' && /\/tasks\/[^/]+$/.test(path)) return 'get_task';
  if (method === 'GET' && path.endsWith('/models')) return 'models';
  return 'other';
}

/** The upstream, each call counted and timed by operation and status (0: no answer). */
export function observedUpstream(target: ProxyTarget, metrics: Metrics): ProxyTarget {
  return {
    ...target,
    fetch: async (request) => {
      const operation = upstreamOperation(request.method, request.url);
      const started = performance.now();
      const done = (status: string) => {
        metrics.upstreamRequests.inc({ operation, status });
        metrics.upstreamDuration.observe({ operation }, (performance.now() - started) / 1000);
      };
      try {
        const res = await target.fetch(request);
        done(String(res.status));
        return res;
      } catch (err) {
        done(request.signal.aborted ? 'timeout' : '0');
        throw err;
      }
    },
  };
}
