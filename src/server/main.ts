// Kiln's one process: the SPA, /api, and (without UPSTREAM_URL) the mock at /mock/v1.
// The composition root: the only file that reads the environment or opens a port.
import { keepConnectionsOpen } from '../http/keep-alive.ts';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { join, resolve } from 'node:path';
import { openMockUpstream } from '../mock/create.ts';
import { SafeFetchError, fetchGlbSafely } from '../net/index.ts';
import { createServerApp, type ServerApp } from './app.ts';
import { configuredProviders, type ProviderUrls } from './providers/configure.ts';
import { createLogger } from './ops/logger.ts';
import { limitsOf } from './config.ts';
import { readKilnConfig } from './kiln-config.ts';
import { loadServerSecret } from './owner-id.ts';
import { diskBlobStore, type BlobStore } from './storage/blobs.ts';
import { openPostgresStorage, openSqliteStorage, type Storage } from './storage/database.ts';
import { s3BlobStore } from './storage/s3-blobs.ts';

const read = readKilnConfig(process.env);
if (!read.ok) {
  console.error(`kiln: bad configuration, not starting\n${read.problems}`);
  process.exit(2);
}
const { config, demoKeyName } = read;
// One JSON object a line when stdout is not a terminal, readable lines on one (LOG_FORMAT).
const logger = createLogger({ format: config.LOG_FORMAT, level: config.LOG_LEVEL });
const log = (m: string) => logger.info(m);
const demo = config.MOCK_KEYS.find((k) => k.key === demoKeyName);
/** This server's own origin, once it listens (the embedded mock fetches uploads from it). */
let ownOrigin: string | undefined;

const dataDir = resolve(config.DATA_DIR);
const storage = await openStorage();
const blobs: BlobStore = config.S3_BUCKET
  ? s3BlobStore({
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE ?? config.S3_ENDPOINT !== undefined,
    })
  : diskBlobStore(join(dataDir, 'blobs'));
const secret = config.KILN_SECRET ? Buffer.from(config.KILN_SECRET) : loadServerSecret(dataDir);

/** SQLite in DATA_DIR, or the shared PostgreSQL (retried for 30 s: it may start after Kiln). */
async function openStorage(): Promise<Storage> {
  const url = config.DATABASE_URL;
  if (!url) return openSqliteStorage(join(dataDir, 'kiln.sqlite'));
  const where = URL.parse(url)?.host ?? 'DATABASE_URL';
  for (let attempt = 1; ; attempt++) {
    try {
      return await openPostgresStorage(url, { log });
    } catch (err) {
      if (attempt >= 30) {
        console.error(`kiln: cannot reach the database at ${where}: ${String(err)}`);
        process.exit(1);
      }
      if (attempt === 1) log(`waiting for the database at ${where} (${String(err)})`);
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}
const staticDir = resolve(import.meta.dirname, '../../dist');
const common = {
  storage,
  blobs,
  secret,
  staticDir,
  publicUrl: config.PUBLIC_URL,
  ownOrigin: () => ownOrigin,
  limits: limitsOf(config),
  log,
  logger,
  metricsToken: config.METRICS_TOKEN,
};

const providerUrls: ProviderUrls = {
  meshy: config.MESHY_API_URL,
  tripo: config.TRIPO_API_URL,
  fal: config.FAL_API_URL,
  falPlatform: config.FAL_PLATFORM_API_URL,
};
/** The hosts configured by address (upstream, vendors): they may live on a private address. */
const configuredHosts = [
  config.UPSTREAM_URL,
  config.MESHY_API_URL,
  config.TRIPO_API_URL,
  config.FAL_API_URL,
].flatMap((u) => (u ? [new URL(u).host] : []));

let closeMock = async () => {};
let vendorDemoKeys: string[] = [];
let kiln: ServerApp;
if (config.UPSTREAM_URL) {
  kiln = createServerApp({
    ...common,
    upstream: { baseUrl: config.UPSTREAM_URL, fetch: (r) => fetch(r) },
    providers: configuredProviders(providerUrls),
    // The configured upstream and vendors may live on a private address; nothing else may.
    fetchGlb: (url) => fetchGlbSafely(url, { allowedHosts: configuredHosts }),
    info: { mode: 'upstream' },
  });
} else {
  const mock = await openMockUpstream({
    dataDir,
    keys: config.MOCK_KEYS,
    speed: config.MOCK_SPEED,
    ratePerMinute: config.MOCK_RATE_LIMIT,
    imagePolicy: {
      // Kiln's own uploads (mock mode names them on this server's origin) and PUBLIC_URL's,
      // each exactly that origin.
      ownOrigins: () => [ownOrigin, config.PUBLIC_URL],
      allowPrivate: config.MOCK_ALLOW_PRIVATE_FETCH,
    },
    log: (m) => log(`mock: ${m}`),
    vendors: config.MOCK_PROVIDERS,
  });
  closeMock = () => mock.close();
  const mockRoot = new Hono().route('/mock/v1', mock.app);
  for (const vendor of mock.vendors) vendor.mount(mockRoot, `/mock/${vendor.name}`);
  vendorDemoKeys = mock.vendors.map((v) => `${v.name}: ${v.demoKey}`);
  kiln = createServerApp({
    ...common,
    // In-process: the proxy calls the mock's fetch with the /mock/v1 URL on this origin, no socket hop.
    upstream: {
      baseUrl: (incoming) => `${incoming.origin}/mock/v1`,
      fetch: async (r) => mockRoot.fetch(r),
      inProcess: true,
    },
    mock: mockRoot,
    // The vendors MOCK_PROVIDERS names are their built-in mocks, reached in-process; the others
    // their real APIs.
    providers: configuredProviders(
      providerUrls,
      mock.vendors.map((v) => ({
        name: v.name,
        demoKey: v.demoKey,
        origin: () => ownOrigin ?? `http://127.0.0.1:${config.PORT}`,
        fetch: async (r) => mockRoot.fetch(r),
      })),
    ),
    // Before any task has stated a balance, the mock's own figure for the key (decision 0100).
    statedBalance: (key) => mock.balanceOf(key),
    // The embedded mock's files are read in-process; any other URL goes through the SSRF guard.
    fetchGlb: async (url) => {
      const u = URL.parse(url);
      if (!u?.pathname.startsWith('/mock/')) return fetchGlbSafely(url);
      const res = await mockRoot.fetch(new Request(u));
      if (!res.ok)
        throw new SafeFetchError(
          'http_status',
          `The mock answered ${res.status} for ${u.pathname}.`,
        );
      return new Uint8Array(await res.arrayBuffer());
    },
    info: { mode: 'mock', ...(demo ? { demoKey: demo.key } : {}) },
  });
}

const { app } = kiln;
kiln.start();
const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  const url = `http://${host}:${info.port}`;
  // A wildcard address is reached on loopback from this machine.
  const reachable = ['0.0.0.0', '::', '[::]'].includes(host) ? '127.0.0.1' : host;
  ownOrigin = `http://${reachable}:${info.port}`;
  // One write, so whoever waits for "listening on" has the whole banner.
  const lines = [`listening on ${url}`, `data in ${dataDir}`];
  if (!config.UPSTREAM_URL) {
    lines.push(
      `mock mode (speed ${config.MOCK_SPEED}): the embedded mock upstream is at ${url}/mock/v1`,
    );
    if (demo) lines.push(`demo key: ${demo.key} (${demo.balance} credits)`);
    for (const line of vendorDemoKeys) lines.push(`mock provider ${line} (a demo account)`);
  } else {
    lines.push(`upstream: ${config.UPSTREAM_URL}`);
  }
  lines.push(
    `storage: ${config.DATABASE_URL ? `PostgreSQL at ${URL.parse(config.DATABASE_URL)?.host ?? '?'}` : 'SQLite in DATA_DIR'}, blobs ${config.S3_BUCKET ? `in S3 bucket ${config.S3_BUCKET}` : 'in DATA_DIR'}`,
  );
  if (config.DATABASE_URL && !config.UPSTREAM_URL)
    lines.push(
      'note: the embedded mock keeps its state in this process; replicas share an upstream (npm run mock)',
    );
  lines.push(`open ${url} in your browser`);
  // One write on a terminal, so whoever waits for "listening on" has the whole banner.
  // (Below info, the banner is still written: it is how a person, or a script, finds the URL.)
  if (!logger.isLevelEnabled('info') || (config.LOG_FORMAT !== 'json' && process.stdout.isTTY))
    console.log(lines.map((l) => `kiln: ${l}`).join('\n'));
  // One line in the JSON log: the first sentence as msg, the whole banner beside it.
  else logger.info({ url, banner: lines.slice(1) }, lines[0]!);
});
keepConnectionsOpen(server);
server.on('error', (err: NodeJS.ErrnoException) => {
  console.error(
    err.code === 'EADDRINUSE'
      ? `kiln: port ${config.PORT} is in use; set PORT to another port (PORT=8090 npm start).`
      : `kiln: could not listen: ${err.message}`,
  );
  process.exit(1);
});

// A graceful shutdown (SIGTERM from a deploy, or Ctrl-C): readiness turns 503 and sync creates
// answer the pending shape at once; the listener stops taking connections and requests in
// flight finish; archive work is handed back (leases released); optimise jobs finish within the
// grace or fail saying to run them again (0097); the database and workers close; exit 0. Past
// SHUTDOWN_GRACE it exits anyway (1), saying what it left.
let stopping = false;
const shutdown = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal, grace_ms: config.SHUTDOWN_GRACE }, `${signal}: shutting down gracefully`);
  kiln.drain({ graceMs: config.SHUTDOWN_GRACE });
  const grace = setTimeout(() => {
    logger.warn(
      { in_flight: kiln.inFlight, work: kiln.work() },
      `shutdown grace (${config.SHUTDOWN_GRACE} ms) passed: exiting, abandoning ${kiln.inFlight} requests and ${JSON.stringify(kiln.work())}`,
    );
    logger.flush();
    process.exit(1);
  }, config.SHUTDOWN_GRACE);
  grace.unref();
  const listening = new Promise<void>((resolve) => server.close(() => resolve()));
  // Keep-alive connections with nothing in flight go now; busy ones after their answer.
  const idle = setInterval(
    () => (server as unknown as { closeIdleConnections?: () => void }).closeIdleConnections?.(),
    100,
  );
  void listening
    .then(() => clearInterval(idle))
    .then(() => kiln.stop())
    .then(() => closeMock())
    .then(() => storage.close())
    .then(() => {
      logger.info('stopped');
      logger.flush();
      process.exit(0);
    })
    .catch((err: unknown) => {
      logger.error({ err }, 'shutdown failed');
      logger.flush();
      process.exit(1);
    });
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
