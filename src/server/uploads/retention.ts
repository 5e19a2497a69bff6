import type { BlobStore } from '../storage/blobs.ts';
import type { UploadIndex } from '../storage/uploads.ts';

export interface RetentionDeps {
  index: UploadIndex;
  blobs: BlobStore;
  /** How long an upload no task names is kept (UPLOAD_RETENTION). */
  retentionMs: number;
  now: () => number;
  log: (message: string) => void;
}

/**
 * Removes uploads that no task names once they are older than the retention period, so that
 * anonymous uploads cannot fill the disk. An upload a task names is kept.
 */
export function createUploadSweeper(deps: RetentionDeps) {
  let timer: NodeJS.Timeout | undefined;
  async function sweep(): Promise<number> {
    let removed = 0;
    for (;;) {
      const stale = await deps.index.unreferenced(deps.now() - deps.retentionMs, 100);
      for (const u of stale) {
        // The index row goes first, and only while no task names the upload (another replica
        // may have recorded a task since the list was read); then the bytes.
        if (!(await deps.index.remove(u.sha256))) continue;
        await deps.blobs.delete('uploads', u.sha256, u.ext);
        removed++;
      }
      if (stale.length < 100) break;
    }
    if (removed) deps.log(`removed ${removed} upload(s) no task used`);
    return removed;
  }
  return {
    sweep,
    start(intervalMs = 10 * 60_000) {
      timer ??= setInterval(() => {
        sweep().catch((err: unknown) => deps.log(`upload sweep failed: ${String(err)}`));
      }, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
