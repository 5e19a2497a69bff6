// The owner's link to a model, one handler per route (`/api/library/{id}/share…`): make it,
// read it, revoke it, and keep the USDZ the owner's browser made for it.
import type { Context } from 'hono';
import { ERROR_CODES } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import type { LibraryRow } from '../storage/library.ts';
import type { ShareRow } from '../storage/shares.ts';
import { NO_STORE, baseOf } from './public-link.ts';
import type { ShareRouteDeps } from './route-deps.ts';
import { newShareToken, ownerView, publicTitle } from './service.ts';
import { checkUsdz } from './usdz.ts';

type ShareContext = Context<OwnerEnv, '/library/:id/share'>;

const notInLibrary = () =>
  new ApiError(404, {
    code: ERROR_CODES.taskNotFound,
    message: 'No such task in your library.',
    param: 'id',
  });

/** The owner's task has no link: `message` says what that means for the request. */
const notShared = (message: string) =>
  new ApiError(404, { code: ERROR_CODES.shareNotFound, message, param: 'id' });

/** A library row's title as a share names it. */
const titleOfRow = (row: LibraryRow) =>
  publicTitle({
    prompt: row.prompt,
    name: row.name,
    photos: row.images.length,
    model: row.model,
    created: row.created,
  });

/** The owner's library row named by `:id`, or 404. */
async function ownRow(deps: ShareRouteDeps, c: Context<OwnerEnv>) {
  const row = await deps.library.get(theOwner(c), c.req.param('id') ?? '');
  if (!row) throw notInLibrary();
  return row;
}

/** The owner's completed, archived task, or the error that says why it cannot be shared. */
async function shareable(deps: ShareRouteDeps, c: Context<OwnerEnv>) {
  const row = await ownRow(deps, c);
  if (row.status !== 'completed')
    throw new ApiError(409, {
      code: ERROR_CODES.taskNotArchived,
      message:
        row.status === 'failed'
          ? 'A failed task has no model to share.'
          : 'The model is not finished yet: share it once the task has completed.',
      param: 'id',
    });
  if (row.assetSha256 === null)
    throw new ApiError(409, {
      code: ERROR_CODES.taskNotArchived,
      message:
        'Kiln is still saving its copy of the model (links point at that copy): try again in a moment.',
      param: 'id',
    });
  return row;
}

/** The link of the owner's task `row`, or the 404 that says (in `message`) it has none. */
async function linkOf(
  deps: ShareRouteDeps,
  c: Context<OwnerEnv>,
  row: LibraryRow,
  message: string,
) {
  const link = await deps.shares.forTask(theOwner(c), row.taskId);
  if (!link) throw notShared(message);
  return link;
}

/** The owner's view of the link, as every owner's answer sends it. */
function answer(
  deps: ShareRouteDeps,
  c: Context,
  link: ShareRow,
  row: LibraryRow,
  status: 200 | 201 = 200,
) {
  return c.json(ownerView(baseOf(c, deps.publicUrl), link, titleOfRow(row)), status, NO_STORE);
}

/** `POST …/share`: one link per task; a second POST answers the link there is (200), the first makes it (201). */
export function createRoute(deps: ShareRouteDeps) {
  const newToken = deps.newToken ?? newShareToken;
  return async (c: ShareContext) => {
    const row = await shareable(deps, c);
    const fresh = newToken();
    const link = await deps.shares.create(theOwner(c), row.taskId, fresh, deps.now());
    return answer(deps, c, link, row, link.token === fresh ? 201 : 200);
  };
}

/** `GET …/share`: the link there is, or 404. */
export function readRoute(deps: ShareRouteDeps) {
  return async (c: ShareContext) => {
    const row = await ownRow(deps, c);
    return answer(deps, c, await linkOf(deps, c, row, 'This task is not shared.'), row);
  };
}

/** `DELETE …/share`: revoked at once; the page, its facts, its GLB and its picture answer 404 from now on. */
export function revokeRoute(deps: ShareRouteDeps) {
  return async (c: ShareContext) => {
    const row = await ownRow(deps, c);
    if (!(await deps.shares.revoke(theOwner(c), row.taskId)))
      throw notShared('This task is not shared.');
    return c.body(null, 204);
  };
}

/**
 * `PUT …/share/model.usdz`: the link's USDZ for AR Quick Look, made by the owner's browser
 * (three's exporter needs a DOM canvas) and kept with the link: checked (a zip whose first file
 * is the USD layer), stored by its hash, served at /api/shares/{token}/model.usdz until the link
 * is revoked.
 */
export function usdzRoute(deps: ShareRouteDeps) {
  return async (c: Context<OwnerEnv, '/library/:id/share/model.usdz'>) => {
    const row = await ownRow(deps, c);
    const link = await linkOf(
      deps,
      c,
      row,
      'This task is not shared: share it first, then send its USDZ.',
    );
    const bytes = new Uint8Array(await c.req.arrayBuffer());
    checkUsdz(bytes);
    const stored = await deps.blobs.put('assets', bytes, 'usdz');
    if (!(await deps.shares.setUsdz(theOwner(c), row.taskId, stored.sha256)))
      throw notShared('This task stopped being shared while its USDZ was sent.');
    return answer(deps, c, { ...link, usdzSha256: stored.sha256 }, row);
  };
}
