// Kiln's copy of each completed task's model: which tasks wait for their archive and when,
// what each attempt came to, the model's picture, and whose models and pictures they are.
import { sql, type Kysely } from 'kysely';
import { toRow, type LibraryRow } from './library-row.ts';
import type { Tables } from './schema.ts';

export interface LibraryArchiveStore {
  /** Whether the owner's library holds this archived model (glb) or picture (webp). */
  ownsAsset(owner: string, sha256: string, ext: 'glb' | 'webp'): Promise<boolean>;
  archived(taskId: string, sha256: string): Promise<void>;
  /**
   * Keeps a picture of the owner's archived model. The first one stays: false when the task is
   * not the owner's, not archived yet, or already has its picture.
   */
  setThumbnail(owner: string, taskId: string, sha256: string): Promise<boolean>;
  /**
   * Notes a failed attempt (counted unless `counted` is false: an outage of Kiln's own storage);
   * `nextMs` is when to try again, or null to give up.
   */
  archiveFailed(
    taskId: string,
    error: string,
    nextMs: number | null,
    counted?: boolean,
  ): Promise<void>;
  /** Completed tasks whose archive is due (never tried, or a retry whose time has come). */
  archiveDue(nowMs: number, limit: number): Promise<LibraryRow[]>;
  /** How many completed tasks wait for their archive (due now or later): the archive's queue. */
  archiveWaiting(): Promise<number>;
}

export function libraryArchive(db: Kysely<Tables>): LibraryArchiveStore {
  return {
    async ownsAsset(owner, sha256, ext) {
      const r = await db
        .selectFrom('library')
        .select('task_id')
        .where('owner', '=', owner)
        .where(ext === 'glb' ? 'asset_sha256' : 'thumbnail_sha256', '=', sha256)
        .limit(1)
        .executeTakeFirst();
      return r !== undefined;
    },

    async archived(taskId, sha256) {
      await db
        .updateTable('library')
        .set({
          asset_sha256: sha256,
          archive_error: null,
          archive_next_ms: null,
          archive_attempts: sql`archive_attempts + 1`,
        })
        .where('task_id', '=', taskId)
        .execute();
    },

    async setThumbnail(owner, taskId, sha256) {
      const r = await db
        .updateTable('library')
        .set({ thumbnail_sha256: sha256 })
        .where('owner', '=', owner)
        .where('task_id', '=', taskId)
        .where('asset_sha256', 'is not', null)
        .where('thumbnail_sha256', 'is', null)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    async archiveFailed(taskId, message, nextMs, counted = true) {
      await db
        .updateTable('library')
        .set({
          archive_error: message,
          archive_next_ms: nextMs,
          archive_attempts: counted ? sql`archive_attempts + 1` : sql`archive_attempts`,
        })
        .where('task_id', '=', taskId)
        .where('asset_sha256', 'is', null)
        .execute();
    },

    async archiveWaiting() {
      const r = await db
        .selectFrom('library')
        .select(sql<number | string>`count(*)`.as('n'))
        .where('archive_next_ms', 'is not', null)
        .where('asset_sha256', 'is', null)
        .where('status', '=', 'completed')
        .executeTakeFirst();
      return Number(r?.n ?? 0);
    },

    async archiveDue(nowMs, limit) {
      const rows = await db
        .selectFrom('library')
        .selectAll()
        .where('archive_next_ms', '<=', nowMs)
        .where('asset_sha256', 'is', null)
        .where('status', '=', 'completed')
        .where('upstream_model_url', 'is not', null)
        .orderBy('archive_next_ms')
        .limit(limit)
        .execute();
      return rows.map(toRow);
    },
  };
}
