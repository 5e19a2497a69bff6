import type { Kysely, Selectable } from 'kysely';
import type { Tables } from './schema.ts';

/** An owner's public link to one of their tasks. */
export interface ShareRow {
  token: string;
  taskId: string;
  createdMs: number;
  /** The USDZ the owner's browser made for AR Quick Look, once uploaded (else null). */
  usdzSha256: string | null;
}

/**
 * What a link shows: the shared model and the public facts about it. Deliberately without the
 * owner and the task id, so that no public answer can carry them.
 */
export interface SharedModel {
  model: string;
  prompt: string | null;
  /** The model's own name, given by its owner (decision 0085); null when it has none. */
  name: string | null;
  /** How many photos it was made from (0 for a prompt); their names and addresses stay private. */
  photos: number;
  /** Unix seconds, the upstream's `created`. */
  created: number;
  assetSha256: string;
  thumbnailSha256: string | null;
  /** The link's USDZ (AR Quick Look), once its owner's browser has made one. */
  usdzSha256: string | null;
  /** The link preview picture made last, and the key of what it was made from. */
  preview: { key: string; sha256: string } | null;
}

/** Public links to models: at most one per owner and task; revoking forgets the token. */
export interface ShareStore {
  /**
   * The owner's link to the task: the one there already is, or a new one with `token`. Two
   * requests at once get the same link.
   */
  create(owner: string, taskId: string, token: string, nowMs: number): Promise<ShareRow>;
  forTask(owner: string, taskId: string): Promise<ShareRow | undefined>;
  /** The owner's links to these tasks, by task id (tasks without one are left out). */
  forTasks(owner: string, taskIds: readonly string[]): Promise<Map<string, ShareRow>>;
  /** Forgets the owner's link to the task; false when there was none. */
  revoke(owner: string, taskId: string): Promise<boolean>;
  /** What a token shows, or undefined: unknown, revoked, or a model no longer archived. */
  resolve(token: string): Promise<SharedModel | undefined>;
  /** Remembers the USDZ of the owner's link to the task; false when there is no link. */
  setUsdz(owner: string, taskId: string, sha256: string): Promise<boolean>;
  /** Remembers a link's preview picture and what it was made from. */
  setPreview(token: string, preview: { key: string; sha256: string }): Promise<void>;
  /** The task id of `owner`'s live link `token`; undefined when it is not theirs (or not live). */
  ownedTask(owner: string, token: string): Promise<string | undefined>;
}

const toRow = (r: {
  token: string;
  task_id: string;
  created_ms: number;
  usdz_sha256: string | null;
}): ShareRow => ({
  token: r.token,
  taskId: r.task_id,
  createdMs: Number(r.created_ms),
  usdzSha256: r.usdz_sha256 ?? null,
});

const ROW_COLUMNS = ['token', 'task_id', 'created_ms', 'usdz_sha256'] as const;

/** The library columns a shared model is read from (a model's link and a collection's page). */
export const SHARED_MODEL_COLUMNS = [
  'l.model',
  'l.prompt',
  'l.name',
  'l.images_json',
  'l.created',
  'l.asset_sha256',
  'l.thumbnail_sha256',
] as const;

type SharedModelRow = Pick<
  Selectable<Tables['library']>,
  'model' | 'prompt' | 'name' | 'images_json' | 'created' | 'asset_sha256' | 'thumbnail_sha256'
>;

/**
 * The public facts of a shared model from its library row (`SHARED_MODEL_COLUMNS`), without
 * what belongs to a link (its USDZ and preview); undefined when it has no archived GLB.
 */
export function sharedModelOf(
  r: SharedModelRow,
): Omit<SharedModel, 'usdzSha256' | 'preview'> | undefined {
  if (!r.asset_sha256) return undefined;
  let photos = 0;
  try {
    const images = JSON.parse(r.images_json) as unknown;
    photos = Array.isArray(images) ? images.length : 0;
  } catch {
    // an unreadable list: say nothing about photos
  }
  return {
    model: r.model,
    prompt: r.prompt,
    name: r.name ?? null,
    photos,
    created: Number(r.created),
    assetSha256: r.asset_sha256,
    thumbnailSha256: r.thumbnail_sha256 ?? null,
  };
}

/** A link's remembered preview picture (both link tables keep it alike), or null. */
export const previewOf = (r: {
  preview_key: string | null;
  preview_sha256: string | null;
}): SharedModel['preview'] =>
  r.preview_key && r.preview_sha256 ? { key: r.preview_key, sha256: r.preview_sha256 } : null;

/** Remembers the preview picture of link `token` in `table` (a model's or a collection's links). */
export async function setLinkPreview(
  db: Kysely<Tables>,
  table: 'shares' | 'collection_shares',
  token: string,
  preview: { key: string; sha256: string },
): Promise<void> {
  await db
    .updateTable(table)
    .set({ preview_key: preview.key, preview_sha256: preview.sha256 })
    .where('token', '=', token)
    .execute();
}

export function shareStore(db: Kysely<Tables>): ShareStore {
  const forTask = async (owner: string, taskId: string) => {
    const r = await db
      .selectFrom('shares')
      .select(ROW_COLUMNS)
      .where('owner', '=', owner)
      .where('task_id', '=', taskId)
      .executeTakeFirst();
    return r && toRow(r);
  };
  return {
    async create(owner, taskId, token, nowMs) {
      await db
        .insertInto('shares')
        .values({ token, owner, task_id: taskId, created_ms: nowMs })
        .onConflict((oc) => oc.columns(['owner', 'task_id']).doNothing())
        .execute();
      const row = await forTask(owner, taskId);
      // Revoked between the insert and the read: the link asked for, as made.
      return row ?? { token, taskId, createdMs: nowMs, usdzSha256: null };
    },

    forTask,

    async forTasks(owner, taskIds) {
      if (taskIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('shares')
        .select(ROW_COLUMNS)
        .where('owner', '=', owner)
        .where('task_id', 'in', [...taskIds])
        .execute();
      return new Map(rows.map((r) => [r.task_id, toRow(r)]));
    },

    async revoke(owner, taskId) {
      const r = await db
        .deleteFrom('shares')
        .where('owner', '=', owner)
        .where('task_id', '=', taskId)
        .executeTakeFirst();
      return r.numDeletedRows > 0n;
    },

    async ownedTask(owner, token) {
      const r = await db
        .selectFrom('shares')
        .select('task_id')
        .where('token', '=', token)
        .where('owner', '=', owner)
        .executeTakeFirst();
      return r?.task_id;
    },

    async resolve(token) {
      const r = await db
        .selectFrom('shares as s')
        .innerJoin('library as l', (j) =>
          j.onRef('l.owner', '=', 's.owner').onRef('l.task_id', '=', 's.task_id'),
        )
        .select([...SHARED_MODEL_COLUMNS, 's.usdz_sha256', 's.preview_key', 's.preview_sha256'])
        .where('s.token', '=', token)
        .where('l.status', '=', 'completed')
        .where('l.asset_sha256', 'is not', null)
        .executeTakeFirst();
      const model = r && sharedModelOf(r);
      if (!r || !model) return undefined;
      return { ...model, usdzSha256: r.usdz_sha256 ?? null, preview: previewOf(r) };
    },

    async setUsdz(owner, taskId, sha256) {
      const r = await db
        .updateTable('shares')
        .set({ usdz_sha256: sha256 })
        .where('owner', '=', owner)
        .where('task_id', '=', taskId)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    setPreview: (token, preview) => setLinkPreview(db, 'shares', token, preview),
  };
}
