import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  ERROR_CODES,
  checkModelName,
  LIBRARY_BULK_MAX,
  LibraryBulkSchema,
  LibraryPatchSchema,
  type LibraryBulkResult,
  type LibraryPage,
  type LibraryPatch,
} from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { readJson } from '../middleware/boundary.ts';
import { owner, ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import { tooLarge } from '../uploads/normalise-image.ts';
import { creditsRoute } from './credits-route.ts';
import { downloadZipRoutes } from './download-zip.ts';
import { cursorOf, readListQuery } from './list-query.ts';
import type { LibraryRouteDeps } from './route-deps.ts';
import { THUMBNAIL_MAX_BYTES, normaliseThumbnail } from './thumbnail.ts';

/** A handler of a route under `/library/:id`. */
type TaskContext = Context<OwnerEnv, '/library/:id'>;

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

/**
 * `?q=&model=&kind=&status=&favourite=&sort=&limit=&cursor=` (list-query.ts): a search, filters
 * and an order, paged with a cursor that suits the order. Without them, newest first as before.
 */
function listRoute(deps: LibraryRouteDeps) {
  return async (c: Context<OwnerEnv>) => {
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
  };
}

/** A bulk body as sent, checked, or the 400 that names what is wrong. */
async function checkedBulk(c: Context<OwnerEnv>) {
  const body = await readJson(c, '{ "ids": ["task_…"], "action": "hide" }');
  const parsed = LibraryBulkSchema.safeParse(body);
  if (parsed.success) return parsed.data;
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

/**
 * One action on several tasks at once (the gallery's selection): up to 100 ids, the caller's
 * own only; ids the caller has no task for are listed as not found and nothing is done to them.
 */
function bulkRoute(deps: LibraryRouteDeps) {
  return async (c: Context<OwnerEnv>) => {
    const { ids, action } = await checkedBulk(c);
    const updated = await deps.store.bulk(theOwner(c), ids, action);
    const done = new Set(updated);
    const result: LibraryBulkResult = {
      object: 'bulk_result',
      action,
      updated,
      not_found: [...new Set(ids)].filter((id) => !done.has(id)),
    };
    return c.json(result, 200, { 'cache-control': 'no-store' });
  };
}

/**
 * The caller's other completed generations of this task's input (same prompt, same photos):
 * what "Compare with…" offers.
 */
function sameInputRoute(deps: LibraryRouteDeps) {
  return async (c: Context<OwnerEnv, '/library/:id/same-input'>) => {
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
  };
}

/**
 * One entry, hidden ones too (`hidden: true`): a task opened by its address says it is
 * hidden and offers to show it again, instead of looking lost.
 */
function entryRoute(deps: LibraryRouteDeps) {
  return async (c: TaskContext) => {
    const owner = theOwner(c);
    const id = c.req.param('id');
    let row = await deps.store.get(owner, id);
    if (row && deps.catchUp && (await deps.catchUp(owner, c.req.raw, [row])) > 0)
      row = await deps.store.get(owner, id);
    if (!row) throw notInLibrary();
    return c.json(await deps.entries.entry(c, owner, row), 200, { 'cache-control': 'no-store' });
  };
}

/** A patch body as sent, checked, or the 400 that names what is wrong. */
async function checkedPatch(c: TaskContext): Promise<LibraryPatch> {
  const body = await readJson(
    c,
    '{ "hidden": false }, { "favourite": true } or { "name": "Blue teapot" }',
  );
  const parsed = LibraryPatchSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const at = parsed.error.issues[0]?.path[0];
  const param =
    typeof at === 'string' ? at : (paramOfKeys(body, ['hidden', 'favourite', 'name']) ?? 'hidden');
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

/**
 * `{ "hidden": false }` shows a hidden task again (the gallery's Undo, the task page's
 * Unhide); `{ "hidden": true }` hides it, as DELETE does; `{ "favourite": true }` stars it;
 * `{ "name": "Blue teapot" }` names it (`null` or "" clears it; checkModelName says what is
 * refused, decision 0085).
 */
function patchRoute(deps: LibraryRouteDeps) {
  return async (c: TaskContext) => {
    const patch = await checkedPatch(c);
    const owner = theOwner(c);
    const id = c.req.param('id');
    const { hidden, favourite } = patch;
    const name = patch.name === undefined ? undefined : checkName(patch.name);
    let done = true;
    if (hidden !== undefined)
      done = hidden ? await deps.store.hide(owner, id) : await deps.store.unhide(owner, id);
    if (done && favourite !== undefined) done = await deps.store.setFavourite(owner, id, favourite);
    if (done && name !== undefined) done = await deps.store.setName(owner, id, name);
    const row = done ? await deps.store.get(owner, id) : undefined;
    if (!row) throw notInLibrary();
    return c.json(await deps.entries.entry(c, owner, row), 200, { 'cache-control': 'no-store' });
  };
}

/**
 * The picture of a model, drawn by the first browser that showed it (the body is the image:
 * PNG, JPEG or WebP). The first one stays; later ones change nothing and get the entry as is.
 */
function thumbnailRoute(deps: LibraryRouteDeps) {
  return async (c: Context<OwnerEnv, '/library/:id/thumbnail'>) => {
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
  };
}

function hideRoute(deps: LibraryRouteDeps) {
  return async (c: TaskContext) => {
    const hidden = await deps.store.hide(theOwner(c), c.req.param('id'));
    if (!hidden) throw notInLibrary();
    return c.body(null, 204);
  };
}

/** `/api/library` and `/api/credits`: what this key made through Kiln, and its balance over time. */
export function libraryRoutes(deps: LibraryRouteDeps) {
  // On each route of its own, never on a path pattern: other routes under `/library/…` (a
  // share, an optimise job) say what they need themselves, in whatever order they are mounted.
  const library = owner(deps.ownerOf, { required: 'to see your library' });
  const thumbnailLimit = bodyLimit({
    maxSize: THUMBNAIL_MAX_BYTES,
    onError: () => {
      throw tooLarge(undefined, THUMBNAIL_MAX_BYTES);
    },
  });
  return (
    new Hono<OwnerEnv>()
      // `GET /library/download.zip?ids=…`: before `/library/:id`, which would take it for an id.
      .route('/library', downloadZipRoutes(deps))
      .get('/library', library, listRoute(deps))
      .post('/library/bulk', library, bulkRoute(deps))
      .get('/library/:id/same-input', library, sameInputRoute(deps))
      .get('/library/:id', library, entryRoute(deps))
      .patch('/library/:id', library, patchRoute(deps))
      .put('/library/:id/thumbnail', library, thumbnailLimit, thumbnailRoute(deps))
      .delete('/library/:id', library, hideRoute(deps))
      .get('/credits', owner(deps.ownerOf, { required: 'to see your credits' }), creditsRoute(deps))
  );
}
