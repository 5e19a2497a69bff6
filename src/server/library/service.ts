import { createHash } from 'node:crypto';
import {
  isCompleted,
  progressOf,
  type CreateGenerationInput,
  type LibraryEntry,
  type LibraryImage,
  type Task,
} from '../../contract/index.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { LibraryRow, LibraryStore } from '../storage/library.ts';

export interface LibraryDeps {
  store: LibraryStore;
  blobs: BlobStore;
  /** Fetches a GLB safely (SSRF guard, size cap, magic check); throws on any problem. */
  fetchGlb: (url: string) => Promise<Uint8Array>;
  now: () => number;
  log: (message: string) => void;
}

const UPLOAD_PATH = /\/api\/uploads\/([a-f0-9]{64})\.(png|jpg|webp)$/;
const DATA_URI = /^data:([^;,]+)?(;base64)?,/;
const EXT_OF_MIME: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

export function assetUrl(sha256: string): string {
  return `/api/assets/${sha256}.glb`;
}

/**
 * Records what passes through the proxy: every task created through Kiln,
 * its progress, its credits, the balance; and archives each completed GLB once.
 */
export function createLibraryService(deps: LibraryDeps) {
  const archiving = new Map<string, Promise<string | undefined>>();
  // What each task and owner looked like last time, so that a poll that shows nothing new
  // costs no database work (most polls of a running task repeat the same stage).
  const seenTasks = new Map<string, { signature: string; sha: string | undefined }>();
  const seenBalances = new Map<string, number>();
  const remember = <K, V>(map: Map<K, V>, key: K, value: V) => {
    map.delete(key);
    map.set(key, value);
    if (map.size > 10_000) map.delete(map.keys().next().value as K);
  };

  function imageRef(url: string): LibraryImage {
    const upload = UPLOAD_PATH.exec(url.split('?')[0] ?? '');
    if (upload) return { url, upload: `/api/uploads/${upload[1]}.${upload[2]}` };
    const data = DATA_URI.exec(url);
    if (data) {
      const mime = data[1] ?? 'text/plain';
      const ext = EXT_OF_MIME[mime];
      let ref: string | null = null;
      if (ext && data[2]) {
        // An upload sent as a data: URI: its bytes are the stored upload, so the hash finds it.
        const bytes = Buffer.from(url.slice(data[0].length), 'base64');
        ref = `/api/uploads/${createHash('sha256').update(bytes).digest('hex')}.${ext}`;
      }
      return { url: `data:${mime} (${Math.round((url.length * 3) / 4 / 1024)} KB)`, upload: ref };
    }
    return { url: url.length > 2048 ? `${url.slice(0, 2045)}…` : url, upload: null };
  }

  function updateOf(task: Task) {
    return {
      status: task.status,
      progress: progressOf(task),
      progressStage: task.progress_stage ?? null,
      completedAt: task.completed_at ?? null,
      creditsConsumed: task.usage?.credits_consumed ?? null,
      creditsRemaining: task.usage?.credits_remaining ?? null,
      error: task.error ?? null,
      upstreamModelUrl: task.data?.model_url ?? null,
    };
  }

  async function archive(row: LibraryRow): Promise<string | undefined> {
    if (row.assetSha256) return row.assetSha256;
    const url = row.upstreamModelUrl;
    if (!url || row.status !== 'completed') return undefined;
    const running = archiving.get(row.taskId);
    if (running) return running;
    const job = (async () => {
      try {
        const glb = await deps.fetchGlb(url);
        const { sha256 } = await deps.blobs.put('assets', glb, 'glb');
        await deps.store.archived(row.taskId, sha256);
        deps.log(`archived ${row.taskId} as ${sha256.slice(0, 12)}… (${glb.byteLength} bytes)`);
        return sha256;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        await deps.store.archiveFailed(row.taskId, message).catch(() => {});
        deps.log(`archive of ${row.taskId} failed (will retry on next sighting): ${message}`);
        return undefined;
      } finally {
        archiving.delete(row.taskId);
      }
    })();
    archiving.set(row.taskId, job);
    return job;
  }

  async function noteBalance(owner: string, task: Task) {
    const remaining = task.usage?.credits_remaining;
    if (typeof remaining !== 'number' || seenBalances.get(owner) === remaining) return;
    await deps.store.recordBalance(owner, remaining, deps.now(), task.id);
    remember(seenBalances, owner, remaining);
  }

  return {
    /** A create that passed through: a new library row. Returns the archived asset's sha when completed. */
    async recordCreate(
      owner: string,
      body: CreateGenerationInput,
      task: Task,
    ): Promise<string | undefined> {
      const now = deps.now();
      const images = body.image_urls ?? (body.image_url ? [body.image_url] : []);
      await deps.store.insert({
        owner,
        taskId: task.id,
        model: body.model,
        mode: body.mode === 'sync' ? 'sync' : 'async',
        images: images.map(imageRef),
        prompt: body.prompt ?? null,
        ...updateOf(task),
        created: task.created ?? Math.floor(now / 1000),
        createdMs: now,
        updatedMs: now,
      });
      await noteBalance(owner, task);
      const row = await deps.store.get(owner, task.id);
      return row && isCompleted(task) ? archive(row) : undefined;
    },

    /** A task read that passed through: updates the rows that know it; archives on completion. */
    async recordTask(owner: string, task: Task): Promise<string | undefined> {
      const update = updateOf(task);
      const signature = `${owner}\n${JSON.stringify(update)}`;
      const seen = seenTasks.get(task.id);
      if (seen?.signature === signature && (seen.sha || !isCompleted(task))) return seen.sha;
      const rows = await deps.store.update(task.id, update, deps.now());
      await noteBalance(owner, task);
      const mine = rows.find((r) => r.owner === owner) ?? rows[0];
      const sha = mine && isCompleted(task) ? await archive(mine) : undefined;
      remember(seenTasks, task.id, { signature, sha });
      return sha;
    },

    toEntry(row: LibraryRow): LibraryEntry {
      return {
        id: row.taskId,
        model: row.model,
        mode: row.mode,
        status: row.status,
        progress: row.progress,
        progress_stage: row.progressStage,
        images: row.images,
        prompt: row.prompt,
        created: row.created,
        completed_at: row.completedAt,
        updated_ms: row.updatedMs,
        credits_consumed: row.creditsConsumed,
        credits_remaining: row.creditsRemaining,
        error: row.error,
        model_url: row.assetSha256 ? assetUrl(row.assetSha256) : row.upstreamModelUrl,
        archived: row.assetSha256 !== null,
      };
    },
  };
}

export type LibraryService = ReturnType<typeof createLibraryService>;
