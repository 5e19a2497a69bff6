import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { owner, type OwnerEnv } from '../middleware/owner.ts';
import { SHARE_MODULES, SHARE_PAGE_MODULE } from '../spa-shell.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { ShareStore } from '../storage/shares.ts';
import {
  dayFor,
  decodersFor,
  firstPaintBody,
  firstPaintTags,
  glbExtensionReader,
  posterPreload,
} from './first-paint.ts';
import { factsRoute, modelFiles, previewRoute } from './link-routes.ts';
import { createRoute, readRoute, revokeRoute, usdzRoute } from './owner-routes.ts';
import { publicPageRoutes, type PublicPageDeps } from './public-link.ts';
import type { ShareRouteDeps } from './route-deps.ts';
import { publicTitle, publicView, shareDescription, shareUrls, sharedFiles } from './service.ts';
import { USDZ_MAX_BYTES, usdzTooLarge } from './usdz.ts';

/**
 * `/api/library/{id}/share` (the owner: make, read, revoke a link; owner-routes.ts) and
 * `/api/shares/{token}` (anyone with the link: its facts, GLB and picture; link-routes.ts),
 * mounted at `/api`, one handler per route. A library entry's `share` is the entry service's
 * (library/entries.ts).
 */
export function shareRoutes(deps: ShareRouteDeps) {
  const required = owner(deps.ownerOf, { required: 'to share a model' });
  const usdzLimit = bodyLimit({
    maxSize: USDZ_MAX_BYTES,
    onError: () => {
      throw usdzTooLarge();
    },
  });
  const files = modelFiles(deps);
  return new Hono<OwnerEnv>()
    .use('/library/:id/share', required)
    .use('/library/:id/share/*', required)
    .post('/library/:id/share', createRoute(deps))
    .get('/library/:id/share', readRoute(deps))
    .delete('/library/:id/share', revokeRoute(deps))
    .put('/library/:id/share/model.usdz', usdzLimit, usdzRoute(deps))
    .get('/shares/:token', factsRoute(deps))
    .get('/shares/:token/model.glb', files.glb)
    .get('/shares/:token/thumbnail.webp', files.thumbnail)
    .get('/shares/:token/model.usdz', files.usdz)
    .get('/shares/:token/preview.jpg', previewRoute(deps));
}

/** What the page shell needs: the built index.html and Vite's manifest. */
export interface SharePageDeps extends PublicPageDeps {
  shares: ShareStore;
  blobs: BlobStore;
}

/**
 * `/s/{token}` (the public page) and `/s/{token}/embed` (the same without Kiln's chrome, for an
 * `<iframe>` on any site), with the model's title and picture (public-link.ts).
 */
export function sharePageRoutes(deps: SharePageDeps) {
  const extensionsOf = glbExtensionReader(deps.blobs);
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
    // The poster, the GLB and its decoders fetched with the HTML; the facts inline.
    // The page itself drawn here too, so the picture is painted before any script has run.
    firstPaint: async (base, token, model, page) => {
      const decoders = decodersFor(await extensionsOf(model.assetSha256));
      const view = publicView(base, token, model);
      return {
        lead: posterPreload(view),
        tags: firstPaintTags(view, decoders.files),
        modules: decoders.modules,
        body: firstPaintBody(view, { embed: page.embed, day: dayFor(page.languages) }),
        stylesheets: [SHARE_PAGE_MODULE],
        appAfterFirstFrame: true,
      };
    },
  });
}
