import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  ERROR_CODES,
  checkModelName,
  LIBRARY_BULK_MAX,
  LibraryBulkSchema,
  LibraryPatchSchema,
  type Credits,
  type LibraryBulkResult,
  type LibraryPage,
} from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { readJson } from '../middleware/boundary.ts';
import { owner, ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import { bearerKey, type OwnerOf } from '../owner-id.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { CollectionStore } from '../storage/collections.ts';
import type { IntentStore } from '../storage/intents.ts';
import type { LibraryRow, LibraryStore } from '../storage/library.ts';
import { tooLarge } from '../uploads/normalise-image.ts';
import { downloadZipRoutes } from './download-zip.ts';
import { deriveBalance } from './ledger.ts';
import type { EntryService } from './entries.ts';
import { cursorOf, readListQuery } from './list-query.ts';
import type { PriceLookup } from './prices.ts';
import { THUMBNAIL_MAX_BYTES, normaliseThumbnail } from './thumbnail.ts';

export interface LibraryRouteDeps {
  store: LibraryStore;
  /** Builds every entry answered, with its share and collections (entries.ts). */
  entries: EntryService;
  /** The `?collection=` filter's collections: the caller's own only. */
  collections: Pick<CollectionStore, 'get'>;
  ownerOf: OwnerOf;
  /** Where thumbnails are kept. */
  blobs: BlobStore;
  /** Creates recorded before they were forwarded (the balance counts those in flight). */
  intents?: IntentStore;
  /** The upstream listing's prices, for charges whose task has not said its price. */
  prices?: PriceLookup;
  now?: () => number;
  /** Asks the upstream about pending rows nobody has polled lately (proxy/catch-up.ts). */
  catchUp?: CatchUp;
  /** 0 when this process alone writes the database (embedded SQLite): one clock. */
  clockMarginMs?: number;
  /**
   * A key's balance as its upstream holds it now, where that can be asked (the embedded mock:
   * the API has no balance call); used only before any task has stated one (decision 0100).
   */
  statedBalance?: StatedBalance;
}

/** The balance the upstream holds for a key now, or undefined when it cannot say. */
export type StatedBalance = (apiKey: string) => Promise<number | undefined>;

/**
 * Asks the upstream, with the reader's key, about rows that may be behind it; answers how many
 * moved (proxy/catch-up.ts makes one).
 */
export type CatchUp = (
  owner: string,
  incoming: Request,
  rows: readonly LibraryRow[],
) => Promise<number>;

/** Longer than any create takes (a sync one: 70 s): an intent older than this lost its answer. */
const INTENT_IN_FLIGHT_MS = 90_000;

const notInLibrary = () =>
  new ApiError(404, {
    code: ERROR_CODES.taskNotFound,
    message: 'No such task in your library.',
    param: 'id',
  });

/**
 * The parameter a body that failed its schema should be blamed on: the first key it has that is
 * not one of `known` (a misspelt field), else the first of `known` it lacks.
 */
function paramOfKeys(
  body: unknown,
  known: readonly string[] = ['ids', 'action'],
): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return known[0];
  const keys = Object.keys(body);
  return keys.find((k) => !known.includes(k)) ?? known.find((k) => !keys.includes(k));
}

/** A name as sent, checked (trimmed; null clears it), or the 400 that says what is wrong. */
function checkName(value: unknown): string | null {
  const checked = checkModelName(value);
  if (checked.ok) return checked.name;
  throw new ApiError(400, {
    code: ERROR_CODES.invalidValue,
    message: checked.message,
    param: 'name',
  });
}

/** What is wrong with the `name` of a body that failed the schema (it is not text). */
function nameMessage(body: unknown): string {
  const checked = checkModelName((body as { name?: unknown }).name);
  return checked.ok ? 'name must be text, or null to clear it.' : checked.message;
}

/** `/api/library` and `/api/credits`: what this key made through Kiln, and its balance over time. */
export function libraryRoutes(deps: LibraryRouteDeps) {
  const app = new Hono<OwnerEnv>();
  // On each route of its own, never on a path pattern: other routes under `/library/…` (a
  // share, an optimise job) say what they need themselves, in whatever order they are mounted.
  const library = owner(deps.ownerOf, { required: 'to see your library' });
  // `GET /library/download.zip?ids=…`: before `/library/:id`, which would take it for an id.
  app.route('/library', downloadZipRoutes(deps));

  // `?q=&model=&kind=&status=&favourite=&sort=&limit=&cursor=` (list-query.ts): a search, filters
  // and an order, paged with a cursor that suits the order. Without them, newest first as before.
  app.get('/library', library, async (c) => {
    const owner = theOwner(c);
    const { limit, filter, sort, after } = await readListQuery(
      (name) => c.req.query(name),
      owner,
      deps.collections,
    );
    const read = () => deps.store.list(owner, { limit: limit + 1, filter, sort, after });
    let rows = await read();
    // Pending rows nobody has polled lately are asked about first (catch-up.ts).
    if (deps.catchUp && (await deps.catchUp(owner, c.req.raw, rows)) > 0) rows = await read();
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const body: LibraryPage = {
      object: 'list',
      data: await deps.entries.entries(c, owner, page),
      next_cursor: rows.length > limit && last ? cursorOf(last, sort) : null,
    };
    return c.json(body, 200, { 'cache-control': 'no-store' });
  });

  // One action on several tasks at once (the gallery's selection): up to 100 ids, the caller's
  // own only; ids the caller has no task for are listed as not found and nothing is done to them.
  app.post('/library/bulk', library, async (c) => {
    const body = await readJson(c, '{ "ids": ["task_…"], "action": "hide" }');
    const parsed = LibraryBulkSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const param =
        issue?.path[0] === 'action' ? 'action' : issue?.path.length ? 'ids' : paramOfKeys(body);
      throw new ApiError(400, {
        code: ERROR_CODES.invalidValue,
        message:
          param === 'action'
            ? 'action must be one of hide, unhide, favourite, unfavourite.'
            : param === 'ids'
              ? `ids must be a list of 1 to ${LIBRARY_BULK_MAX} task ids.`
              : `The body must be { "ids": [...], "action": "hide" }${param ? ` (${param} is not known)` : ''}.`,
        param: param ?? 'ids',
      });
    }
    const { ids, action } = parsed.data;
    const updated = await deps.store.bulk(theOwner(c), ids, action);
    const done = new Set(updated);
    const result: LibraryBulkResult = {
      object: 'bulk_result',
      action,
      updated,
      not_found: [...new Set(ids)].filter((id) => !done.has(id)),
    };
    return c.json(result, 200, { 'cache-control': 'no-store' });
  });

  // The caller's other completed generations of this task's input (same prompt, same photos):
  // what "Compare with…" offers.
  app.get('/library/:id/same-input', library, async (c) => {
    const owner = theOwner(c);
    const id = c.req.param('id');
    if (!(await deps.store.get(owner, id))) throw notInLibrary();
    const rows = await deps.store.sameInput(owner, id, 20);
    const body: LibraryPage = {
      object: 'list',
      data: await deps.entries.entries(c, owner, rows),
      next_cursor: null,
    };
    return c.json(body, 200, { 'cache-control': 'no-store' });
  });

  // One entry, hidden ones too (`hidden: true`): a task opened by its address says it is
  // hidden and offers to show it again, instead of looking lost.
  app.get('/library/:id', library, async (c) => {
    const owner = theOwner(c);
    const id = c.req.param('id');
    let row = await deps.store.get(owner, id);
    if (row && deps.catchUp && (await deps.catchUp(owner, c.req.raw, [row])) > 0)
      row = await deps.store.get(owner, id);
    if (!row) throw notInLibrary();
    return c.json(await deps.entries.entry(c, owner, row), 200, { 'cache-control': 'no-store' });
  });

  // `{ "hidden": false }` shows a hidden task again (the gallery's Undo, the task page's
  // Unhide); `{ "hidden": true }` hides it, as DELETE does; `{ "favourite": true }` stars it;
  // `{ "name": "Blue teapot" }` names it (`null` or "" clears it; checkModelName says what is
  // refused, decision 0085).
  app.patch('/library/:id', library, async (c) => {
    const body = await readJson(
      c,
      '{ "hidden": false }, { "favourite": true } or { "name": "Blue teapot" }',
    );
    const parsed = LibraryPatchSchema.safeParse(body);
    if (!parsed.success) {
      const at = parsed.error.issues[0]?.path[0];
      const param =
        typeof at === 'string'
          ? at
          : (paramOfKeys(body, ['hidden', 'favourite', 'name']) ?? 'hidden');
      throw new ApiError(400, {
        code: ERROR_CODES.invalidValue,
        message:
          param === 'hidden' || param === 'favourite'
            ? `${param} must be true or false.`
            : param === 'name'
              ? nameMessage(body)
              : `Only hidden, favourite and name can be changed (${param} is not known).`,
        param,
      });
    }
    const owner = theOwner(c);
    const id = c.req.param('id');
    const { hidden, favourite } = parsed.data;
    const name = parsed.data.name === undefined ? undefined : checkName(parsed.data.name);
    let done = true;
    if (hidden !== undefined)
      done = hidden ? await deps.store.hide(owner, id) : await deps.store.unhide(owner, id);
    if (done && favourite !== undefined) done = await deps.store.setFavourite(owner, id, favourite);
    if (done && name !== undefined) done = await deps.store.setName(owner, id, name);
    const row = done ? await deps.store.get(owner, id) : undefined;
    if (!row) throw notInLibrary();
    return c.json(await deps.entries.entry(c, owner, row), 200, { 'cache-control': 'no-store' });
  });

  // The picture of a model, drawn by the first browser that showed it (the body is the image:
  // PNG, JPEG or WebP). The first one stays; later ones change nothing and get the entry as is.
  app.put(
    '/library/:id/thumbnail',
    library,
    bodyLimit({
      maxSize: THUMBNAIL_MAX_BYTES,
      onError: () => {
        throw tooLarge(undefined, THUMBNAIL_MAX_BYTES);
      },
    }),
    async (c) => {
      const owner = theOwner(c);
      const id = c.req.param('id');
      const row = await deps.store.get(owner, id);
      if (!row) throw notInLibrary();
      if (row.assetSha256 === null)
        throw new ApiError(409, {
          code: ERROR_CODES.taskNotArchived,
          message: 'The model is not in your library yet, so it has no picture to keep.',
          param: 'id',
        });
      if (row.thumbnailSha256 === null) {
        const webp = await normaliseThumbnail(new Uint8Array(await c.req.arrayBuffer()));
        const stored = await deps.blobs.put('thumbnails', webp, 'webp');
        await deps.store.setThumbnail(owner, id, stored.sha256);
      }
      const after = await deps.store.get(owner, id);
      if (!after) throw notInLibrary();
      return c.json(await deps.entries.entry(c, owner, after), 200, {
        'cache-control': 'no-store',
      });
    },
  );

  app.delete('/library/:id', library, async (c) => {
    const hidden = await deps.store.hide(theOwner(c), c.req.param('id'));
    if (!hidden) throw notInLibrary();
    return c.body(null, 204);
  });

  // The balance, derived (ledger.ts): the newest figure the upstream stated cleanly, less every
  // charge and plus every refund since, with its history; "not exact" says why when it is not.
  app.get('/credits', owner(deps.ownerOf, { required: 'to see your credits' }), async (c) => {
    const owner = theOwner(c);
    const now = deps.now?.() ?? Date.now();
    // Tasks that may have ended unseen (a closed tab, an outage) are asked about first.
    if (deps.catchUp)
      await deps.catchUp(
        owner,
        c.req.raw,
        await deps.store.list(owner, { limit: 8, filter: { status: 'pending' } }),
      );
    const [tasks, refusals, pending, listed] = await Promise.all([
      deps.store.ledger(owner, 500),
      deps.store.refusals(owner, 100),
      deps.intents?.unresolved(owner, now + 1) ?? [],
      deps.prices?.(owner, c.req.raw) ?? new Map<string, number>(),
    ]);
    // An intent whose row is written (its removal failed in an outage) is resolved: it goes.
    const written = new Set(tasks.map((t) => `${t.sentMs}\n${t.model}`));
    const intents = pending.filter((i) => {
      if (!written.has(`${i.sentMs}\n${i.model}`)) return true;
      void deps.intents?.remove(i.id).catch(() => {});
      return false;
    });
    const prices = new Map(listed);
    for (const t of tasks)
      if (t.creditsConsumed !== null && !prices.has(t.model))
        prices.set(t.model, t.creditsConsumed);
    // A create still on its way (a sync one waits up to a minute) is a charge not known yet; one
    // older than any create can take lost its answer.
    const inFlight = intents.filter((i) => now - i.sentMs < INTENT_IN_FLIGHT_MS).length;
    const derived = deriveBalance({
      tasks,
      refusals,
      unresolvedSentMs: intents.map((i) => i.sentMs),
      prices,
      ...(deps.clockMarginMs !== undefined ? { clockMarginMs: deps.clockMarginMs } : {}),
    });
    const note =
      inFlight > 0
        ? `${inFlight === 1 ? 'A create is' : `${inFlight} creates are`} on the way to the upstream; the balance is exact once ${inFlight === 1 ? 'it is' : 'they are'} answered.`
        : derived.note;
    // Nothing stated yet: where the upstream can be asked (the embedded mock), its figure now.
    if (derived.balance === null && deps.statedBalance) {
      const key = bearerKey(c.req.header('authorization'));
      const stated = key ? await deps.statedBalance(key).catch(() => undefined) : undefined;
      if (stated !== undefined) {
        const body: Credits = {
          balance: stated,
          learned_ms: now,
          as_of_ms: now,
          exact: true,
          note: null,
          history: [
            { balance: stated, learned_ms: now, task_id: null, kind: 'stated', change: null },
          ],
        };
        return c.json(body, 200, { 'cache-control': 'no-store' });
      }
    }
    const body: Credits = {
      balance: derived.balance,
      learned_ms: derived.asOfMs,
      as_of_ms: derived.throughMs,
      exact: derived.exact && inFlight === 0,
      note: derived.balance === null ? null : note,
      history: derived.history.map((h) => ({
        balance: h.balance,
        learned_ms: h.atMs,
        task_id: h.taskId,
        kind: h.kind,
        change: h.change,
        ...(h.correction ? { correction: h.correction } : {}),
      })),
    };
    return c.json(body, 200, { 'cache-control': 'no-store' });
  });

  return app;
}
