import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.ts';
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
  /**
   * Takes room for an upload against `quotaBytes`, atomically (one transaction under a lock, so
   * concurrent uploads on every replica cannot pass the quota together): `stored` when these
   * bytes are indexed already (they need no room, even when the quota is full; the name is
   * updated), `new` when the row is written now, `full` when there is no room. A `new` row whose
   * bytes could not be stored is taken back with `forget`.
   */
  reserve(
    sha256: string,
    ext: string,
    bytes: number,
    nowMs: number,
    name: string | null,
    quotaBytes: number,
  ): Promise<'stored' | 'new' | 'full'>;
  /** Takes back a reservation whose bytes were never stored. */
  forget(sha256: string): Promise<void>;
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

type Db = Kysely<Tables>;
type Part<K extends keyof UploadIndex> = Pick<UploadIndex, K>;

/** Bytes stored in all. */
async function totalOf(db: Db): Promise<number> {
  const r = await db
    .selectFrom('uploads')
    .select(sql<number | string | null>`sum(bytes)`.as('total'))
    .executeTakeFirst();
  return Number(r?.total ?? 0);
}

/** Uploads indexed as they are stored: room taken under the quota, or given back. */
function storing(db: Db): Part<'record' | 'reserve' | 'forget' | 'totalBytes'> {
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

    async reserve(sha256, ext, bytes, nowMs, name, quotaBytes) {
      return db.transaction().execute(async (trx) => {
        if (isPostgres(db as unknown as Kysely<unknown>))
          await sql`select pg_advisory_xact_lock(hashtext('kiln:upload-quota'))`.execute(trx);
        const known = await trx
          .selectFrom('uploads')
          .select('sha256')
          .where('sha256', '=', sha256)
          .executeTakeFirst();
        if (known) {
          if (name)
            await trx.updateTable('uploads').set({ name }).where('sha256', '=', sha256).execute();
          return 'stored' as const;
        }
        if ((await totalOf(trx)) + bytes > quotaBytes) return 'full' as const;
        await trx
          .insertInto('uploads')
          .values({ sha256, ext, bytes, created_ms: nowMs, referenced: 0, name })
          .execute();
        return 'new' as const;
      });
    },

    async forget(sha256) {
      await db
        .deleteFrom('uploads')
        .where('sha256', '=', sha256)
        .where('referenced', '=', 0)
        .execute();
    },

    totalBytes: () => totalOf(db),
  };
}

/** Uploads kept while a task names them, and the others forgotten once old (retention). */
function retention(db: Db): Part<'markReferenced' | 'unreferenced' | 'remove'> {
  return {
    async markReferenced(sha256s) {
      if (sha256s.length === 0) return;
      await db
        .updateTable('uploads')
        .set({ referenced: 1 })
        .where('sha256', 'in', [...sha256s])
        .execute();
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

export function uploadIndex(db: Db): UploadIndex {
  return {
    ...storing(db),
    ...retention(db),
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
  };
}
