// The routes that the people who run Kiln read: liveness, readiness, the SPA's facts, and the
// Prometheus metrics (guarded by METRICS_TOKEN when set, and never open through a proxy).
import { Hono, type Context } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import { ERROR_CODES } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import type { ServerDeps } from '../deps.ts';
import { notReadyBody, type Readiness } from '../ready.ts';
import type { Services } from '../services.ts';
import type { Metrics } from './metrics.ts';

/** Compares two secrets in constant time (their lengths may differ). */
function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Headers a proxy adds on its way to Kiln (nginx's X-Forwarded-For in docs/deploy.md, RFC 7239's
 * Forwarded, and the others balancers use). A scraper that reaches a replica directly sends none.
 */
const FORWARDING_HEADERS = [
  'forwarded',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'x-real-ip',
  'via',
] as const;

/** Whether a request came through a proxy: it carries any forwarding header (decision 0094). */
function cameThroughProxy(c: Context): boolean {
  return FORWARDING_HEADERS.some((h) => c.req.header(h) !== undefined);
}

export function opsRoutes(
  deps: Pick<ServerDeps, 'info' | 'metricsToken' | 'storage'>,
  { optimiser, archiver }: Pick<Services, 'optimiser' | 'archiver'>,
  metrics: Metrics,
  readiness: { check(): Promise<Readiness> },
): Hono {
  const { storage } = deps;
  // Gauges read when scraped: what is under way in this process, and the database pool.
  const collect = () => {
    const load = optimiser.jobs.load;
    metrics.optimiseJobs.set({ state: 'queued' }, load.waiting);
    metrics.optimiseJobs.set({ state: 'running' }, load.running);
    metrics.archiveQueue.set(archiver.running);
    const pool = storage.pool?.();
    if (pool)
      for (const [state, n] of [
        ['in_use', pool.inUse],
        ['idle', pool.idle],
        ['waiting', pool.waiting],
      ] as const)
        metrics.dbPool.set({ state }, n);
  };

  const app = new Hono();
  // Liveness: this process answers. Readiness: it can do its work (database and file store).
  app.get('/api/health', (c) => c.json({ ok: true }));
  app.get('/api/ready', async (c) => {
    const r = await readiness.check();
    return r.ready
      ? c.json(r, 200, { 'cache-control': 'no-store' })
      : c.json(notReadyBody(r), 503, { 'cache-control': 'no-store', 'retry-after': '5' });
  });
  app.get('/api/info', (c) => c.json(deps.info));
  // Prometheus' text format, with the process's own metrics. The token, when set, opens it from
  // anywhere; without it, only a direct scrape is answered: through a proxy it is not there (404,
  // as for any unknown route), so a balancer that passes every path on cannot publish it.
  app.get('/metrics', async (c) => {
    const token = deps.metricsToken;
    const authorised =
      Boolean(token) && sameSecret(c.req.header('authorization') ?? '', `Bearer ${token}`);
    if (!authorised && cameThroughProxy(c))
      throw new ApiError(404, {
        code: ERROR_CODES.routeNotFound,
        message: `No route ${c.req.method} ${c.req.path}.`,
      });
    if (token && !authorised)
      throw new ApiError(401, {
        code: ERROR_CODES.missingApiKey,
        message: 'The metrics need "Authorization: Bearer <METRICS_TOKEN>".',
      });
    collect();
    // The archive's queue is in the database (every replica's): read once per scrape.
    metrics.archiveWaiting.set(await storage.library.archiveWaiting().catch(() => Number.NaN));
    return c.body(await metrics.registry.metrics(), 200, {
      'content-type': metrics.registry.contentType,
      'cache-control': 'no-store',
    });
  });
  return app;
}
