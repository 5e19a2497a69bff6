import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ERROR_CODES } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { owner, ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import type { OwnerOf } from '../owner-id.ts';
import { SHARE_MODULES } from '../spa-shell.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { LibraryRow, LibraryStore } from '../storage/library.ts';
import type { SharedModel, ShareRow, ShareStore } from '../storage/shares.ts';
import { previewKey, renderPreview } from './preview.ts';
import {
  NO_STORE,
  baseOf,
  glbBlob,
  linkFiles,
  linkGone,
  previewServer,
  publicAnswer,
  publicPageRoutes,
  resolveLink,
  thumbnailBlob,
  type PublicPageDeps,
} from './public-link.ts';
import {
  newShareToken,
  ownerView,
  previewSubtitle,
  publicTitle,
  publicView,
  shareDescription,
  shareUrls,
  sharedFiles,
} from './service.ts';
import { USDZ_MAX_BYTES, checkUsdz, usdzTooLarge } from './usdz.ts';

export interface ShareRouteDeps {
  shares: ShareStore;
  library: LibraryStore;
  blobs: BlobStore;
  ownerOf: OwnerOf;
  /** PUBLIC_URL: the origin links are made on; else the request's own. */
  publicUrl?: string | undefined;
  now: () => number;
  /** A new token (tests may fix it); default: 144 random bits. */
  newToken?: () => string;
}

const notInLibrary = () =>
  new ApiError(404, {
    code: ERROR_CODES.taskNotFound,
    message: 'No such task in your library.',
    param: 'id',
  });

/** The same answer for an unknown token, a revoked one, and one whose model is gone. */
const noSuchLink = linkGone('model');

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

/**
 * `/api/library/{id}/share` (the owner: make, read, revoke a link) and `/api/shares/{token}`
 * (anyone with the link: its facts, GLB and picture), mounted at `/api`. A library entry's
 * `share` is the entry service's (library/entries.ts).
 */
export function shareRoutes(deps: ShareRouteDeps) {
  const app = new Hono<OwnerEnv>();
  const newToken = deps.newToken ?? newShareToken;

  app.use('/library/:id/share', owner(deps.ownerOf, { required: 'to share a model' }));
  app.use('/library/:id/share/*', owner(deps.ownerOf, { required: 'to share a model' }));

  /** The owner's library row named by `:id`, or 404. */
  const ownRow = async (c: Context<OwnerEnv>) => {
    const row = await deps.library.get(theOwner(c), c.req.param('id') ?? '');
    if (!row) throw notInLibrary();
    return row;
  };

  /** The owner's completed, archived task, or the error that says why it cannot be shared. */
  const shareable = async (c: Context<OwnerEnv>) => {
    const row = await ownRow(c);
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
  };

  /** The link of the owner's task `row`, or the 404 that says (in `message`) it has none. */
  const linkOf = async (c: Context<OwnerEnv>, row: LibraryRow, message: string) => {
    const link = await deps.shares.forTask(theOwner(c), row.taskId);
    if (!link) throw notShared(message);
    return link;
  };

  /** The owner's view of the link, as every owner's answer sends it. */
  const answer = (c: Context, link: ShareRow, row: LibraryRow, status: 200 | 201 = 200) =>
    c.json(ownerView(baseOf(c, deps.publicUrl), link, titleOfRow(row)), status, NO_STORE);

  // One link per task: a second POST answers the link there is (200), the first makes it (201).
  app.post('/library/:id/share', async (c) => {
    const row = await shareable(c);
    const fresh = newToken();
    const link = await deps.shares.create(theOwner(c), row.taskId, fresh, deps.now());
    return answer(c, link, row, link.token === fresh ? 201 : 200);
  });

  app.get('/library/:id/share', async (c) => {
    const row = await ownRow(c);
    return answer(c, await linkOf(c, row, 'This task is not shared.'), row);
  });

  // Revoked at once: the page, its facts, its GLB and its picture answer 404 from now on.
  app.delete('/library/:id/share', async (c) => {
    const row = await ownRow(c);
    if (!(await deps.shares.revoke(theOwner(c), row.taskId)))
      throw notShared('This task is not shared.');
    return c.body(null, 204);
  });

  // The link's USDZ for AR Quick Look, made by the owner's browser (three's exporter needs a
  // DOM canvas) and kept with the link: checked (a zip whose first file is the USD layer),
  // stored by its hash, served at /api/shares/{token}/model.usdz until the link is revoked.
  app.put(
    '/library/:id/share/model.usdz',
    bodyLimit({
      maxSize: USDZ_MAX_BYTES,
      onError: () => {
        throw usdzTooLarge();
      },
    }),
    async (c) => {
      const row = await ownRow(c);
      const link = await linkOf(
        c,
        row,
        'This task is not shared: share it first, then send its USDZ.',
      );
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      checkUsdz(bytes);
      const stored = await deps.blobs.put('assets', bytes, 'usdz');
      if (!(await deps.shares.setUsdz(theOwner(c), row.taskId, stored.sha256)))
        throw notShared('This task stopped being shared while its USDZ was sent.');
      return answer(c, { ...link, usdzSha256: stored.sha256 }, row);
    },
  );

  // Public, no key. A token that is not shaped like one is unknown without a database read.
  const resolve = (token: string): Promise<SharedModel> =>
    resolveLink(token, (t) => deps.shares.resolve(t), noSuchLink);

  app.get('/shares/:token', async (c) => {
    const token = c.req.param('token');
    const model = await resolve(token);
    return publicAnswer(c, publicView(baseOf(c, deps.publicUrl), token, model));
  });

  const serveFile = linkFiles(deps.blobs, (c) => resolve(c.req.param('token') ?? ''), noSuchLink);

  app.get(
    '/shares/:token/model.glb',
    serveFile((m) => glbBlob(m.assetSha256)),
  );
  app.get(
    '/shares/:token/thumbnail.webp',
    serveFile((m) => (m.thumbnailSha256 ? thumbnailBlob(m.thumbnailSha256) : null)),
  );
  app.get(
    '/shares/:token/model.usdz',
    serveFile((m) =>
      m.usdzSha256
        ? { kind: 'assets', sha256: m.usdzSha256, ext: 'usdz', contentType: 'model/vnd.usdz+zip' }
        : null,
    ),
  );

  const previews = previewServer(deps.blobs);
  // The link preview picture (og:image): made once per key (the model's picture, its title and
  // subtitle, the layout's version), kept in the blob store and remembered with the link, so a
  // second request, here or on another replica, reads it, and a rename makes a new one.
  app.get('/shares/:token/preview.jpg', async (c) => {
    const token = c.req.param('token');
    const model = await resolve(token);
    const title = publicTitle(model);
    const subtitle = previewSubtitle(model);
    return previews.serve(c, {
      token,
      key: previewKey({ title, subtitle, pictureSha256: model.thumbnailSha256 }),
      remembered: model.preview,
      missing: noSuchLink,
      render: async () => {
        const picture = model.thumbnailSha256
          ? ((await deps.blobs.get('thumbnails', model.thumbnailSha256, 'webp')) ?? null)
          : null;
        return renderPreview({ title, subtitle, picture });
      },
      remember: (preview) => deps.shares.setPreview(token, preview),
    });
  });

  return app;
}

/** What the page shell needs: the built index.html and Vite's manifest. */
export interface SharePageDeps extends PublicPageDeps {
  shares: ShareStore;
}

/**
 * `/s/{token}` (the public page) and `/s/{token}/embed` (the same without Kiln's chrome, for an
 * `<iframe>` on any site), with the model's title and picture (public-link.ts).
 */
export function sharePageRoutes(deps: SharePageDeps) {
  return publicPageRoutes(deps, {
    what: 'model',
    modules: SHARE_MODULES,
    resolve: (token) => deps.shares.resolve(token),
    meta: (base, token, model) => {
      const title = publicTitle(model);
      return {
        title,
        description: shareDescription(model),
        url: shareUrls(base, token).page,
        // Always a picture: the model on Kiln's stage with its name, or the name alone until a
        // browser has drawn the model (the picture's key changes then, so it is made again).
        image: {
          url: `${base}${sharedFiles(token).preview}`,
          alt: model.thumbnailSha256
            ? `The 3D model “${title}” on Kiln’s stage, with its name`
            : `The name of the 3D model “${title}”, on Kiln’s stage`,
        },
      };
    },
  });
}
