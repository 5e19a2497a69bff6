// A collection's public link, one handler per route: the owner makes, reads and revokes it
// (`/api/collections/{id}/share`); anyone with it reads its facts, its link preview picture and
// each model's files (`/api/collection-shares/{token}…`, no key).
import type { Context } from 'hono';
import { ERROR_CODES } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import { previewKey, renderPreview } from '../share/preview.ts';
import {
  NO_STORE,
  baseOf,
  glbBlob,
  linkFiles,
  linkGone,
  previewServer,
  publicAnswer,
  resolveLink,
  thumbnailBlob,
} from '../share/public-link.ts';
import type { SharedModel } from '../storage/shares.ts';
import { notFound, type CollectionContext } from './context.ts';
import { collectionPreview, collectionShareView, publicCollectionView } from './service.ts';

type ShareContext = Context<OwnerEnv, '/collections/:id/share'>;
type TokenContext = Context<OwnerEnv, '/collection-shares/:token'>;

/** The same answer for an unknown token and a revoked one. */
const noSuchLink = linkGone('collection');

const notShared = () =>
  new ApiError(404, {
    code: ERROR_CODES.shareNotFound,
    message: 'This collection is not shared.',
    param: 'id',
  });

/** `POST …/share`: one link per collection; a second POST answers the link there is (200). */
export function shareRoute(ctx: CollectionContext) {
  return async (c: ShareContext) => {
    const collection = await ctx.theCollection(c);
    const fresh = ctx.newToken();
    const link = await ctx.deps.collections.share(
      theOwner(c),
      collection.id,
      fresh,
      ctx.deps.now(),
    );
    if (!link) throw notFound();
    const body = collectionShareView(baseOf(c, ctx.deps.publicUrl), link, collection.name);
    return c.json(body, link.token === fresh ? 201 : 200, NO_STORE);
  };
}

/** `GET …/share`: the link there is, or 404. */
export function readShareRoute(ctx: CollectionContext) {
  return async (c: ShareContext) => {
    const collection = await ctx.theCollection(c);
    if (!collection.share) throw notShared();
    const base = baseOf(c, ctx.deps.publicUrl);
    return c.json(collectionShareView(base, collection.share, collection.name), 200, NO_STORE);
  };
}

/** `DELETE …/share`: revoked at once; the page, its facts and its files answer 404 from now on. */
export function revokeRoute(ctx: CollectionContext) {
  return async (c: ShareContext) => {
    const collection = await ctx.theCollection(c);
    if (!(await ctx.deps.collections.revokeShare(theOwner(c), collection.id))) throw notShared();
    return c.body(null, 204);
  };
}

/** A live link's collection; a token not shaped like one is unknown without a database read. */
const resolve = (ctx: CollectionContext, token: string) =>
  resolveLink(token, (t) => ctx.deps.collections.resolveShare(t), noSuchLink);

/** `GET /collection-shares/{token}`: what the public page shows. */
export function publicFactsRoute(ctx: CollectionContext) {
  return async (c: TokenContext) => {
    const token = c.req.param('token');
    const shared = await resolve(ctx, token);
    return publicAnswer(c, publicCollectionView(baseOf(c, ctx.deps.publicUrl), token, shared));
  };
}

/**
 * `GET /collection-shares/{token}/preview.jpg`: the link preview picture (og:image), made once
 * per key like a model's (decision 0089): the name, how many models the page shows and its
 * first three pictures; a rename or a members change makes a new one on the next request.
 */
export function previewRoute(ctx: CollectionContext) {
  const { blobs, collections } = ctx.deps;
  const previews = previewServer(blobs);
  return async (c: Context<OwnerEnv, '/collection-shares/:token/preview.jpg'>) => {
    const token = c.req.param('token');
    const shared = await resolve(ctx, token);
    const { title, subtitle, pictureSha256s } = collectionPreview(shared);
    return previews.serve(c, {
      token,
      key: previewKey({ title, subtitle, pictureSha256: null, rowSha256s: pictureSha256s }),
      remembered: shared.preview,
      missing: noSuchLink,
      render: async () => {
        const row = await Promise.all(
          pictureSha256s.map((sha) => blobs.get('thumbnails', sha, 'webp')),
        );
        return renderPreview({
          title,
          subtitle,
          picture: null,
          row: row.filter((bytes): bytes is Uint8Array => bytes !== undefined),
        });
      },
      remember: (preview) => collections.setPreview(token, preview),
    });
  };
}

/**
 * The files of the `{n}`th model a live link shows (`…/models/{n}/model.glb`, `thumbnail.webp`):
 * `serveFile(pick)` answers the blob `pick` names, or the link's 404.
 */
export function modelFiles(ctx: CollectionContext) {
  const sharedModel = async (c: Context): Promise<SharedModel> => {
    const n = c.req.param('n') ?? '';
    return resolveLink(
      c.req.param('token') ?? '',
      async (token) =>
        /^\d{1,6}$/.test(n) ? ctx.deps.collections.sharedModel(token, Number(n)) : undefined,
      noSuchLink,
    );
  };
  const serveFile = linkFiles(ctx.deps.blobs, sharedModel, noSuchLink);
  return {
    glb: serveFile((m) => glbBlob(m.assetSha256)),
    thumbnail: serveFile((m) => (m.thumbnailSha256 ? thumbnailBlob(m.thumbnailSha256) : null)),
  };
}
