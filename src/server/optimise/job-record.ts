// The jobs this process runs, written through to the store every replica reads (decision 0074):
// in order per job, rewritten on a heartbeat while unfinished, and read back as failed when the
// process that wrote them is gone; the first replica to read it so writes the failure (0097).
import type { OptimiseJob } from '../../contract/index.ts';
import type { OptimiseJobStore, StoredOptimiseJob } from '../storage/optimise-jobs.ts';
import { runnerGone } from './job-failures.ts';
import { isUnfinished, type JobEntry } from './job-entry.ts';

export interface JobRecordDeps {
  /** Where jobs are kept for every replica; without it, nothing is written. */
  store: OptimiseJobStore | undefined;
  /** This process's name in the store. */
  holder: string;
  /** No other process shares the store: an unfinished job another holder wrote was left. */
  exclusive: boolean;
  /** How often unfinished jobs are rewritten; one not rewritten for six times as long was left. */
  heartbeatMs: number;
  now: () => number;
  log: (message: string) => void;
}

export interface JobRecord {
  /** Writes the job through to the store (in order, after the entry's earlier writes). */
  persist(entry: JobEntry): Promise<void>;
  /**
   * A job another process wrote: as it is, or failed when that process is gone (it stopped
   * rewriting it, or the store is this process's alone).
   */
  asSeen(row: StoredOptimiseJob): OptimiseJob;
  /**
   * As `asSeen`, and a job read as failed is written failed, so that it is failed for good (and
   * forgotten an hour later) whoever reads it next: unless its runner wrote it meanwhile.
   */
  settle(row: StoredOptimiseJob): Promise<OptimiseJob>;
  /**
   * Writes a new job unless its key has one under way or its owner `limit` (every replica's
   * that is alive). Only with a store.
   */
  insertIfUnder(entry: JobEntry, limit: number): ReturnType<OptimiseJobStore['insertIfUnder']>;
  /** Forgets stored jobs that finished before `beforeMs` (at most every 10 minutes). */
  sweep(beforeMs: number): void;
  /** Rewrites this process's unfinished jobs (`mine`) each heartbeat, while there are any. */
  beat(mine: () => JobEntry[]): void;
  /** Stops the heartbeat. */
  stop(): void;
}

export function createJobRecord(deps: JobRecordDeps): JobRecord {
  const { store, holder, now, log, heartbeatMs } = deps;
  const goneAfterMs = 6 * heartbeatMs;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  let lastSweep = 0;

  function persist(entry: JobEntry): Promise<void> {
    if (!store) return Promise.resolve();
    const row: StoredOptimiseJob = {
      owner: entry.owner,
      dedupeKey: entry.key,
      job: structuredClone(entry.job),
      holder,
      updatedMs: now(),
    };
    entry.writtenMs = row.updatedMs;
    entry.writtenStage = entry.job.stage;
    entry.writing = entry.writing
      .then(() => store.put(row))
      .catch((err: unknown) => log(`could not save job ${entry.job.id}: ${String(err)}`));
    return entry.writing;
  }

  function asSeen(row: StoredOptimiseJob): OptimiseJob {
    const { job } = row;
    if (!isUnfinished(job) || row.holder === holder) return job;
    const gone = deps.exclusive || now() - row.updatedMs > goneAfterMs;
    if (!gone) return job;
    return {
      ...job,
      status: 'failed',
      stage: 'Failed',
      // When its runner was last heard of.
      finished_ms: row.updatedMs,
      error: runnerGone(),
    };
  }

  return {
    persist,
    asSeen,
    async settle(row) {
      const seen = asSeen(row);
      if (!store || seen.status !== 'failed' || !isUnfinished(row.job)) return seen;
      try {
        if (await store.failSilent(seen, { holder: row.holder, updatedMs: row.updatedMs }))
          log(`job ${seen.id} failed: its runner ${row.holder} went silent`);
      } catch (err) {
        // Read as failed all the same; the next reader writes it.
        log(`could not save job ${seen.id} as failed: ${String(err)}`);
      }
      return seen;
    },
    insertIfUnder(entry, limit) {
      if (!store) throw new Error('insertIfUnder needs a store');
      return store.insertIfUnder(
        {
          owner: entry.owner,
          dedupeKey: entry.key,
          job: structuredClone(entry.job),
          holder,
          updatedMs: now(),
        },
        limit,
        { holder, sinceMs: deps.exclusive ? Number.MAX_SAFE_INTEGER : now() - goneAfterMs },
      );
    },
    sweep(beforeMs) {
      const t = now();
      if (!store || t - lastSweep <= 10 * 60 * 1000) return;
      lastSweep = t;
      store
        .sweep(beforeMs)
        .catch((err: unknown) => log(`could not forget old jobs: ${String(err)}`));
    },
    beat(mine) {
      if (!store || heartbeat) return;
      heartbeat = setInterval(() => {
        const entries = mine();
        if (entries.length === 0) {
          clearInterval(heartbeat);
          heartbeat = undefined;
          return;
        }
        for (const e of entries) void persist(e);
      }, heartbeatMs);
      heartbeat.unref?.();
    },
    stop() {
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = undefined;
    },
  };
}
