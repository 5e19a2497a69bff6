import { createLimiter } from '../../async/index.ts';
import { PROVIDER_LABELS, providerOfModel, type ArchiveOutage } from '../../contract/index.ts';
import { isBlobStoreUnavailable, type BlobStore } from '../storage/blobs.ts';
import { isStorageUnavailable } from '../storage/database.ts';
import type { Leases } from '../storage/leases.ts';
import type { LibraryRow, LibraryStore } from '../storage/library.ts';

export interface ArchiverDeps {
  store: LibraryStore;
  blobs: BlobStore;
  leases: Leases;
  /** This process's name in leases. */
  holder: string;
  /** Fetches a GLB safely (SSRF guard, size cap, magic check); throws on any problem. */
  fetchGlb: (url: string) => Promise<Uint8Array>;
  now: () => number;
  log: (message: string) => void;
  /** Told how each download ended (the metrics). */
  onOutcome?: (outcome: 'archived' | 'retry' | 'given_up' | 'storage_outage') => void;
}

/** Waits after the first, second, … failed attempt; past the last, Kiln gives up and says so. */
export const ARCHIVE_RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000];
/** How soon an archive interrupted by a storage outage is tried again (not counted as an attempt). */
export const STORE_OUTAGE_RETRY_MS = 15_000;

/**
 * What a library entry says while its archive waits on one of Kiln's own stores: kept as the
 * row's archive error, and read back by `outageOf` (decision 0095). The words are the entry's
 * `archive.error`; the SPA says them its own way from `archive.outage`.
 */
const OUTAGE_ERRORS: Record<ArchiveOutage, string> = {
  file_store:
    'Kiln’s file store could not be reached, so Kiln has not kept its copy of the model yet. It tries again by itself; this is not counted against the model.',
  database:
    'Kiln’s database could not be reached, so Kiln has not kept its copy of the model yet. It tries again by itself; this is not counted against the model.',
};

/** Which of Kiln's stores an archive waits on, from the error its row keeps; null for none. */
export function outageOf(error: string | null): ArchiveOutage | null {
  if (error === OUTAGE_ERRORS.file_store) return 'file_store';
  if (error === OUTAGE_ERRORS.database) return 'database';
  return null;
}
/** How long a claim on a task's download lasts (a download gives up after 30 s). */
const LEASE_MS = 60_000;

/**
 * Keeps a copy of every completed task's GLB (upstream URLs expire). At most one download per
 * task at a time, across every replica (a lease row per task); a failed download is retried
 * after 30 s, 2 min, 10 min and 1 h, by a sweep that no request waits on, then given up.
 */
export function createArchiver(deps: ArchiverDeps) {
  const running = new Map<string, Promise<string | undefined>>();
  const background = createLimiter(2);
  let timer: NodeJS.Timeout | undefined;

  async function download(row: LibraryRow): Promise<string | undefined> {
    const url = row.upstreamModelUrl;
    if (!url) return undefined;
    const lease = `archive:${row.taskId}`;
    let attempts = row.archiveAttempts;
    if (!(await deps.leases.claim(lease, deps.holder, deps.now(), LEASE_MS))) return undefined;
    // Which step is under way: an error is an outage of Kiln's own store only when that store
    // raised it (a refused connection from the upstream's host is the model's link failing).
    let step: 'database' | 'upstream' | 'file_store' = 'database';
    try {
      // Another replica may have finished it since this row was read.
      const fresh = (await deps.store.get(row.owner, row.taskId)) ?? row;
      if (fresh.assetSha256) return fresh.assetSha256;
      attempts = fresh.archiveAttempts;
      step = 'upstream';
      const glb = await deps.fetchGlb(url);
      step = 'file_store';
      const { sha256 } = await deps.blobs.put('assets', glb, 'glb');
      step = 'database';
      await deps.store.archived(row.taskId, sha256);
      deps.onOutcome?.('archived');
      deps.log(`archived ${row.taskId} as ${sha256.slice(0, 12)}… (${glb.byteLength} bytes)`);
      return sha256;
    } catch (err) {
      const message = failureText(err, step === 'upstream' ? row.model : null);
      const outage: ArchiveOutage | null =
        step === 'file_store' && isBlobStoreUnavailable(err)
          ? 'file_store'
          : step === 'database' && isStorageUnavailable(err)
            ? 'database'
            : null;
      if (outage) {
        // Kiln's own store is away (a bucket or database outage): not the model's fault, so
        // it is not counted against giving up; the sweep tries again soon, and the entry says
        // which store it waits on.
        await deps.store
          .archiveFailed(
            row.taskId,
            OUTAGE_ERRORS[outage],
            deps.now() + STORE_OUTAGE_RETRY_MS,
            false,
          )
          .catch(() => {});
        deps.log(`archive of ${row.taskId} waits for the ${outage.replace('_', ' ')}: ${message}`);
        deps.onOutcome?.('storage_outage');
        return undefined;
      }
      const delay = ARCHIVE_RETRY_DELAYS_MS[attempts];
      const next = delay === undefined ? null : deps.now() + delay;
      await deps.store.archiveFailed(row.taskId, message, next).catch(() => {});
      deps.onOutcome?.(next === null ? 'given_up' : 'retry');
      deps.log(
        next === null
          ? `archive of ${row.taskId} failed for good after ${attempts + 1} attempts: ${message}`
          : `archive of ${row.taskId} failed (retry in ${delay! / 1000} s): ${message}`,
      );
      return undefined;
    } finally {
      await deps.leases.release(lease, deps.holder).catch(() => {});
    }
  }

  /** One download per task in this process; the lease makes it one across replicas. */
  function archive(row: LibraryRow): Promise<string | undefined> {
    if (row.assetSha256) return Promise.resolve(row.assetSha256);
    const existing = running.get(row.taskId);
    if (existing) return existing;
    const job = download(row).finally(() => running.delete(row.taskId));
    running.set(row.taskId, job);
    return job;
  }

  /** Starts the downloads that are due (first tries a crash interrupted, and retries). */
  async function sweep(): Promise<number> {
    const due = await deps.store.archiveDue(deps.now(), 20);
    const seen = new Set<string>();
    const jobs = due
      .filter((r) => !seen.has(r.taskId) && seen.add(r.taskId) && !running.has(r.taskId))
      .map((r) => background(() => archive(r)));
    await Promise.allSettled(jobs);
    return jobs.length;
  }

  return {
    /**
     * The first sighting of a completed task: archives it and answers the sha when done. A task
     * whose archive already failed is left to the sweep (no request waits on a retry).
     */
    firstSighting(row: LibraryRow): Promise<string | undefined> {
      if (row.assetSha256) return Promise.resolve(row.assetSha256);
      if (row.archiveAttempts > 0 || row.status !== 'completed') return Promise.resolve(undefined);
      return archive(row);
    },
    sweep,
    /** Downloads under way in this process. */
    get running() {
      return running.size;
    },
    /** Sweeps every `intervalMs` until `stop()`. */
    start(intervalMs = 10_000) {
      timer ??= setInterval(() => {
        sweep().catch((err: unknown) => deps.log(`archive sweep failed: ${String(err)}`));
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await Promise.allSettled([...running.values()]);
    },
  };
}

export type Archiver = ReturnType<typeof createArchiver>;

/** What an archive failure says: an expired vendor link in words, else the error's message. */
function failureText(err: unknown, fetchedFor: string | null): string {
  const expired = fetchedFor === null ? undefined : expiredLinkMessage(fetchedFor, err);
  return expired ?? (err instanceof Error ? err.message : String(err));
}

/**
 * A vendor's result address that answers 403, 404 or 410: it expired before Kiln could keep a copy
 * (Tripo's live minutes). Said so, with what to do; the next poll of the task may bring a new one.
 */
function expiredLinkMessage(model: string, err: unknown): string | undefined {
  const provider = providerOfModel(model);
  const status = (err as { status?: unknown }).status;
  if (provider === 'spec' || ![403, 404, 410].includes(status as number)) return undefined;
  const label = PROVIDER_LABELS[provider];
  return `${label}'s address for this model stopped working (HTTP ${String(status)}) before Kiln could keep a copy: ${label} lets result links expire. Open the task again so Kiln asks ${label} for a fresh address; Kiln keeps trying by itself meanwhile.`;
}
