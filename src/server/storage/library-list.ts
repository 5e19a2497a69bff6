// The library's lists: one page of an owner's rows, searched, filtered, ordered and after a
// cursor; and the rows made from the same input as another (what "Compare with…" offers).
import { sql, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import {
  VENDOR_PROVIDERS,
  type LibraryImage,
  type LibraryKind,
  type LibrarySort,
  type LibraryStatusFilter,
  type VendorProvider,
} from '../../contract/index.ts';
import { isPostgres } from './dialect.ts';
import { TERMINAL, toRow, type LibraryRow } from './library-row.ts';
import type { Tables } from './schema.ts';

/** What a list keeps (all given ones at once). */
export interface LibraryFilter {
  /**
   * Words that must each be in the model's name, the prompt or one of the photos' file names
   * (case-insensitive, as typed: `%` and `_` are plain characters).
   */
  words?: readonly string[] | undefined;
  model?: string | undefined;
  /** One provider's models: a vendor's `provider/…` ids, or `spec` for the bare aliases. */
  provider?: VendorProvider | 'spec' | undefined;
  kind?: LibraryKind | undefined;
  status?: LibraryStatusFilter | undefined;
  favourite?: boolean | undefined;
  /** Only the members of this collection (its owner's; the caller checks it is theirs). */
  collection?: string | undefined;
  /** The hidden rows instead of the shown ones (the gallery's Hidden view). */
  hidden?: boolean | undefined;
}

/**
 * Where the previous page ended: the last row's seq, and for the credits order its credits
 * (`creditsKey`: credits consumed, or -1 when none are known).
 */
export interface LibraryCursor {
  seq: number;
  creditsKey?: number | undefined;
}

/** The credits order's key of a row: what it cost, or -1 (after every 0) when not known. */
export function creditsKeyOf(row: Pick<LibraryRow, 'creditsConsumed'>): number {
  return row.creditsConsumed ?? -1;
}

export interface LibraryListOptions {
  limit: number;
  /** The newest-first cursor of old (`after: { seq }` with the default order). */
  beforeSeq?: number | undefined;
  filter?: LibraryFilter | undefined;
  /** newest (default), oldest, or credits (most first, then newest). */
  sort?: LibrarySort | undefined;
  after?: LibraryCursor | undefined;
}

export interface LibraryListStore {
  /**
   * One page of the owner's rows in the order asked (newest first by default), after the cursor,
   * kept by the filter. Hidden rows are left out (or only they are kept, with `filter.hidden`).
   */
  list(owner: string, options: LibraryListOptions): Promise<LibraryRow[]>;
  /**
   * The owner's other completed, shown tasks made from the same input as this one (the same
   * prompt, or the same photos in the same order), newest first.
   */
  sameInput(owner: string, taskId: string, limit: number): Promise<LibraryRow[]>;
}

/** `word` as a LIKE pattern that finds it anywhere, lower-cased, with `\`, `%` and `_` escaped. */
function containsPattern(word: string): string {
  return `%${word.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** How many images a row's input has (its `images_json` array), in either dialect. */
function imageCount(pg: boolean) {
  return pg
    ? sql<number>`json_array_length(library.images_json::json)`
    : sql<number>`json_array_length(library.images_json)`;
}

/** Whether one of a row's images has a file name like the pattern, in either dialect. */
function nameLike(pg: boolean, pattern: string) {
  return pg
    ? sql<SqlBool>`exists (select 1 from json_array_elements(library.images_json::json) as i where lower(i->>'name') like ${pattern} escape '\\')`
    : sql<SqlBool>`exists (select 1 from json_each(library.images_json) as i where lower(json_extract(i.value, '$.name')) like ${pattern} escape '\\')`;
}

/** The identity of one input image: Kiln's upload when it is one, else the address sent. */
function imageIdentity(image: LibraryImage): string | null {
  if (image.upload) return image.upload;
  return image.url.startsWith('data:') ? null : image.url;
}

/** The input of a row as one string, or null when it cannot be told apart (inline images). */
function inputIdentity(row: Pick<LibraryRow, 'images' | 'prompt'>): string | null {
  if (row.images.length === 0) return row.prompt === null ? null : `prompt:${row.prompt.trim()}`;
  const ids = row.images.map(imageIdentity);
  return ids.every((id) => id !== null) ? `images:${ids.join('\n')}` : null;
}

type LibraryExpressions = ExpressionBuilder<Tables, 'library'>;

/** The owner's shown rows, or their hidden ones: where every list starts. */
function ownersRows(db: Kysely<Tables>, owner: string, hidden: boolean) {
  return db
    .selectFrom('library')
    .selectAll()
    .where('owner', '=', owner)
    .where('hidden', '=', hidden ? 1 : 0);
}

type LibraryQuery = ReturnType<typeof ownersRows>;

/** A vendor's model ids as a LIKE pattern: `meshy/%` (the names hold no `%`, `_` or `\\`). */
const vendorPattern = (provider: VendorProvider) => `${provider}/%`;

/** The rows of one provider's models: `provider/…` for a vendor, no vendor's prefix for `spec`. */
function ofProvider(q: LibraryQuery, provider: VendorProvider | 'spec'): LibraryQuery {
  if (provider !== 'spec') return q.where('model', 'like', vendorPattern(provider));
  for (const vendor of VENDOR_PROVIDERS) q = q.where('model', 'not like', vendorPattern(vendor));
  return q;
}

/** The rows with every word somewhere in the name, the prompt or a photo's file name. */
function searched(q: LibraryQuery, words: readonly string[], pg: boolean): LibraryQuery {
  for (const word of words) {
    const pattern = containsPattern(word);
    q = q.where((eb: LibraryExpressions) =>
      eb.or([
        sql<SqlBool>`lower(library.name) like ${pattern} escape '\\'`,
        sql<SqlBool>`lower(library.prompt) like ${pattern} escape '\\'`,
        nameLike(pg, pattern),
      ]),
    );
  }
  return q;
}

/** The rows the filter keeps: its words, model, kind, status, favourite and collection at once. */
function filtered(q: LibraryQuery, filter: LibraryFilter, pg: boolean): LibraryQuery {
  q = searched(q, filter.words ?? [], pg);
  if (filter.model !== undefined) q = q.where('model', '=', filter.model);
  if (filter.provider !== undefined) q = ofProvider(q, filter.provider);
  if (filter.kind === 'prompt') q = q.where(imageCount(pg), '=', 0);
  if (filter.kind === 'photo') q = q.where(imageCount(pg), '=', 1);
  if (filter.kind === 'views') q = q.where(imageCount(pg), '>', 1);
  if (filter.status === 'pending') q = q.where('status', 'not in', TERMINAL);
  else if (filter.status !== undefined) q = q.where('status', '=', filter.status);
  if (filter.favourite !== undefined) q = q.where('favourite', '=', filter.favourite ? 1 : 0);
  const collection = filter.collection;
  if (collection !== undefined)
    q = q.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('collection_models as m')
          .select('m.task_id')
          .where('m.collection_id', '=', collection)
          .whereRef('m.task_id', '=', 'library.task_id'),
      ),
    );
  return q;
}

/** The rows in the order asked, after the cursor (where the previous page ended). */
function ordered(q: LibraryQuery, sort: LibrarySort, cursor: LibraryCursor | undefined) {
  if (sort === 'oldest') {
    if (cursor) q = q.where('seq', '>', cursor.seq);
    return q.orderBy('seq', 'asc');
  }
  if (sort === 'credits') {
    const creditsKey = sql<number>`coalesce(library.credits_consumed, -1)`;
    if (cursor) {
      const key = cursor.creditsKey ?? -1;
      q = q.where((eb: LibraryExpressions) =>
        eb.or([
          eb(creditsKey, '<', key),
          eb.and([eb(creditsKey, '=', key), eb('seq', '<', cursor.seq)]),
        ]),
      );
    }
    return q.orderBy(creditsKey, 'desc').orderBy('seq', 'desc');
  }
  if (cursor) q = q.where('seq', '<', cursor.seq);
  return q.orderBy('seq', 'desc');
}

/**
 * The candidates for "same input" as `self`: the owner's other completed, shown tasks with the
 * same prompt, or whose images hold its first image's upload or address (its whole input is
 * compared by the caller).
 */
function sameInputCandidates(db: Kysely<Tables>, owner: string, self: LibraryRow) {
  const q = ownersRows(db, owner, false)
    .where('status', '=', 'completed')
    .where('task_id', '!=', self.taskId);
  const first = self.images[0];
  if (!first)
    return q
      .where(sql`trim(library.prompt)`, '=', self.prompt?.trim() ?? '')
      .where('images_json', '=', '[]');
  // The first image's upload or address narrows the rows; its whole input is compared after.
  const id = imageIdentity(first) ?? '';
  const needle = first.upload ? id : JSON.stringify(id).slice(1, -1);
  return q.where('images_json', 'like', sql<string>`${containsPattern(needle)} escape '\\'`);
}

export function libraryLists(db: Kysely<Tables>): LibraryListStore {
  // Searching inside the images' JSON is written once per dialect.
  const pg = isPostgres(db as unknown as Kysely<unknown>);
  return {
    async list(owner, { limit, beforeSeq, filter = {}, sort = 'newest', after }) {
      const cursor = after ?? (beforeSeq !== undefined ? { seq: beforeSeq } : undefined);
      const q = filtered(ownersRows(db, owner, filter.hidden ?? false), filter, pg);
      const rows = await ordered(q, sort, cursor).limit(limit).execute();
      return rows.map(toRow);
    },

    async sameInput(owner, taskId, limit) {
      const found = await db
        .selectFrom('library')
        .selectAll()
        .where('owner', '=', owner)
        .where('task_id', '=', taskId)
        .executeTakeFirst();
      const self = found && toRow(found);
      const identity = self && inputIdentity(self);
      if (!self || !identity) return [];
      // Enough candidates to find `limit` matches among near misses (same first photo, other views).
      const rows = await sameInputCandidates(db, owner, self)
        .orderBy('seq', 'desc')
        .limit(limit * 4)
        .execute();
      return rows
        .map(toRow)
        .filter((r) => inputIdentity(r) === identity)
        .slice(0, limit);
    },
  };
}
