// Tests only: the Kiln server in-process, over the real mock (or a scripted upstream), with
// real storage (SQLite file and blobs in a temp DATA_DIR).
import { Hono } from 'hono';
import { afterEach } from 'vitest';
import { PendingTaskSchema, TaskSchema, type Task } from '../contract/index.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestMock, type TestMock } from './mock.ts';
import { createServerApp, type ServerApp, type ServerDeps } from '../server/app.ts';
import { DEFAULT_LIMITS, type ServerLimits } from '../server/config.ts';
import { diskBlobStore } from '../server/storage/blobs.ts';
import { openSqliteStorage, type Storage } from '../server/storage/database.ts';
import type { LibraryStore } from '../server/storage/library.ts';
import { blobsWithOutage, storageWithOutage, type Outage } from './outage.ts';

export const ORIGIN = 'http://kiln.test';
export const KEY = 'tr_test_key';

export interface TestServer {
  app: Hono;
  server: ServerApp;
  storage: Storage;
  mock: TestMock;
  store: LibraryStore;
  dataDir: string;
  logs: string[];
  /** In-process request to the server; the key goes in Authorization unless `key: null`. */
  request(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

export async function startTestServer(
  options: {
    mock?: Parameters<typeof startTestMock>[0];
    upstream?: ServerDeps['upstream'];
    fetchGlb?: ServerDeps['fetchGlb'];
    dataDir?: string;
    /** Switch `database.down` or `blobs.down` to make that store refuse every call. */
    outages?: { database?: Outage; blobs?: Outage };
    /** New tasks per minute per key; default 0 here (no limit). */
    createsPerMinute?: number;
    /** The uploads' limits; the rest are the server's defaults. */
    uploads?: Partial<ServerLimits['uploads']>;
    trustedProxies?: number;
    /** Ask the mock for a key's balance before any task states one, as mock mode does. */
    statedBalance?: boolean;
  } & Partial<
    Pick<
      ServerDeps,
      | 'timeouts'
      | 'publicUrl'
      | 'info'
      | 'staticDir'
      | 'now'
      | 'logger'
      | 'metricsToken'
      | 'routeOrder'
      | 'providers'
    >
  > = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'kiln-server-'));
  const mock = await startTestMock(options.mock ?? {});
  const mockRoot = new Hono().route('/mock/v1', mock.app);
  const realStorage = await openSqliteStorage(join(dataDir, 'kiln.sqlite'));
  const storage = options.outages?.database
    ? storageWithOutage(realStorage, options.outages.database)
    : realStorage;
  const realBlobs = diskBlobStore(join(dataDir, 'blobs'));
  const blobs = options.outages?.blobs
    ? blobsWithOutage(realBlobs, options.outages.blobs)
    : realBlobs;
  const logs: string[] = [];
  const server = createServerApp({
    upstream: options.upstream ?? {
      baseUrl: (incoming) => `${incoming.origin}/mock/v1`,
      fetch: async (r) => mockRoot.fetch(r),
      inProcess: true,
    },
    mock: mockRoot,
    storage,
    blobs,
    secret: Buffer.alloc(32, 7),
    fetchGlb:
      options.fetchGlb ??
      (async (url) => {
        const res = await mockRoot.fetch(new Request(url));
        if (!res.ok) throw new Error(`model_url answered ${res.status}`);
        return new Uint8Array(await res.arrayBuffer());
      }),
    info: options.info ?? { mode: 'mock', demoKey: KEY },
    limits: {
      createsPerMinute: options.createsPerMinute ?? 0,
      uploads: { ...DEFAULT_LIMITS.uploads, ...options.uploads },
      trustedProxies: options.trustedProxies ?? DEFAULT_LIMITS.trustedProxies,
    },
    ...givenOf(options, PASSED_AS_GIVEN),
    ...(options.statedBalance ? { statedBalance: (k: string) => mock.balanceOf(k) } : {}),
    log: (m) => logs.push(m),
  });
  const { app } = server;
  return {
    app,
    server,
    storage,
    mock,
    store: storage.library,
    dataDir,
    logs,
    request(path, init = {}) {
      const { key = KEY, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== null) headers.set('authorization', `Bearer ${key}`);
      if (typeof rest.body === 'string' && !headers.has('content-type'))
        headers.set('content-type', 'application/json');
      return Promise.resolve(app.request(`${ORIGIN}${path}`, { ...rest, headers }));
    },
    async close() {
      await server.stop();
      await mock.close();
      await realStorage.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The server's own options a test may give, passed on as they are. */
const PASSED_AS_GIVEN = [
  'timeouts',
  'publicUrl',
  'staticDir',
  'now',
  'logger',
  'metricsToken',
  'routeOrder',
  'providers',
] as const;

/** The options given (set and not undefined) among `names`, as they are. */
function givenOf<T extends object, K extends keyof T>(options: T, names: readonly K[]) {
  return Object.fromEntries(
    names.filter((n) => options[n] !== undefined).map((n) => [n, options[n]]),
  ) as { [P in K]?: Exclude<T[P], undefined> };
}

/** A JSON POST for `TestServer.request` (the body as JSON; headers added). */
export const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers,
});

/** Polls a task through the server until it is no longer pending; its last answer too. */
export async function pollUntilDone(
  s: TestServer,
  id: string,
  key = KEY,
): Promise<{ task: Task; res: Response }> {
  for (let i = 0; i < 500; i++) {
    const res = await s.request(`/api/v1/tasks/${id}`, { key });
    const task = TaskSchema.parse(await res.clone().json());
    if (task.status !== 'pending') return { task, res };
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error('task never finished');
}

/**
 * A task created through the proxy (with `key`) and polled until it has ended (the poll that sees
 * it done archives it): its id.
 */
export async function finishedTask(s: TestServer, body: object, key = KEY): Promise<string> {
  const created = await s.request('/api/v1/3d/generations', { ...post(body), key });
  const { id } = PendingTaskSchema.parse(await created.json());
  await pollUntilDone(s, id, key);
  return id;
}

/**
 * For a test file whose tests each start a server: call once at the top; each test then starts
 * its own with the function it returns, and it is closed after that test.
 */
export function serverPerTest(): (
  options?: Parameters<typeof startTestServer>[0],
) => Promise<TestServer> {
  const open: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((server) => server.close()));
  });
  return async (options) => {
    const server = await startTestServer(options);
    open.push(server);
    return server;
  };
}
