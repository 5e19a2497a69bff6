import { createHash } from 'node:crypto';
import { clearTimeout, setTimeout } from 'node:timers';
import {
  isCompleted,
  progressOf,
  ProviderTaskExtrasSchema,
  type LibraryImage,
  type Task,
} from '../../contract/index.ts';
import { formatBytes } from '../../formats/index.ts';
import type { LibraryStore } from '../storage/library.ts';
import type { IntentStore } from '../storage/intents.ts';
import type { UploadIndex } from '../storage/uploads.ts';
import type { Archiver } from './archive.ts';
import { createSeenTasks } from './seen-tasks.ts';

export interface LibraryDeps {
  store: LibraryStore;
  uploads: UploadIndex;
  archiver: Archiver;
  /** Creates recorded before they were forwarded; removed once their row is written. */
  intents?: IntentStore;
  now: () => number;
  log?: (message: string) => void;
  /** Told once when a task is first seen to end (the metrics), with its model. */
  onFinished?: (model: string, outcome: 'completed' | 'failed') => void;
}

/** What a create asked for, as the library keeps it: a spec alias or a provider's `provider/model`. */
export interface RecordedCreate {
  model: string;
  image_url?: string | undefined;
  image_urls?: readonly string[] | undefined;
  prompt?: string | undefined;
  mode?: string | undefined;
}

/** When a create was sent upstream and answered, and the intent that stood for it meanwhile. */
export interface CreateTimes {
  sentMs: number;
  answeredMs: number;
  intentId?: string;
  /** Reached through a recovery path: a retry of a create an earlier attempt sent (0091). */
  recovered?: boolean;
}

/** How often a create whose row could not be written is tried again, and for how long. */
const UNWRITTEN_RETRY_MS = 5_000;
const UNWRITTEN_KEEP_MS = 24 * 60 * 60 * 1000;

const UPLOAD_PATH = /\/api\/uploads\/([a-f0-9]{64})\.(png|jpg|webp)$/;
const DATA_URI = /^data:([^;,]+)?(;base64)?,/;
const EXT_OF_MIME: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/** The upload an image URL names, by its content hash, when it is one of Kiln's. */
function uploadOf(url: string): { sha256: string; ext: string } | undefined {
  const upload = UPLOAD_PATH.exec(url.split('?')[0] ?? '');
  if (upload) return { sha256: upload[1]!, ext: upload[2]! };
  const data = DATA_URI.exec(url);
  const ext = data ? EXT_OF_MIME[data[1] ?? ''] : undefined;
  if (!data || !ext || !data[2]) return undefined;
  // An upload sent as a data: URI: its bytes are the stored upload, so the hash finds it.
  const bytes = Buffer.from(url.slice(data[0].length), 'base64');
  return { sha256: createHash('sha256').update(bytes).digest('hex'), ext };
}

function imageRef(url: string, upload = uploadOf(url)): LibraryImage {
  const ref = upload ? `/api/uploads/${upload.sha256}.${upload.ext}` : null;
  if (url.startsWith('data:')) {
    const mime = DATA_URI.exec(url)?.[1] ?? 'text/plain';
    return { url: `data:${mime} (${formatBytes((url.length * 3) / 4)})`, upload: ref };
  }
  return { url: url.length > 2048 ? `${url.slice(0, 2045)}…` : url, upload: ref };
}

/** A vendor's task's cost (decision 0117), where the answer passing through carries one. */
function costOf(task: Task & { cost?: unknown }) {
  const parsed = ProviderTaskExtrasSchema.shape.cost.safeParse(task.cost);
  return parsed.success && parsed.data ? parsed.data : undefined;
}

function updateOf(task: Task) {
  return {
    status: task.status,
    progress: progressOf(task),
    progressStage: task.progress_stage ?? null,
    completedAt: task.completed_at ?? null,
    creditsConsumed: task.usage?.credits_consumed ?? null,
    creditsRemaining: task.usage?.credits_remaining ?? null,
    cost: costOf(task),
    error: task.error ?? null,
    upstreamModelUrl: task.data?.model_url ?? null,
  };
}

/**
 * Records what passes through the proxy: every task created through Kiln, its progress, its
 * credits, the balance; and has each completed GLB archived once.
 */
export function createLibraryService(deps: LibraryDeps) {
  // What each task looked like last time *in this process* (seen-tasks.ts), so that a poll that
  // shows nothing new costs no database work; a completed task without its archive always reads
  // the database again. The proxy reads the same cache (one per process, made here).
  const seen = createSeenTasks();

  const log = deps.log ?? (() => {});

  /**
   * Creates the upstream answered whose rows could not be written (the database went away
   * between the intent and the answer): kept here and written again every few seconds, and at
   * once when the task is polled, until the database takes them (decision 0075).
   */
  const unwritten = new Map<
    string,
    { owner: string; body: RecordedCreate; task: Task; times: CreateTimes; since: number }
  >();
  let retryTimer: NodeJS.Timeout | undefined;
  function scheduleRetry() {
    if (retryTimer || unwritten.size === 0) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void writeUnwritten().finally(scheduleRetry);
    }, UNWRITTEN_RETRY_MS);
    retryTimer.unref();
  }
  async function writeUnwritten(): Promise<void> {
    for (const [taskId, u] of unwritten) {
      if (deps.now() - u.since > UNWRITTEN_KEEP_MS) {
        unwritten.delete(taskId);
        log(`library: gave up writing ${taskId} after a day`);
        continue;
      }
      try {
        await insertCreate(u.owner, u.body, u.task, u.times);
        unwritten.delete(taskId);
        log(`library: wrote ${taskId}, which the database could not take before`);
      } catch {
        return; // still away: the next round tries again
      }
    }
  }

  async function insertCreate(
    owner: string,
    body: RecordedCreate,
    task: Task,
    times: CreateTimes,
  ): Promise<void> {
    const now = deps.now();
    const images = body.image_urls ?? (body.image_url ? [body.image_url] : []);
    const found = images.map(uploadOf); // hashes a data: URI's bytes: once per image
    const uploads = found.filter((u) => u !== undefined);
    const names = await deps.uploads.names(uploads.map((u) => u.sha256));
    await deps.store.insert({
      owner,
      taskId: task.id,
      model: body.model,
      mode: body.mode === 'sync' ? 'sync' : 'async',
      images: images.map((url, i) => {
        const ref = imageRef(url, found[i]);
        const sha = found[i]?.sha256;
        const name = sha ? names.get(sha) : undefined;
        return name ? { ...ref, name } : ref;
      }),
      prompt: body.prompt ?? null,
      ...updateOf(task),
      created: task.created ?? Math.floor(now / 1000),
      createdMs: now,
      updatedMs: now,
      sentMs: times.sentMs,
      answeredMs: times.answeredMs,
      recovered: times.recovered === true,
    });
    await deps.uploads.markReferenced(uploads.map((u) => u.sha256));
    if (times.intentId) await deps.intents?.remove(times.intentId);
  }

  return {
    /** The cache of what this process last recorded of each task (the proxy reads it too). */
    seen,

    /**
     * A create refused for want of credits (402): when its message names the balance ("… the
     * balance is 5."), that is the balance at a moment between the create's sending and its
     * answer: an observation the balance is derived from. One that names none changes nothing.
     */
    async noteRefusal(
      owner: string,
      body: string,
      window: { sentMs: number; answeredMs: number },
    ): Promise<void> {
      const balance = balanceInRefusal(body);
      if (balance !== undefined)
        await deps.store.recordBalance(owner, balance, window.answeredMs, null, window.sentMs);
    },

    /**
     * A create that passed through: a new library row. Returns the archived asset's sha when
     * completed. When the row cannot be written, the create is kept here and written later
     * (and the error is thrown, so the answer is not remembered as recorded).
     */
    async recordCreate(
      owner: string,
      body: RecordedCreate,
      task: Task,
      times: CreateTimes,
    ): Promise<string | undefined> {
      try {
        await insertCreate(owner, body, task, times);
      } catch (err) {
        unwritten.set(task.id, { owner, body, task, times, since: deps.now() });
        scheduleRetry();
        throw err;
      }
      if (!isCompleted(task)) return undefined;
      const row = await deps.store.get(owner, task.id);
      return row ? waitForArchive(deps.archiver.firstSighting(row)) : undefined;
    },

    /** A task read that passed through: updates the rows that know it; archives on completion. */
    async recordTask(
      owner: string,
      task: Task,
      options: { waitForArchive?: boolean } = {},
    ): Promise<string | undefined> {
      const late = unwritten.get(task.id);
      if (late) {
        await insertCreate(late.owner, late.body, late.task, late.times);
        unwritten.delete(task.id);
      }
      const update = updateOf(task);
      const signature = `${owner}\n${JSON.stringify(update)}`;
      const before = seen.sameState(owner, task.id, signature);
      if (before && (before.sha || !before.inLibrary || !isCompleted(task))) return before.sha;
      const at = deps.now();
      const rows = await deps.store.update(task.id, update, at);
      const mine = rows.find((r) => r.owner === owner) ?? rows[0];
      // Ended in this very write (its end time is this one): counted once, whichever replica.
      if (mine && mine.endedMs === at && (task.status === 'completed' || task.status === 'failed'))
        deps.onFinished?.(mine.model, task.status);
      const archiving = mine && isCompleted(task) ? deps.archiver.firstSighting(mine) : undefined;
      if (archiving && options.waitForArchive === false) {
        // Nobody waits: the archive goes on, and the next read finds it.
        archiving.catch(() => {});
        return undefined;
      }
      const sha = archiving ? await waitForArchive(archiving) : undefined;
      seen.rememberState(owner, task.id, { signature, sha, inLibrary: rows.length > 0 });
      return sha;
    },
  };
}

/** How long the first sighting of a completed task waits for its archive (the response waits). */
const ARCHIVE_WAIT_MS = 15_000;

/**
 * The archive's sha, if it is done within ARCHIVE_WAIT_MS: the SPA's next read of the library
 * then finds Kiln's copy. Never longer; the download goes on regardless.
 */
async function waitForArchive(archiving: Promise<string | undefined>): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ARCHIVE_WAIT_MS).unref();
  });
  try {
    return await Promise.race([archiving, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export type LibraryService = ReturnType<typeof createLibraryService>;

/** The balance a 402's error message states (`… the balance is 5.`, `balance: 5`), if any. */
export function balanceInRefusal(body: string): number | undefined {
  let message: unknown;
  try {
    message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
  } catch {
    return undefined;
  }
  if (typeof message !== 'string') return undefined;
  const m = /\bbalance(?: is|:)\s*(\d+)\b/i.exec(message);
  return m?.[1] === undefined ? undefined : Number(m[1]);
}
