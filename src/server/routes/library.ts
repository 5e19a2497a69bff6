import { Hono, type Context } from 'hono';
import { ERROR_TYPES, type Credits, type LibraryPage } from '../../contract/index.ts';
import type { LibraryService } from '../library/service.ts';
import { bearerKey, type OwnerOf } from '../owner.ts';
import type { LibraryStore } from '../storage/library.ts';

export interface LibraryRouteDeps {
  store: LibraryStore;
  library: LibraryService;
  ownerOf: OwnerOf;
}

function ownerOrNull(c: Context, ownerOf: OwnerOf): string | null {
  const key = bearerKey(c.req.header('authorization'));
  return key ? ownerOf(key) : null;
}

const noKey = (c: Context) =>
  c.json(
    {
      error: {
        message: 'No API key. Send it as "Authorization: Bearer tr_…" to see your library.',
        type: ERROR_TYPES.authentication,
        code: 'missing_api_key',
      },
    },
    401,
  );

const notInLibrary = (c: Context) =>
  c.json(
    {
      error: {
        message: 'No such task in your library.',
        type: ERROR_TYPES.notFound,
        code: 'task_not_found',
        param: 'id',
      },
    },
    404,
  );

/** `/api/library` and `/api/credits`: what this key made through Kiln, and its balance over time. */
export function libraryRoutes(deps: LibraryRouteDeps) {
  const app = new Hono();

  app.get('/library', async (c) => {
    const owner = ownerOrNull(c, deps.ownerOf);
    if (!owner) return noKey(c);
    const limitText = c.req.query('limit') ?? '20';
    const cursorText = c.req.query('cursor');
    const limit = Number(limitText);
    const cursor = cursorText === undefined ? undefined : Number(cursorText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100)
      return c.json(
        {
          error: {
            message: 'limit must be a whole number from 1 to 100.',
            type: ERROR_TYPES.invalidRequest,
            code: 'invalid_value',
            param: 'limit',
          },
        },
        400,
      );
    if (cursor !== undefined && (!Number.isInteger(cursor) || cursor < 1))
      return c.json(
        {
          error: {
            message: 'cursor must be the next_cursor of a previous page.',
            type: ERROR_TYPES.invalidRequest,
            code: 'invalid_value',
            param: 'cursor',
          },
        },
        400,
      );
    const rows = await deps.store.list(owner, { limit: limit + 1, beforeSeq: cursor });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const body: LibraryPage = {
      object: 'list',
      data: page.map((r) => deps.library.toEntry(r)),
      next_cursor: rows.length > limit && last ? String(last.seq) : null,
    };
    return c.json(body, 200, { 'cache-control': 'no-store' });
  });

  app.get('/library/:id', async (c) => {
    const owner = ownerOrNull(c, deps.ownerOf);
    if (!owner) return noKey(c);
    const row = await deps.store.get(owner, c.req.param('id'));
    if (!row || row.hidden) return notInLibrary(c);
    return c.json(deps.library.toEntry(row), 200, { 'cache-control': 'no-store' });
  });

  app.delete('/library/:id', async (c) => {
    const owner = ownerOrNull(c, deps.ownerOf);
    if (!owner) return noKey(c);
    const hidden = await deps.store.hide(owner, c.req.param('id'));
    if (!hidden) return notInLibrary(c);
    return c.body(null, 204);
  });

  app.get('/credits', async (c) => {
    const owner = ownerOrNull(c, deps.ownerOf);
    if (!owner) return noKey(c);
    const history = await deps.store.balances(owner, 500);
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
