import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  ERROR_CODES,
  LibraryPatchSchema,
  type Credits,
  type LibraryPage,
} from '../../contract/index.ts';
import { ApiError } from '../middleware/api-error.ts';
import { owner, ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import type { OwnerOf } from '../owner-id.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { LibraryStore } from '../storage/library.ts';
import { tooLarge } from '../uploads/normalise-image.ts';
import { downloadZipRoutes } from './download-zip.ts';
import type { LibraryService } from './service.ts';
import { THUMBNAIL_MAX_BYTES, normaliseThumbnail } from './thumbnail.ts';

export interface LibraryRouteDeps {
  store: LibraryStore;
  library: LibraryService;
  ownerOf: OwnerOf;
  /** Where thumbnails are kept. */
  blobs: BlobStore;
}

const notInLibrary = () =>
  new ApiError(404, {
    code: ERROR_CODES.taskNotFound,
    message: 'No such task in your library.',
    param: 'id',
  });

/** `/api/library` and `/api/credits`: what this key made through Kiln, and its balance over time. */
export function libraryRoutes(deps: LibraryRouteDeps) {
  const app = new Hono<OwnerEnv>();
  app.use('/library/*', owner(deps.ownerOf, { required: 'to see your library' }));
  app.use('/library', owner(deps.ownerOf, { required: 'to see your library' }));
  app.use('/credits', owner(deps.ownerOf, { required: 'to see your credits' }));
  // `GET /library/download.zip?ids=…`: before `/library/:id`, which would take it for an id.
  app.route('/library', downloadZipRoutes(deps));

  app.get('/library', async (c) => {
    const limitText = c.req.query('limit') ?? '20';
    const cursorText = c.req.query('cursor');
    const limit = Number(limitText);
    const cursor = cursorText === undefined ? undefined : Number(cursorText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      throw new ApiError(400, {
        code: ERROR_CODES.invalidValue,
        message: 'limit must be a whole number from 1 to 100.',
        param: 'limit',
      });
    if (cursor !== undefined && (!Number.isInteger(cursor) || cursor < 1))
      throw new ApiError(400, {
        code: ERROR_CODES.invalidValue,
        message: 'cursor must be the next_cursor of a previous page.',
        param: 'cursor',
      });
    const rows = await deps.store.list(theOwner(c), { limit: limit + 1, beforeSeq: cursor });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const body: LibraryPage = {
      object: 'list',
      data: page.map((r) => deps.library.toEntry(r)),
      next_cursor: rows.length > limit && last ? String(last.seq) : null,
    };
    return c.json(body, 200, { 'cache-control': 'no-store' });
  });

  // One entry, hidden ones too (`hidden: true`): a task opened by its address says it is
  // hidden and offers to show it again, instead of looking lost.
  app.get('/library/:id', async (c) => {
    const row = await deps.store.get(theOwner(c), c.req.param('id'));
    if (!row) throw notInLibrary();
    return c.json(deps.library.toEntry(row), 200, { 'cache-control': 'no-store' });
  });

  // `{ "hidden": false }` shows a hidden task again (the gallery's Undo, the task page's
  // Unhide); `{ "hidden": true }` hides it, as DELETE does.
  app.patch('/library/:id', async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new ApiError(400, {
        code: ERROR_CODES.invalidJson,
        message: 'The body must be JSON: { "hidden": false }.',
      });
    }
    const parsed = LibraryPatchSchema.safeParse(body);
    if (!parsed.success)
      throw new ApiError(400, {
        code: ERROR_CODES.invalidValue,
        message: 'hidden must be true or false.',
        param: 'hidden',
      });
    const owner = theOwner(c);
    const id = c.req.param('id');
    const done = parsed.data.hidden
      ? await deps.store.hide(owner, id)
      : await deps.store.unhide(owner, id);
    const row = done ? await deps.store.get(owner, id) : undefined;
    if (!row) throw notInLibrary();
    return c.json(deps.library.toEntry(row), 200, { 'cache-control': 'no-store' });
  });

  // The picture of a model, drawn by the first browser that showed it (the body is the image:
  // PNG, JPEG or WebP). The first one stays; later ones change nothing and get the entry as is.
  app.put(
    '/library/:id/thumbnail',
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
      return c.json(deps.library.toEntry(after), 200, { 'cache-control': 'no-store' });
    },
  );

  app.delete('/library/:id', async (c) => {
    const hidden = await deps.store.hide(theOwner(c), c.req.param('id'));
    if (!hidden) throw notInLibrary();
    return c.body(null, 204);
  });

  app.get('/credits', async (c) => {
    const history = await deps.store.balances(theOwner(c), 500);
    const last = history[history.length - 1];
    const body: Credits = {
      balance: last?.balance ?? null,
      learned_ms: last?.learnedMs ?? null,
      history: history.map((h) => ({
        balance: h.balance,
        learned_ms: h.learnedMs,
        task_id: h.taskId,
      })),
    };
    return c.json(body, 200, { 'cache-control': 'no-store' });
  });

  return app;
}
