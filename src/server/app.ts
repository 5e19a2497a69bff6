import { Hono, type Context, type Env } from 'hono';
import { exactOrigins, safeFetch } from '../net/index.ts';
import { ERROR_CODES } from '../contract/index.ts';
import { ApiError, onApiError } from '../http/index.ts';
import type { ServerApp, ServerDeps } from './deps.ts';
import { collectionRoutes } from './collections/routes.ts';
import { assetRoutes } from './library/assets.ts';
import { libraryRoutes } from './library/routes.ts';
import { mcpRoutes } from './mcp/routes.ts';
import { acceptedKey } from './middleware/accepted-key.ts';
import { apiBoundary } from './middleware/boundary.ts';
import { catchUp } from './proxy/catch-up.ts';
import { keyChecker, type KeyChecker } from './proxy/key-check.ts';
import type { ProxyTarget } from './proxy/forward.ts';
import { proxyRoutes } from './proxy/routes.ts';
import { providerRegistry, type ProviderRegistry } from './providers/registry.ts';
import { providerRoutes } from './providers/routes.ts';
import { createReadiness } from './ready.ts';
import { createLogger } from './ops/logger.ts';
import { createMetrics, type Metrics } from './ops/metrics.ts';
import { opsRoutes } from './ops/ops-routes.ts';
import { requestLog } from './ops/request-log.ts';
import { observedUpstream } from './ops/upstream-metrics.ts';
import { observedProvider } from './ops/provider-metrics.ts';
import { securityHeaders } from './security.ts';
import { createServices, type Services } from './services.ts';
import { shareOwnerRoutes } from './share/mine.ts';
import { shareRoutes } from './share/routes.ts';
import { serveSite } from './static-site.ts';
import { guardedBlobs, isBlobOutage } from './storage/blobs.ts';
import { isStorageUnavailable } from './storage/database.ts';
import { uploadRoutes } from './uploads/routes.ts';
import { uploadUrlStrategy } from './uploads/url-strategy.ts';

export type { ServerApp, ServerDeps } from './deps.ts';
export { KTX2_WORKER_CSP } from './static-site.ts';

/** Routes at the path they are mounted at. */
interface Mount {
  onto(app: Hono): void;
}
const at = <E extends Env>(path: string, routes: Hono<E>): Mount => ({
  onto: (app) => void app.route(path, routes),
});

/** A logger that writes nothing (tests, and servers made without one). */
const silentLogger = createLogger({ format: 'json', level: 'silent' });

export function createServerApp(input: ServerDeps): ServerApp {
  const metrics = createMetrics();
  // Outages of the file store are told apart from the database's (their 503 says which); every
  // upstream call is counted and timed.
  const deps = {
    ...input,
    blobs: guardedBlobs(input.blobs),
    upstream: observedUpstream(input.upstream, metrics),
  };
  const services = createServices(deps, metrics);
  const {
    now,
    log,
    ownerOf,
    archiver,
    signer,
    library,
    entries,
    prices,
    uploadSweeper,
    optimiser,
  } = services;
  const { storage } = deps;
  const registry = providerRegistry(deps.providers?.map((p) => observedProvider(p, metrics)));
  const readiness = createReadiness({ storage, blobs: deps.blobs, now });
  const draining = new AbortController();
  const app = new Hono();
  let inFlight = 0;
  app.use('*', async (c, next) => {
    inFlight++;
    try {
      await next();
    } finally {
      inFlight--;
      // Draining: the connection closes after this answer, so the balancer opens its next one
      // to another replica.
      if (draining.signal.aborted) c.res.headers.set('connection', 'close');
    }
  });
  // Every request: an id (kept or made), a log line and the HTTP metrics.
  app.use(
    '*',
    requestLog({
      logger: deps.logger ?? silentLogger,
      metrics,
      ownerOf,
      quiet: (path) => path === '/metrics' || path === '/api/health' || path === '/api/ready',
    }),
  );
  app.use('*', securityHeaders());
  app.onError(
    onApiError(log, {
      unavailable: isStorageUnavailable,
      blobsUnavailable: isBlobOutage,
    }),
  );
  // Paths and queries no store can hold are refused first; JSON bodies are capped at 1 MB except
  // where a route sets its own limit (creates, uploads, pictures).
  app.use(
    '*',
    apiBoundary((c) => {
      const path = c.req.path;
      return (
        !path.startsWith('/api/') ||
        path.startsWith('/api/v1/') ||
        /^\/api\/uploads\/?$/.test(path) ||
        /^\/api\/library\/[^/]+\/thumbnail$/.test(path) ||
        /^\/api\/library\/[^/]+\/share\/model\.usdz$/.test(path)
      );
    }),
  );

  // A key the upstream never accepted writes nothing (decision 0092).
  const keys = {
    checker: keyChecker({ upstream: deps.upstream, now }),
    ownerOf,
    knownOwner: async (owner: string) =>
      (await storage.library.list(owner, { limit: 1 }).catch(() => [])).length > 0,
  };
  app.use('/api/*', acceptedKey({ ...keys, writes: writesUnderKey }));
  // MCP over HTTP: the same key, its tools calling this app in-process.
  const mcp = mcpRoutes({
    ...keys,
    publicUrl: deps.publicUrl,
    self: (r, env) => app.fetch(r, env),
  });

  // Kiln's own routes. Their order means nothing (decision 0105): each says on its own routes
  // what it needs (a key, a body limit), no route rewrites another's answer, and every library
  // entry is built by one service (library/entries.ts). route-order.test.ts mounts them in other
  // orders and gets the same answers.
  const routes: readonly Mount[] = [
    at('/', opsRoutes(deps, services, metrics, readiness)),
    at(
      '/api/v1',
      proxyApp(deps, services, { keys: keys.checker, registry, shutdown: draining.signal }),
    ),
    at('/mcp', mcp.routes),
    at('/api/providers', providerRoutes({ registry, now })),
    at('/api/uploads', uploadsApp(deps, services, metrics)),
    at('/api/assets', assetRoutes({ blobs: deps.blobs, store: storage.library, ownerOf, signer })),
    at('/api', shareOwnerRoutes({ shares: storage.shares, ownerOf })),
    at(
      '/api',
      shareRoutes({
        shares: storage.shares,
        library: storage.library,
        blobs: deps.blobs,
        ownerOf,
        publicUrl: deps.publicUrl,
        now,
      }),
    ),
    at(
      '/api',
      collectionRoutes({
        collections: storage.collections,
        blobs: deps.blobs,
        ownerOf,
        sign: (path) => signer.sign(path),
        publicUrl: deps.publicUrl,
        now,
        log,
      }),
    ),
    at(
      '/api',
      libraryRoutes({
        store: storage.library,
        entries,
        collections: storage.collections,
        ownerOf,
        blobs: deps.blobs,
        intents: storage.intents,
        prices,
        catchUp: catchUp({ upstream: deps.upstream, library, now, log }),
        now,
        ...(storage.exclusive ? { clockMarginMs: 0 } : {}),
        ...(deps.statedBalance ? { statedBalance: deps.statedBalance } : {}),
      }),
    ),
    at('/api', optimiser.routes),
  ];
  for (const mount of deps.routeOrder?.(routes) ?? routes) mount.onto(app);

  const mock = deps.mock;
  if (mock) app.all('/mock/*', (c) => mock.fetch(c.req.raw));

  app.all('/api/*', (c) => {
    throw new ApiError(404, {
      code: ERROR_CODES.routeNotFound,
      message: `No route ${c.req.method} ${c.req.path}.`,
    });
  });

  serveSite(app, deps);
  return {
    app,
    readiness,
    drain(options) {
      readiness.drain();
      draining.abort();
      optimiser.jobs.drain(options?.graceMs ?? 0);
    },
    get inFlight() {
      return inFlight;
    },
    work() {
      const load = optimiser.jobs.load;
      return {
        archives: archiver.running,
        optimise_running: load.running,
        optimise_queued: load.waiting,
      };
    },
    start() {
      archiver.start();
      uploadSweeper.start();
    },
    async stop() {
      uploadSweeper.stop();
      await Promise.all([archiver.stop(), optimiser.stop(), mcp.close()]);
    },
    async sweep() {
      return { archived: await archiver.sweep(), uploadsRemoved: await uploadSweeper.sweep() };
    },
  };
}

/**
 * The requests that may write under their key: Kiln's own routes that change something, and
 * the one proxied route that records (a create). Uploads are keyless; other proxied calls only
 * pass through, and the upstream answers a bad key there itself.
 */
function writesUnderKey(c: Context): boolean {
  const { method, path } = c.req;
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return false;
  if (path.startsWith('/api/uploads')) return false;
  if (path.startsWith('/api/v1/')) return path === '/api/v1/3d/generations';
  return true;
}

/** `/api/v1`: the proxy, with the vendors' adapters behind `provider/model` creates. */
function proxyApp(
  deps: ServerDeps & { upstream: ProxyTarget },
  { library, now, log, ownerOf }: Services,
  extra: { keys: KeyChecker; registry: ProviderRegistry; shutdown: AbortSignal },
) {
  const { storage } = deps;
  return proxyRoutes({
    keys: extra.keys,
    upstream: deps.upstream,
    library,
    storage,
    ownerOf,
    now,
    log,
    createsPerMinute: deps.limits.createsPerMinute,
    shutdown: extra.shutdown,
    providers: {
      registry: extra.registry,
      library,
      store: storage.library,
      intents: storage.intents,
      refs: storage.providerRefs,
      holder: storage.holder,
      now,
      log,
    },
    ...(deps.timeouts ? { timeouts: deps.timeouts } : {}),
  });
}

/** Uploads: files and pasted addresses, fetched safely, named for the upstream to fetch. */
function uploadsApp(deps: ServerDeps, { now }: Services, metrics: Metrics): Hono {
  const { storage } = deps;
  return uploadRoutes({
    blobs: deps.blobs,
    index: storage.uploads,
    counters: storage.counters,
    now,
    perMinute: deps.limits.uploads.perMinute,
    quotaBytes: deps.limits.uploads.quotaBytes,
    trustedProxies: deps.limits.trustedProxies,
    onOutcome: (outcome, bytes) => {
      metrics.uploads.inc({ outcome });
      if (bytes) metrics.uploadBytes.inc(bytes);
    },
    fetchImage:
      deps.fetchImage ??
      (async (url, maxBytes) =>
        (
          await safeFetch(url, {
            maxBytes,
            timeoutMs: 15_000,
            accept: 'image/png,image/jpeg,image/webp,image/*;q=0.8',
            // Public addresses, and Kiln's own origins exactly (an image address copied from
            // Kiln itself): scheme, host and effective port, never the host's other ports.
            allowedHosts: exactOrigins([deps.ownOrigin?.(), deps.publicUrl]),
          })
        ).bytes),
    ownOrigins: () => exactOrigins([deps.ownOrigin?.(), deps.publicUrl]),
    urlFor: uploadUrlStrategy({
      publicUrl: deps.publicUrl,
      mode: deps.info.mode,
      ...(deps.ownOrigin ? { ownOrigin: deps.ownOrigin } : {}),
    }),
  });
}
