import type { ConfiguredProvider } from './providers/registry.ts';
// What the Kiln server is made of (injected I/O and settings), and what it hands back.
import type { Hono } from 'hono';
import type { ServerLimits } from './config.ts';
import type { OptimiserOptions } from './optimise/index.ts';
import type { StatedBalance } from './library/route-deps.ts';
import type { Logger } from './ops/logger.ts';
import type { ProxyTarget } from './proxy/forward.ts';
import type { Readiness } from './ready.ts';
import type { BlobStore } from './storage/blobs.ts';
import type { Storage } from './storage/database.ts';

export interface ServerDeps {
  /** Where `/api/v1/*` goes. */
  upstream: ProxyTarget;
  /** The vendors this Kiln reaches besides its upstream (issue 34; providers/configure.ts). */
  providers?: readonly ConfiguredProvider[];
  /** Mounted at `/mock/*` in mock mode: the spec's mock at /mock/v1, vendors' at /mock/<vendor>. */
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
  /**
   * A key's balance as the upstream holds it now, where it can be asked: the embedded mock in
   * mock mode (the API has no balance call). Shown before any task has stated a balance.
   */
  statedBalance?: StatedBalance;
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
  /**
   * Tests only: the order Kiln's own routes are mounted in (default: as written). Any order
   * answers the same (decision 0105, route-order.test.ts).
   */
  routeOrder?: <T>(routes: readonly T[]) => readonly T[];
}

export interface ServerApp {
  app: Hono;
  /** Whether this replica can work now; `drain()` turns it false for good (shutdown). */
  readiness: { check(): Promise<Readiness>; drain(): void };
  /**
   * A graceful shutdown begins: readiness turns 503, sync creates waiting for their task answer
   * the pending shape at once (the client polls on, on another replica), and answers close
   * their connection. Optimise jobs waiting fail at once; running ones may finish until shortly
   * before `graceMs` (default 0) has passed, then fail; each says to run it again (0097).
   */
  drain(options?: { graceMs?: number }): void;
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
