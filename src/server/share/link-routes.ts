// A model's public link, one handler per route (`/api/shares/{token}…`, no key): its facts, its
// files (GLB, picture, USDZ) and its link preview picture.
import type { Context } from 'hono';
import type { OwnerEnv } from '../middleware/owner.ts';
import type { SharedModel } from '../storage/shares.ts';
import { previewKey, renderPreview } from './preview.ts';
import {
  baseOf,
  glbBlob,
  linkFiles,
  linkGone,
  previewServer,
  publicAnswer,
  resolveLink,
  thumbnailBlob,
} from './public-link.ts';
import type { ShareRouteDeps } from './route-deps.ts';
import { previewSubtitle, publicTitle, publicView } from './service.ts';

type TokenContext = Context<OwnerEnv, '/shares/:token'>;

/** The same answer for an unknown token, a revoked one, and one whose model is gone. */
const noSuchLink = linkGone('model');

/** A live link's model; a token that is not shaped like one is unknown without a database read. */
const resolve = (deps: ShareRouteDeps, token: string): Promise<SharedModel> =>
  resolveLink(token, (t) => deps.shares.resolve(t), noSuchLink);

/** `GET /shares/{token}`: what the public page shows. */
export function factsRoute(deps: ShareRouteDeps) {
  return async (c: TokenContext) => {
    const token = c.req.param('token');
    const model = await resolve(deps, token);
    return publicAnswer(c, publicView(baseOf(c, deps.publicUrl), token, model));
  };
}

/** The files a live link serves (`…/model.glb`, `…/thumbnail.webp`, `…/model.usdz`), or its 404. */
export function modelFiles(deps: ShareRouteDeps) {
  const serveFile = linkFiles(
    deps.blobs,
    (c) => resolve(deps, c.req.param('token') ?? ''),
    noSuchLink,
  );
  return {
    glb: serveFile((m) => glbBlob(m.assetSha256)),
    thumbnail: serveFile((m) => (m.thumbnailSha256 ? thumbnailBlob(m.thumbnailSha256) : null)),
    usdz: serveFile((m) =>
      m.usdzSha256
        ? { kind: 'assets', sha256: m.usdzSha256, ext: 'usdz', contentType: 'model/vnd.usdz+zip' }
        : null,
    ),
  };
}

/**
 * `GET /shares/{token}/preview.jpg`: the link preview picture (og:image), made once per key (the
 * model's picture, its title and subtitle, the layout's version), kept in the blob store and
 * remembered with the link, so a second request, here or on another replica, reads it, and a
 * rename makes a new one.
 */
export function previewRoute(deps: ShareRouteDeps) {
  const previews = previewServer(deps.blobs);
  return async (c: Context<OwnerEnv, '/shares/:token/preview.jpg'>) => {
    const token = c.req.param('token');
    const model = await resolve(deps, token);
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
  };
}
