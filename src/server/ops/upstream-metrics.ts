import type { ProxyTarget } from '../proxy/forward.ts';
import type { Metrics } from './metrics.ts';

/** What an upstream call is, by its method and path after /v1 (a bounded label). */
export function upstreamOperation(method: string, pathname: string): string {
  if (method === 'POST' && /\/3d\/generations$/.test(pathname)) return 'create';
  if (method === 'GET' && /\/tasks\/[^/]+$/.test(pathname)) return 'get_task';
  if (method === 'GET' && /\/models$/.test(pathname)) return 'models';
  return 'other';
}

/** The upstream, each call counted and timed by operation and status (0: no answer). */
export function observedUpstream(target: ProxyTarget, metrics: Metrics): ProxyTarget {
  return {
    ...target,
    fetch: async (request) => {
      const operation = upstreamOperation(request.method, new URL(request.url).pathname);
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
