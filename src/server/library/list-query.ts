import { z } from 'zod';
import {
  COLLECTION_ID,
  ERROR_CODES,
  LIBRARY_KINDS,
  LIBRARY_SORTS,
  LIBRARY_STATUSES,
  VENDOR_PROVIDERS,
  type LibrarySort,
} from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import type { CollectionStore } from '../storage/collections.ts';
import {
  creditsKeyOf,
  type LibraryCursor,
  type LibraryFilter,
  type LibraryRow,
} from '../storage/library.ts';

/** The longest search `q` (characters) and how many words of it count. */
const SEARCH_MAX_CHARS = 200;
const SEARCH_MAX_WORDS = 8;

/** `GET /api/library`'s query, checked: what to keep, in which order, from where. */
export interface ListQuery {
  limit: number;
  filter: LibraryFilter;
  sort: LibrarySort;
  after: LibraryCursor | undefined;
}

const bad = (param: string, message: string) =>
  new ApiError(400, { code: ERROR_CODES.invalidValue, message, param });

/** `?collection=` names no collection of the caller's (the same answer for a malformed one). */
const noSuchCollection = () =>
  new ApiError(404, {
    code: ERROR_CODES.collectionNotFound,
    message: 'No such collection in your library: it was never made, or it was deleted.',
    param: 'collection',
  });

/** `?provider=`: the spec's upstream or one vendor; blank is none (the gallery's "All providers"). */
const PROVIDERS = ['spec', ...VENDOR_PROVIDERS] as const;
const ProviderSchema = z.enum(PROVIDERS);

function providerOf(value: string | undefined) {
  if (value === undefined || value === '') return undefined;
  const parsed = ProviderSchema.safeParse(value);
  if (!parsed.success) throw bad('provider', `provider must be one of ${PROVIDERS.join(', ')}.`);
  return parsed.data;
}

/** A value from a fixed list; an empty value is no value (a form's blank select). */
function oneOf<T extends string>(
  param: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined || value === '') return undefined;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw bad(param, `${param} must be one of ${allowed.join(', ')}.`);
}

/**
 * The cursor of a page for its order: the last row's seq (newest and oldest, as before), or
 * `{credits}~{seq}` for the credits order. Opaque to clients: they pass `next_cursor` back.
 */
export function cursorOf(row: LibraryRow, sort: LibrarySort): string {
  return sort === 'credits' ? `${creditsKeyOf(row)}~${row.seq}` : String(row.seq);
}

function parseCursor(text: string | undefined, sort: LibrarySort): LibraryCursor | undefined {
  if (text === undefined || text === '') return undefined;
  const m =
    sort === 'credits' ? /^(-1|\d{1,12})~(\d{1,15})$/.exec(text) : /^(\d{1,15})$/.exec(text);
  const seq = Number(sort === 'credits' ? m?.[2] : m?.[1]);
  if (!m || !Number.isSafeInteger(seq) || seq < 1)
    throw bad('cursor', `cursor must be the next_cursor of a previous page (sort=${sort}).`);
  return sort === 'credits' ? { seq, creditsKey: Number(m[1]) } : { seq };
}

/** The words of a search: trimmed, split on white space, the first SEARCH_MAX_WORDS distinct. */
function searchWords(q: string): string[] {
  return [...new Set(q.trim().toLowerCase().split(/\s+/u).filter(Boolean))].slice(
    0,
    SEARCH_MAX_WORDS,
  );
}

/**
 * Reads `?q=&model=&provider=&kind=&status=&favourite=&hidden=&collection=&sort=&limit=&cursor=` for
 * `owner`. A `collection` that is not one of theirs is a 404 naming it (checked first, the same
 * answer for a malformed id, without a read); any other bad value is a 400 that names its
 * parameter; parameters it does not know are ignored (as before). The one home of the
 * `?collection=` filter: the store keeps the collection's members (library-list.ts).
 */
export async function readListQuery(
  query: (name: string) => string | undefined,
  owner: string,
  collections: Pick<CollectionStore, 'get'>,
): Promise<ListQuery> {
  const collection = query('collection') ?? '';
  const theirs = async () =>
    COLLECTION_ID.test(collection) && (await collections.get(owner, collection)) !== undefined;
  if (collection !== '' && !(await theirs())) throw noSuchCollection();
  const read = parseListQuery(query);
  if (collection !== '') read.filter.collection = collection;
  return read;
}

/** The query but `collection`, checked. */
function parseListQuery(query: (name: string) => string | undefined): ListQuery {
  const limitText = query('limit') ?? '20';
  const limit = Number(limitText);
  if (!/^\d+$/.test(limitText) || !Number.isInteger(limit) || limit < 1 || limit > 100)
    throw bad('limit', 'limit must be a whole number from 1 to 100.');

  const q = query('q') ?? '';
  if (q.length > SEARCH_MAX_CHARS)
    throw bad('q', `q (the search) must be at most ${SEARCH_MAX_CHARS} characters.`);
  // Control characters are no one's search; they would only make odd patterns.
  if (/\p{Cc}/u.test(q)) throw bad('q', 'q (the search) must not hold control characters.');
  const words = searchWords(q);

  const modelText = query('model') ?? '';
  if (modelText.length > 100 || /[\p{Cc}\s]/u.test(modelText))
    throw bad('model', 'model must be a model id (at most 100 characters, no spaces).');

  const favouriteText = query('favourite') ?? '';
  if (!['', '1', '0', 'true', 'false'].includes(favouriteText))
    throw bad('favourite', 'favourite must be 1 (only favourites) or 0 (none of them).');
  const hiddenText = query('hidden') ?? '';
  if (!['', '1', '0', 'true', 'false'].includes(hiddenText))
    throw bad('hidden', 'hidden must be 1 (only the hidden tasks) or 0 (the shown ones).');

  const sort = oneOf('sort', query('sort'), LIBRARY_SORTS) ?? 'newest';
  const kind = oneOf('kind', query('kind'), LIBRARY_KINDS);
  const status = oneOf('status', query('status'), LIBRARY_STATUSES);
  const provider = providerOf(query('provider'));
  const filter: LibraryFilter = {};
  if (words.length > 0) filter.words = words;
  if (modelText) filter.model = modelText;
  if (provider) filter.provider = provider;
  if (kind) filter.kind = kind;
  if (status) filter.status = status;
  if (favouriteText) filter.favourite = favouriteText === '1' || favouriteText === 'true';
  if (hiddenText === '1' || hiddenText === 'true') filter.hidden = true;
  return { limit, sort, after: parseCursor(query('cursor'), sort), filter };
}
