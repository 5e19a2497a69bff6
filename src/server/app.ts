import { Hono, type Context } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ERROR_CODES } from '../contract/index.ts';
import { safeFetch } from '../net/index.ts';
import { createArchiver } from './library/archive.ts';
import { assetSigner } from './library/asset-access.ts';
import { assetRoutes } from './library/assets.ts';
import { libraryRoutes } from './library/routes.ts';
import { createLibraryService } from './library/service.ts';
import { listedPrices } from './library/prices.ts';
import { ApiError, onApiError } from '../http/index.ts';
import { apiBoundary } from './middleware/boundary.ts';
import type { ServerLimits } from './config.ts';
import { createOptimiser, type OptimiserOptions } from './optimise/index.ts';
import { ownerHasher } from './owner-id.ts';
import { forwardRaw, type ProxyTarget } from './proxy/forward.ts';
import { catchUp } from './proxy/catch-up.ts';
import { proxyRoutes } from './proxy/routes.ts';
import { createReadiness, notReadyBody, type Readiness } from './ready.ts';
import { createLogger, type Logger } from './ops/logger.ts';
import { createMetrics } from './ops/metrics.ts';
import { requestLog } from './ops/request-log.ts';
import { observedUpstream } from './ops/upstream-metrics.ts';
import { securityHeaders } from './security.ts';
import { sharePageRoutes, shareRoutes } from './share/routes.ts';
import { MANIFEST_PATH, readManifest, routeShells } from './spa-shell.ts';
import { guardedBlobs, isBlobOutage, type BlobStore } from './storage/blobs.ts';
import { isStorageUnavailable, type Storage } from './storage/database.ts';
import { createUploadSweeper } from './uploads/retention.ts';
import { uploadRoutes } from './uploads/routes.ts';
import { uploadUrlStrategy } from './uploads/url-strategy.ts';

export interface ServerDeps {
  /** Where `/api/v1/*` goes. */
  upstream: ProxyTarget;
  /** Mounted at `/mock/v1` in mock mode. */
  mock?: { fetch: (request: Request) => Response | Promise<Response> };
  /** The database: library, credits, idempotency records, counters, leases, the upload index. */
  storage: Storage;
  blobs: BlobStore;
  /** The secret the library hashes keys with (see owner-id.ts). */
  secret: Buffer;
  /** Fetches a completed task's GLB for the archive (SSRF-guarded in production). */
  fetchGlb: (url: string) => Promise<Uint8Array>;
  /**
   * Fetches a pasted image address for `POST /api/uploads/from-url`. Default: `safeFetch`,
   * public addresses only.
   */
  fetchImage?: (url: string, maxBytes: number) => Promise<Uint8Array>;
  /** Where the upstream fetches uploads from: PUBLIC_URL, this server (mock mode), or data: URIs. */
  publicUrl?: string | undefined;
  /**
   * This server's own origin once it listens (mock mode names uploads on it, and the embedded
   * mock may fetch from it); the request's origin is used until then, and in tests.
   */
  ownOrigin?: () => string | undefined;
  /** The built SPA (vite build output); absent in API-only tests. */
  staticDir?: string;
  /** Facts the SPA may show: mock mode, the demo key. */
  info: { mode: 'mock' | 'upstream'; demoKey?: string };
  /** The rate limits, the uploads' quota and retention, the proxies believed (config.ts). */
  limits: ServerLimits;
  /** Upstream time limits (defaults: 70 s for sync creates, 20 s otherwise). */
  timeouts?: { syncMs: number; defaultMs: number };
  now?: () => number;
  log?: (message: string) => void;
  /** The optimiser's jobs: how many at once, their time limit (defaults: 1, 2 minutes). */
  optimise?: OptimiserOptions;
  /** The structured log (pino): a line per request, and what `log` says. None: not logged. */
  logger?: Logger;
  /** When set, GET /metrics needs `Authorization: Bearer <metricsToken>`. */
  metricsToken?: string | undefined;
}

export interface ServerApp {
  app: Hono;
  /** Whether this replica can work now; `drain()` turns it false for good (shutdown). */
  readiness: { check(): Promise<Readiness>; drain(): void };
  /**
   * A graceful shutdown begins: readiness turns 503, sync creates waiting for their task answer
   * the pending shape at once (the client polls on, on another replica), and answers close
   * their connection.
   */
  drain(): void;
  /** Requests being answered now. */
  readonly inFlight: number;
  /** Background work under way in this process (what a forced exit would abandon). */
  work(): { archives: number; optimise_running: number; optimise_queued: number };
  /** Starts the background work: archive retries, upload retention. */
  start(): void;
  /** Stops it and waits for downloads under way. */
  stop(): Promise<void>;
  /** One pass of each, now (tests). */
  sweep(): Promise<{ archived: number; uploadsRemoved: number }>;
}

/** A logger that writes nothing (tests, and servers made without one). */
const silentLogger = createLogger({ format: 'json', level: 'silent' });

/** Compares two secrets in constant time (their lengths may differ). */
function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The CSP of the KTX2 worker script: eval for embind, wasm, and nothing from elsewhere. */
export const KTX2_WORKER_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; connect-src 'self'";

export function createServerApp(input: ServerDeps): ServerApp {
  const metrics = createMetrics();
  // Outages of the file store are told apart from the database's (their 503 says which); every
  // upstream call is counted and timed.
  const deps = {
    ...input,
    blobs: guardedBlobs(input.blobs),
    upstream: observedUpstream(input.upstream, metrics),
  };
  const now = deps.now ?? Date.now;
  const logger = deps.logger;
  const log = deps.log ?? (logger ? (m: string) => logger.info(m) : () => {});
  const ownerOf = ownerHasher(deps.secret);
  const { storage } = deps;
  const archiver = createArchiver({
    store: storage.library,
    blobs: deps.blobs,
    leases: storage.leases,
    holder: storage.holder,
    fetchGlb: deps.fetchGlb,
    now,
    log: (m) => log(`library: ${m}`),
    onOutcome: (outcome) => metrics.archives.inc({ outcome }),
  });
  const signer = assetSigner(deps.secret, now);
  const library = createLibraryService({
    store: storage.library,
    uploads: storage.uploads,
    archiver,
    intents: storage.intents,
    signer,
    now,
    log: (m) => log(`library: ${m}`),
    onFinished: (model, outcome) => {
      metrics.tasksFinished.inc({ model, outcome });
      const price = lastPrices.get(model);
      if (outcome === 'failed' && price !== undefined)
        metrics.creditsRefunded.inc({ model }, price);
    },
  });
  /** The last prices any key's listing said (a refund is counted at its model's price). */
  const lastPrices = new Map<string, number>();
  const prices = listedPrices(async (incoming) => {
    const res = await forwardRaw(deps.upstream, {
      incoming: new Request(incoming.url, {
        headers: { authorization: incoming.headers.get('authorization') ?? '' },
      }),
      path: '/models',
      timeoutMs: 5_000,
    });
    return res.ok ? res.json() : undefined;
  }, now);
  const pricesNoted: typeof prices = async (owner, incoming) => {
    const found = await prices(owner, incoming);
    for (const [model, price] of found) lastPrices.set(model, price);
    return found;
  };
  const uploadSweeper = createUploadSweeper({
    index: storage.uploads,
    blobs: deps.blobs,
    retentionMs: deps.limits.uploads.retentionMs,
    now,
    log: (m) => log(`uploads: ${m}`),
  });

  const optimiser = createOptimiser({
    signer,
    store: storage.library,
    jobStore: storage.optimiseJobs,
    holder: storage.holder,
    exclusive: storage.exclusive,
    blobs: deps.blobs,
    ownerOf,
    now,
    log: (m) => log(`optimise: ${m}`),
    onFinished: (outcome) => metrics.optimiseFinished.inc({ outcome }),
    ...deps.optimise,
  });
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
      logger: logger ?? silentLogger,
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
        /^\/api\/library\/[^/]+\/thumbnail$/.test(path)
      );
    }),
  );

  // Liveness: this process answers. Readiness: it can do its work (database and file store).
  app.get('/api/health', (c) => c.json({ ok: true }));
  app.get('/api/ready', async (c) => {
    const r = await readiness.check();
    return r.ready
      ? c.json(r, 200, { 'cache-control': 'no-store' })
      : c.json(notReadyBody(r), 503, { 'cache-control': 'no-store', 'retry-after': '5' });
  });
  app.get('/api/info', (c) => c.json(deps.info));
  // Prometheus' text format, with the process's own metrics; METRICS_TOKEN guards it.
  app.get('/metrics', async (c) => {
    const token = deps.metricsToken;
    if (token && !sameSecret(c.req.header('authorization') ?? '', `Bearer ${token}`))
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
  app.route(
    '/api/v1',
    proxyRoutes({
      upstream: deps.upstream,
      library,
      storage,
      ownerOf,
      now,
      log,
      createsPerMinute: deps.limits.createsPerMinute,
      shutdown: draining.signal,
      ...(deps.timeouts ? { timeouts: deps.timeouts } : {}),
    }),
  );
  app.route(
    '/api/uploads',
    uploadRoutes({
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
              allowedHosts: [deps.ownOrigin?.(), deps.publicUrl]
                .filter((u): u is string => Boolean(u))
                .map((u) => new URL(u).origin),
            })
          ).bytes),
      ownOrigins: () =>
        [deps.ownOrigin?.(), deps.publicUrl]
          .filter((u): u is string => Boolean(u))
          .map((u) => new URL(u).origin),
      urlFor: uploadUrlStrategy({
        publicUrl: deps.publicUrl,
        mode: deps.info.mode,
        ...(deps.ownOrigin ? { ownOrigin: deps.ownOrigin } : {}),
      }),
    }),
  );
  app.route(
    '/api/assets',
    assetRoutes({ blobs: deps.blobs, store: storage.library, ownerOf, signer }),
  );
  // Before the library's routes: it adds each entry's `share` to their answers.
  app.route(
    '/api',
    shareRoutes({
      shares: storage.shares,
      library: storage.library,
      blobs: deps.blobs,
      ownerOf,
      publicUrl: deps.publicUrl,
      now,
    }),
  );
  app.route(
    '/api',
    libraryRoutes({
      store: storage.library,
      library,
      ownerOf,
      blobs: deps.blobs,
      intents: storage.intents,
      prices: pricesNoted,
      catchUp: catchUp({ upstream: deps.upstream, library, now, log }),
      now,
      ...(storage.exclusive ? { clockMarginMs: 0 } : {}),
    }),
  );
  app.route('/api', optimiser.routes);

  const mock = deps.mock;
  if (mock) app.all('/mock/v1/*', (c) => mock.fetch(c.req.raw));

  app.all('/api/*', (c) => {
    throw new ApiError(404, {
      code: ERROR_CODES.routeNotFound,
      message: `No route ${c.req.method} ${c.req.path}.`,
    });
  });

  const staticDir = deps.staticDir;
  if (staticDir && existsSync(join(staticDir, 'index.html'))) {
    const root = relative(process.cwd(), staticDir) || '.';
    const indexHtml = readFileSync(join(staticDir, 'index.html'), 'utf8');
    // Headers for the files serveStatic finds, set once its response exists (its onFound runs
    // after the response is built, so headers set there are lost): /assets/* are content-hashed,
    // cached for good; a file with precompressed siblings varies on Accept-Encoding.
    const served = new WeakMap<Context, string>();
    app.use('*', async (c, next) => {
      await next();
      const file = served.get(c);
      if (file === undefined) return;
      if (c.req.path.startsWith('/assets/'))
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      const compressed = /\.(?:br|gz)$/.test(file); // serveStatic has said Vary then
      if (!compressed && (existsSync(`${file}.br`) || existsSync(`${file}.gz`)))
        c.header('Vary', 'Accept-Encoding');
    });
    // The KTX2 transcoding worker (see vite.config.ts) runs Basis' embind-generated code, which
    // needs eval: it gets a policy of its own that allows it, in that worker only.
    app.use('/decoders/basis/ktx2-worker.js', async (c, next) => {
      await next();
      c.header('Content-Security-Policy', KTX2_WORKER_CSP);
    });
    // Vite's build manifest (read above, for the route shells) is not for browsers.
    app.all(`/${dirname(MANIFEST_PATH)}/*`, (c) => c.notFound());
    // The build writes .br and .gz siblings of its compressible files (vite.config.ts); they go
    // out with Content-Encoding to browsers that accept them (br first, then gzip), with the
    // original file's Content-Type.
    app.use(
      '*',
      serveStatic({ root, precompressed: true, onFound: (path, c) => void served.set(c, path) }),
    );
    // A shared model's public page: the shell with its link preview (Open Graph) tags.
    const manifest = readManifest(staticDir);
    app.route(
      '/s',
      sharePageRoutes({ shares: storage.shares, publicUrl: deps.publicUrl, indexHtml, manifest }),
    );
    // Client-side routes fall back to the SPA shell; some get one that names their chunks.
    const shells = routeShells(indexHtml, manifest);
    app.get('*', (c) =>
      c.html(shells.get(c.req.path) ?? indexHtml, 200, { 'Cache-Control': 'no-cache' }),
    );
  }
  return {
    app,
    readiness,
    drain() {
      readiness.drain();
      draining.abort();
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
      await Promise.all([archiver.stop(), optimiser.stop()]);
    },
    async sweep() {
      return { archived: await archiver.sweep(), uploadsRemoved: await uploadSweeper.sweep() };
    },
  };
}
