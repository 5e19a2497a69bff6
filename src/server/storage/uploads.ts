import { sql, type Kysely } from 'kysely';
import type { Tables } from './schema.ts';

/** What is stored under /api/uploads, so that quota and retention can be kept across replicas. */
export interface UploadIndex {
  /** Records a stored upload (no-op when these bytes were stored before). */
  record(
    sha256: string,
    ext: string,
    bytes: number,
    nowMs: number,
    name?: string | null,
  ): Promise<void>;
  /** The file names uploads came with, by sha256 (those without one are left out). */
  names(sha256s: readonly string[]): Promise<Map<string, string>>;
  /** Marks uploads a task names: kept for as long as the library keeps the task. */
  markReferenced(sha256s: readonly string[]): Promise<void>;
  /** Bytes stored in all. */
  totalBytes(): Promise<number>;
  /** Uploads no task names that were stored before `beforeMs`, oldest first. */
  unreferenced(beforeMs: number, limit: number): Promise<{ sha256: string; ext: string }[]>;
  /** Forgets an upload no task names; false when it is gone or a task names it now. */
  remove(sha256: string): Promise<boolean>;
}

export function uploadIndex(db: Kysely<Tables>): UploadIndex {
  return {
    async record(sha256, ext, bytes, nowMs, name = null) {
      await db
        .insertInto('uploads')
        .values({ sha256, ext, bytes, created_ms: nowMs, referenced: 0, name })
        .onConflict((oc) =>
          name ? oc.column('sha256').doUpdateSet({ name }) : oc.column('sha256').doNothing(),
        )
        .execute();
    },
    async names(sha256s) {
      if (sha256s.length === 0) return new Map();
      const rows = await db
        .selectFrom('uploads')
        .select(['sha256', 'name'])
        .where('sha256', 'in', [...sha256s])
        .where('name', 'is not', null)
        .execute();
      return new Map(rows.map((r) => [r.sha256, r.name!]));
    },
    async markReferenced(sha256s) {
      if (sha256s.length === 0) return;
      await db
        .updateTable('uploads')
        .set({ referenced: 1 })
        .where('sha256', 'in', [...sha256s])
        .execute();
    },
    async totalBytes() {
      const r = await db
        .selectFrom('uploads')
        .select(sql<number | string | null>`sum(bytes)`.as('total'))
        .executeTakeFirst();
      return Number(r?.total ?? 0);
    },
    async unreferenced(beforeMs, limit) {
      return db
        .selectFrom('uploads')
        .select(['sha256', 'ext'])
        .where('referenced', '=', 0)
        .where('created_ms', '<', beforeMs)
        .orderBy('created_ms')
        .limit(limit)
        .execute();
    },
    async remove(sha256) {
      const r = await db
        .deleteFrom('uploads')
        .where('sha256', '=', sha256)
        .where('referenced', '=', 0)
        .executeTakeFirst();
      return r.numDeletedRows > 0n;
    },
  };
}
