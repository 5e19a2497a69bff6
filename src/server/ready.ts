import { raceSignal } from '../async/index.ts';
import { ERROR_CODES, errorObjectFor } from '../contract/index.ts';
import type { BlobStore } from './storage/blobs.ts';
import type { Storage } from './storage/database.ts';

export type CheckState = 'ok' | 'down' | 'draining';

export interface Readiness {
  ready: boolean;
  checks: { database: CheckState; file_store: CheckState };
  /** Why not, in a sentence, when not ready. */
  message?: string;
}

/**
 * `GET /api/ready`: whether this replica can do its work, for a load balancer and for the
 * studio's "cannot be reached" banner. The database answers a trivial query and the file store
 * a lookup of a file that is not there, each within `timeoutMs`; the answer is kept for
 * `cacheMs` so that many probes cost one check. Once `drain()` is called (shutting down) it is
 * never ready again.
 */
export function createReadiness(deps: {
  storage: Pick<Storage, 'ping'>;
  blobs: BlobStore;
  now?: () => number;
  timeoutMs?: number;
  cacheMs?: number;
}) {
  const now = deps.now ?? Date.now;
  const timeoutMs = deps.timeoutMs ?? 2_000;
  const cacheMs = deps.cacheMs ?? 1_000;
  let cached: { atMs: number; value: Readiness } | undefined;
  let checking: Promise<Readiness> | undefined;
  let draining = false;

  const within = async (work: () => Promise<unknown>): Promise<CheckState> => {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      await raceSignal(work(), signal);
      return 'ok';
    } catch {
      return 'down';
    }
  };

  async function run(): Promise<Readiness> {
    const [database, fileStore] = await Promise.all([
      within(() => deps.storage.ping()),
      within(() => deps.blobs.get('uploads', '0'.repeat(64), 'png')),
    ]);
    const down = [
      database === 'down' ? 'its database' : null,
      fileStore === 'down' ? 'its file store (uploads and models)' : null,
    ].filter((d): d is string => d !== null);
    return {
      ready: down.length === 0,
      checks: { database, file_store: fileStore },
      ...(down.length ? { message: `Kiln cannot reach ${down.join(' or ')} just now.` } : {}),
    };
  }

  return {
    async check(): Promise<Readiness> {
      if (draining)
        return {
          ready: false,
          checks: { database: 'draining', file_store: 'draining' },
          message: 'This Kiln server is shutting down; another one answers.',
        };
      const t = now();
      if (cached && t - cached.atMs < cacheMs) return cached.value;
      checking ??= run().finally(() => (checking = undefined));
      const value = await checking;
      cached = { atMs: now(), value };
      return value;
    },
    /** From now on, not ready (a graceful shutdown has begun). */
    drain() {
      draining = true;
    },
  };
}

/** The body of a 503 from `/api/ready`: the spec's error shape, plus the checks. */
export function notReadyBody(r: Readiness) {
  return {
    ...r,
    error: errorObjectFor(503, {
      code: ERROR_CODES.serviceUnavailable,
      message: r.message ?? 'Not ready.',
    }),
  };
}
