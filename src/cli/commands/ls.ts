// `kiln ls`: the library, newest first, narrowed as the gallery narrows it (the client's
// library filters); a line per model, or the entries themselves with --json.
import type { KilnApi, LibraryFilters } from '../../client/kiln/index.ts';
import {
  LIBRARY_KINDS,
  LIBRARY_SORTS,
  LIBRARY_STATUSES,
  modelTitle,
  type Collection,
  type LibraryEntry,
} from '../../contract/index.ts';
import { isoDay } from '../../formats/index.ts';
import { numberFlag, oneOfFlag, parseCommand, positionals } from '../args.ts';
import { collectionRef, findCollection } from '../collections.ts';
import { checkKey, connect } from '../connect.ts';
import { printJson, say, type Io } from '../io.ts';
import { showHelp } from './help.ts';

const OPTIONS = {
  collection: { type: 'string' },
  q: { type: 'string' },
  model: { type: 'string' },
  kind: { type: 'string' },
  status: { type: 'string' },
  favourite: { type: 'boolean' },
  hidden: { type: 'boolean' },
  sort: { type: 'string' },
  limit: { type: 'string' },
} as const;

/** The library's page size (`?limit=` takes 1–100). */
const PAGE = 100;

/** Up to `limit` entries, page after page. */
async function entries(
  api: KilnApi,
  filters: Partial<LibraryFilters>,
  limit: number,
): Promise<{ data: LibraryEntry[]; next_cursor: string | null }> {
  const data: LibraryEntry[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await api.library.list(filters, {
      limit: Math.min(PAGE, limit - data.length),
      cursor,
    });
    data.push(...page.data);
    if (!page.next_cursor || data.length >= limit) return { data, next_cursor: page.next_cursor };
    cursor = page.next_cursor;
  }
}

const kindOf = (e: LibraryEntry) =>
  e.images.length === 0 ? 'prompt' : e.images.length === 1 ? 'photo' : 'views';

/** One line a model: id, status, model, kind, day, title (columns a script can cut). */
function lines(data: LibraryEntry[]): string {
  const rows = data.map((e) => [
    e.id,
    e.status,
    e.model,
    kindOf(e),
    isoDay(new Date(e.created * 1000)),
    modelTitle(e),
  ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) => r.map((cell, i) => (i < r.length - 1 ? cell.padEnd(widths[i]!) : cell)).join('  '))
    .join('\n');
}

export async function lsCommand(args: string[], io: Io): Promise<number> {
  const { values, positionals: given } = parseCommand('ls', args, OPTIONS);
  if (values.help) return showHelp(io, 'ls', values.json);
  positionals(given, []);
  const limit = numberFlag(values.limit, '--limit', { min: 1, max: 1000, whole: true }) ?? 20;
  const filters: Partial<LibraryFilters> = {
    q: values.q ?? '',
    model: values.model ?? '',
    kind: oneOfFlag(values.kind, '--kind', LIBRARY_KINDS) ?? '',
    status: oneOfFlag(values.status, '--status', LIBRARY_STATUSES) ?? '',
    sort: oneOfFlag(values.sort, '--sort', LIBRARY_SORTS) ?? 'newest',
    favourite: values.favourite ?? false,
    hidden: values.hidden ?? false,
  };
  const conn = connect(values, io);
  const { api } = conn;
  let collection: Collection | null = null;
  if (values.collection) {
    // No such collection may mean a wrong key (its collections are none): that says so first.
    collection = await findCollection(api, values.collection).catch(async (err: unknown) => {
      await checkKey(conn);
      throw err;
    });
    filters.collection = collection.id;
  }
  const found = await entries(api, filters, limit);
  if (found.data.length === 0 && !collection) await checkKey(conn);

  if (values.json)
    printJson(io, { object: 'list', collection: collectionRef(collection), ...found });
  else if (found.data.length === 0) say(io, 'No models match.');
  else io.out(`${lines(found.data)}\n`);
  return 0;
}
