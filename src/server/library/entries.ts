// A library entry, as every route that answers one builds it (decision 0105): the row, its
// files at signed addresses, its archive's state, its public link and the owner's collections
// holding it. One service, called by each route: no route rewrites another's answer, so the
// order the routes are mounted in means nothing.
import type { LibraryEntry } from '../../contract/index.ts';
import { baseOf } from '../share/public-link.ts';
import { shareUrls } from '../share/service.ts';
import type { CollectionStore } from '../storage/collections.ts';
import type { LibraryRow } from '../storage/library.ts';
import type { ShareStore } from '../storage/shares.ts';
import { ARCHIVE_RETRY_DELAYS_MS, outageOf } from './archive.ts';
import type { AssetSigner } from './asset-access.ts';

export interface EntryDeps {
  shares: Pick<ShareStore, 'forTasks'>;
  collections: Pick<CollectionStore, 'memberships'>;
  /** Signs the addresses of the owner's files (none: bare paths, for tests). */
  signer?: AssetSigner;
  /** PUBLIC_URL: the origin share links are made on; else the request's own. */
  publicUrl?: string | undefined;
}

/** The request an answer is for: its address gives share links their origin. */
type Asking = Parameters<typeof baseOf>[0];

const assetPath = (sha256: string) => `/api/assets/${sha256}.glb`;
const thumbnailPath = (sha256: string) => `/api/assets/${sha256}.webp`;

export function createEntryService(deps: EntryDeps) {
  const sign = (path: string) => deps.signer?.sign(path) ?? path;

  /** The entry of one row, without what other stores know of it. */
  const entryOf = (row: LibraryRow): Omit<LibraryEntry, 'share' | 'collections'> => ({
    ...(row.hidden ? { hidden: true } : {}),
    id: row.taskId,
    model: row.model,
    mode: row.mode,
    status: row.status,
    progress: row.progress,
    progress_stage: row.progressStage,
    images: row.images,
    prompt: row.prompt,
    name: row.name,
    created: row.created,
    completed_at: row.completedAt,
    updated_ms: row.updatedMs,
    credits_consumed: row.creditsConsumed,
    credits_remaining: row.creditsRemaining,
    cost: row.cost,
    error: row.error,
    // Signed, short-lived addresses of the owner's files (asset-access.ts).
    model_url: row.assetSha256 ? sign(assetPath(row.assetSha256)) : row.upstreamModelUrl,
    archived: row.assetSha256 !== null,
    thumbnail_url: row.thumbnailSha256 ? sign(thumbnailPath(row.thumbnailSha256)) : null,
    favourite: row.favourite,
    archive: archiveOf(row),
  });

  /**
   * The entries of `owner`'s rows, in their order, each with its `share` (the page's address,
   * or null) and `collections` (the ids of the owner's collections holding it): one query to
   * each store for them all.
   */
  async function entries(
    c: Asking,
    owner: string,
    rows: readonly LibraryRow[],
  ): Promise<LibraryEntry[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.taskId);
    const [links, held] = await Promise.all([
      deps.shares.forTasks(owner, ids),
      deps.collections.memberships(owner, ids),
    ]);
    const base = baseOf(c, deps.publicUrl);
    return rows.map((row) => {
      const link = links.get(row.taskId);
      return {
        ...entryOf(row),
        collections: held.get(row.taskId) ?? [],
        share: link ? { url: shareUrls(base, link.token).page, created_ms: link.createdMs } : null,
      };
    });
  }

  return {
    entries,
    /** The entry of one of `owner`'s rows, as `entries` makes it. */
    async entry(c: Asking, owner: string, row: LibraryRow): Promise<LibraryEntry> {
      const [entry] = await entries(c, owner, [row]);
      return entry!;
    },
  };
}

export type EntryService = ReturnType<typeof createEntryService>;

/**
 * Where the archive of a task stands, as the library shows it. One that waits on Kiln's own
 * store says which (`outage`) and why (`error`), and stays `pending` (or `retrying`, after
 * failures of its own): an outage is never counted as a failure (decision 0095).
 */
function archiveOf(row: LibraryRow): LibraryEntry['archive'] {
  if (row.assetSha256)
    return { state: 'archived', attempts: row.archiveAttempts, error: null, next_attempt_ms: null };
  if (row.status !== 'completed' || !row.upstreamModelUrl)
    return { state: 'none', attempts: 0, error: null, next_attempt_ms: null };
  const outage = row.archiveNextMs === null ? null : outageOf(row.archiveError);
  if (row.archiveAttempts === 0)
    return outage
      ? {
          state: 'pending',
          attempts: 0,
          error: row.archiveError,
          next_attempt_ms: row.archiveNextMs,
          outage,
        }
      : { state: 'pending', attempts: 0, error: null, next_attempt_ms: row.archiveNextMs };
  if (row.archiveNextMs === null || row.archiveAttempts > ARCHIVE_RETRY_DELAYS_MS.length)
    return {
      state: 'failed',
      attempts: row.archiveAttempts,
      error: row.archiveError,
      next_attempt_ms: null,
    };
  return {
    state: 'retrying',
    attempts: row.archiveAttempts,
    error: row.archiveError,
    next_attempt_ms: row.archiveNextMs,
    ...(outage ? { outage } : {}),
  };
}
