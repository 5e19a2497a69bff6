import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createHash } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { ERROR_CODES, type LibraryEntry, type Share } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { owner, ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import { bearerKey, type OwnerOf } from '../owner-id.ts';
import { FRAMEABLE_CSP } from '../security.ts';
import { serveBlob } from '../serve-blob.ts';
import { SHARE_MODULES, withMeta, withPreloads } from '../spa-shell.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { LibraryRow, LibraryStore } from '../storage/library.ts';
import type { SharedModel, ShareStore } from '../storage/shares.ts';
import {
  PREVIEW_HEIGHT,
  PREVIEW_TYPE,
  PREVIEW_WIDTH,
  previewKey,
  renderPreview,
} from './preview.ts';
import {
  isShareToken,
  newShareToken,
  ownerView,
  previewSubtitle,
  publicView,
  shareDescription,
  shareTitle,
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

/** Every public answer: never listed by search engines. */
export const NOINDEX = { 'X-Robots-Tag': 'noindex, nofollow' } as const;

/** The origin links are made on. */
export function baseOf(c: Context, publicUrl: string | undefined): string {
  return (publicUrl ?? new URL(c.req.url).origin).replace(/\/+$/, '');
}

const notInLibrary = () =>
  new ApiError(404, {
    code: ERROR_CODES.taskNotFound,
    message: 'No such task in your library.',
    param: 'id',
  });

/** The same answer for an unknown token, a revoked one, and one whose model is gone. */
const noSuchLink = () =>
  new ApiError(
    404,
    {
      code: ERROR_CODES.shareNotFound,
      message:
        'There is no model at this link: it was never made, or its owner stopped sharing it.',
    },
    { headers: { ...NOINDEX, 'Cache-Control': 'no-store' } },
  );

/** A library row's title as a share names it. */
const titleOfRow = (row: LibraryRow) =>
  shareTitle({
    prompt: row.prompt,
    name: row.name,
    photos: row.images.length,
    model: row.model,
    created: row.created,
  });

/**
 * `/api/library/{id}/share` (the owner: make, read, revoke a link) and `/api/shares/{token}`
 * (anyone with the link: its facts, GLB and picture), mounted at `/api` before the library's
 * routes: it also adds `share` to the library's entries (see `withShares`).
 */
export function shareRoutes(deps: ShareRouteDeps) {
  const app = new Hono<OwnerEnv>();
  const newToken = deps.newToken ?? newShareToken;

  app.use('/library', withShares(deps));
  app.use('/library/*', withShares(deps));
  app.use('/library/:id/share', owner(deps.ownerOf, { required: 'to share a model' }));
  app.use('/library/:id/share/*', owner(deps.ownerOf, { required: 'to share a model' }));

  /** The owner's completed, archived task, or the error that says why it cannot be shared. */
  const shareable = async (c: Context<OwnerEnv>) => {
    const row = await deps.library.get(theOwner(c), c.req.param('id') ?? '');
    if (!row) throw notInLibrary();
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

  // One link per task: a second POST answers the link there is (200), the first makes it (201).
  app.post('/library/:id/share', async (c) => {
    const row = await shareable(c);
    const fresh = newToken();
    const link = await deps.shares.create(theOwner(c), row.taskId, fresh, deps.now());
    const body: Share = ownerView(baseOf(c, deps.publicUrl), link, titleOfRow(row));
    return c.json(body, link.token === fresh ? 201 : 200, { 'Cache-Control': 'no-store' });
  });

  app.get('/library/:id/share', async (c) => {
    const owner = theOwner(c);
    const row = await deps.library.get(owner, c.req.param('id'));
    if (!row) throw notInLibrary();
    const link = await deps.shares.forTask(owner, row.taskId);
    if (!link)
      throw new ApiError(404, {
        code: ERROR_CODES.shareNotFound,
        message: 'This task is not shared.',
        param: 'id',
      });
    return c.json(ownerView(baseOf(c, deps.publicUrl), link, titleOfRow(row)), 200, {
      'Cache-Control': 'no-store',
    });
  });

  // Revoked at once: the page, its facts, its GLB and its picture answer 404 from now on.
  app.delete('/library/:id/share', async (c) => {
    const owner = theOwner(c);
    const row = await deps.library.get(owner, c.req.param('id'));
    if (!row) throw notInLibrary();
    if (!(await deps.shares.revoke(owner, row.taskId)))
      throw new ApiError(404, {
        code: ERROR_CODES.shareNotFound,
        message: 'This task is not shared.',
        param: 'id',
      });
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
      const owner = theOwner(c);
      const row = await deps.library.get(owner, c.req.param('id'));
      if (!row) throw notInLibrary();
      const link = await deps.shares.forTask(owner, row.taskId);
      if (!link)
        throw new ApiError(404, {
          code: ERROR_CODES.shareNotFound,
          message: 'This task is not shared: share it first, then send its USDZ.',
          param: 'id',
        });
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      checkUsdz(bytes);
      const stored = await deps.blobs.put('assets', bytes, 'usdz');
      if (!(await deps.shares.setUsdz(owner, row.taskId, stored.sha256)))
        throw new ApiError(404, {
          code: ERROR_CODES.shareNotFound,
          message: 'This task stopped being shared while its USDZ was sent.',
          param: 'id',
        });
      return c.json(
        ownerView(
          baseOf(c, deps.publicUrl),
          { ...link, usdzSha256: stored.sha256 },
          titleOfRow(row),
        ),
        200,
        { 'Cache-Control': 'no-store' },
      );
    },
  );

  // Public, no key. A token that is not shaped like one is unknown without a database read.
  const resolve = async (token: string): Promise<SharedModel> => {
    const model = isShareToken(token) ? await deps.shares.resolve(token) : undefined;
    if (!model) throw noSuchLink();
    return model;
  };

  app.get('/shares/:token', async (c) => {
    const token = c.req.param('token');
    const model = await resolve(token);
    return c.json(publicView(baseOf(c, deps.publicUrl), token, model), 200, {
      ...NOINDEX,
      'Cache-Control': 'no-store',
    });
  });

  const serveShared = (c: Context, token: string, blob: PublicBlob) =>
    servePublicBlob(c, deps.blobs, token, blob, noSuchLink);

  app.get('/shares/:token/model.glb', async (c) => {
    const model = await resolve(c.req.param('token'));
    return serveShared(c, c.req.param('token'), {
      kind: 'assets',
      sha256: model.assetSha256,
      ext: 'glb',
      contentType: 'model/gltf-binary',
    });
  });

  app.get('/shares/:token/thumbnail.webp', async (c) => {
    const model = await resolve(c.req.param('token'));
    if (!model.thumbnailSha256) throw noSuchLink();
    return serveShared(c, c.req.param('token'), {
      kind: 'thumbnails',
      sha256: model.thumbnailSha256,
      ext: 'webp',
      contentType: 'image/webp',
    });
  });

  app.get('/shares/:token/model.usdz', async (c) => {
    const model = await resolve(c.req.param('token'));
    if (!model.usdzSha256) throw noSuchLink();
    return serveShared(c, c.req.param('token'), {
      kind: 'assets',
      sha256: model.usdzSha256,
      ext: 'usdz',
      contentType: 'model/vnd.usdz+zip',
    });
  });

  const previews = previewServer(deps.blobs);
  // The link preview picture (og:image): made once per key (the model's picture, its title and
  // subtitle, the layout's version), kept in the blob store and remembered with the link, so a
  // second request, here or on another replica, reads it, and a rename makes a new one.
  app.get('/shares/:token/preview.jpg', async (c) => {
    const token = c.req.param('token');
    const model = await resolve(token);
    const title = shareTitle(model);
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

/**
 * Serves a link's preview picture (a model's or a collection's), made at most once per key: a
 * request whose key matches the remembered one reads the stored JPEG; otherwise it is rendered,
 * stored in the blob store (`thumbnails/…jpg`) and remembered with the link. Requests that
 * arrive together while it is being made (a chat app's fetchers, many members of a group) wait
 * for the one render in this process.
 */
export function previewServer(blobs: BlobStore) {
  const making = new Map<string, Promise<string>>();
  const blob = (sha256: string) =>
    ({ kind: 'thumbnails', sha256, ext: 'jpg', contentType: PREVIEW_TYPE }) as const;
  return {
    async serve(
      c: Context,
      link: {
        token: string;
        key: string;
        remembered: { key: string; sha256: string } | null;
        missing: () => Error;
        render: () => Promise<Uint8Array>;
        remember: (preview: { key: string; sha256: string }) => Promise<void>;
      },
    ): Promise<Response> {
      if (link.remembered?.key === link.key) {
        try {
          return await servePublicBlob(
            c,
            blobs,
            link.token,
            blob(link.remembered.sha256),
            link.missing,
          );
        } catch (err) {
          // The picture was remembered but its file is gone: made again below.
          if (!(err instanceof ApiError && err.status === 404)) throw err;
        }
      }
      const flight = `${link.token}\n${link.key}`;
      let made = making.get(flight);
      if (!made) {
        made = (async () => {
          const stored = await blobs.put('thumbnails', await link.render(), 'jpg');
          await link.remember({ key: link.key, sha256: stored.sha256 });
          return stored.sha256;
        })().finally(() => making.delete(flight));
        making.set(flight, made);
      }
      return servePublicBlob(c, blobs, link.token, blob(await made), link.missing);
    },
  };
}

type PublicBlob = Omit<Parameters<typeof serveBlob>[2], 'etag' | 'cacheControl'>;

/**
 * A link's file from the blob store (ranged, conditional), revalidated on every use: a revoked
 * link stops serving at once, and a live one costs a 304. `linkKey` is what the ETag is made of
 * with the file's hash (the token, and for a collection the model's place in it).
 */
export async function servePublicBlob(
  c: Context,
  blobs: BlobStore,
  linkKey: string,
  blob: PublicBlob,
  missing: () => Error,
): Promise<Response> {
  // The ETag is the link's own (it does not tell the file's hash): nothing a share sends
  // names anything that still opens the file once the link is revoked (decision 0077).
  const etag = createHash('sha256').update(`${linkKey}\n${blob.sha256}`).digest('base64url');
  const res = await serveBlob(c, blobs, { ...blob, etag });
  if (!res) throw missing();
  res.headers.set('Cache-Control', 'private, no-cache');
  res.headers.set('X-Robots-Tag', NOINDEX['X-Robots-Tag']);
  return res;
}

/** A library entry, recognised in a response body. */
export function isEntry(value: unknown): value is LibraryEntry {
  const v = value as { id?: unknown; archived?: unknown } | null;
  return typeof v === 'object' && v !== null && typeof v.id === 'string' && 'archived' in v;
}

/**
 * Adds `share` (the page's address, or null) to the library entries the library's own routes
 * answer with, the list's and one entry's alike, for the key that asked. The library stays
 * unaware of shares: this wraps its answers (one query per answer, by the entries' ids).
 */
function withShares(deps: ShareRouteDeps) {
  return createMiddleware(async (c, next) => {
    await next();
    const key = bearerKey(c.req.header('authorization'));
    if (!key || c.res.status !== 200) return;
    if (!c.res.headers.get('content-type')?.startsWith('application/json')) return;
    const body = (await c.res.clone().json()) as unknown;
    const list = body as { object?: unknown; data?: unknown };
    const entries =
      list?.object === 'list' && Array.isArray(list.data)
        ? list.data.filter(isEntry)
        : isEntry(body)
          ? [body]
          : [];
    if (entries.length === 0) return;
    const links = await deps.shares.forTasks(
      deps.ownerOf(key),
      entries.map((e) => e.id),
    );
    const base = baseOf(c, deps.publicUrl);
    for (const entry of entries) {
      const link = links.get(entry.id);
      entry.share = link
        ? { url: shareUrls(base, link.token).page, created_ms: link.createdMs }
        : null;
    }
    const headers = new Headers(c.res.headers);
    headers.delete('content-length');
    c.res = undefined;
    c.res = new Response(JSON.stringify(body), { status: 200, headers });
  });
}

/** What the page shell needs: the built index.html and Vite's manifest. */
export interface SharePageDeps {
  shares: ShareStore;
  publicUrl?: string | undefined;
  indexHtml: string;
  manifest: unknown;
}

/**
 * `/s/{token}` (the public page) and `/s/{token}/embed` (the same without Kiln's chrome, for an
 * `<iframe>` on any site): the SPA's shell with Open Graph and Twitter tags rendered here, so a
 * chat app's preview shows the model's title and picture. An unknown or revoked token is a 404
 * (the SPA then says the link is gone). Only the embed may be framed.
 */
export function sharePageRoutes(deps: SharePageDeps) {
  const app = new Hono();
  const shell = withPreloads(deps.indexHtml, deps.manifest, SHARE_MODULES);
  const gone = withMeta(deps.indexHtml, {
    title: 'Link not found',
    description:
      'There is no model at this link: it was never made, or its owner stopped sharing it.',
    noindex: true,
  });

  const page = (embed: boolean) => async (c: Context) => {
    const token = c.req.param('token') ?? '';
    const headers: Record<string, string> = { ...NOINDEX, 'Cache-Control': 'no-store' };
    if (embed) {
      headers['Content-Security-Policy'] = FRAMEABLE_CSP;
      headers['Cross-Origin-Resource-Policy'] = 'cross-origin';
    }
    const model = isShareToken(token) ? await deps.shares.resolve(token) : undefined;
    if (!model) return c.html(gone, 404, headers);
    const base = baseOf(c, deps.publicUrl);
    const title = shareTitle(model);
    const html = withMeta(shell, {
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
        type: PREVIEW_TYPE,
        width: PREVIEW_WIDTH,
        height: PREVIEW_HEIGHT,
      },
      noindex: true,
    });
    return c.html(html, 200, headers);
  };

  app.get('/:token', page(false));
  app.get('/:token/embed', page(true));
  return app;
}
