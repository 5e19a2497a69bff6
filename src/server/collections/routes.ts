import { Hono } from 'hono';
import { owner, type OwnerEnv } from '../middleware/owner.ts';
import { publicPageRoutes, type PublicPageDeps } from '../share/public-link.ts';
import type { CollectionStore } from '../storage/collections.ts';
import { collectionContext, type CollectionRouteDeps } from './context.ts';
import {
  modelFiles,
  previewRoute,
  publicFactsRoute,
  readShareRoute,
  revokeRoute,
  shareRoute,
} from './link-routes.ts';
import {
  createRoute,
  deleteRoute,
  listRoute,
  membersRoute,
  readRoute,
  renameRoute,
  zipRoute,
} from './owner-routes.ts';
import {
  collectionDescription,
  collectionPreview,
  collectionPreviewPath,
  collectionUrls,
} from './service.ts';

/**
 * The owner's collections (`/api/collections…`: make, rename, delete, members, zip, link) and
 * a collection's public link (`/api/collection-shares/{token}…`), mounted at `/api`; one handler
 * per route (owner-routes.ts, link-routes.ts) over one context (context.ts). The library's
 * `?collection=` is list-query.ts's, and an entry's `collections` the entry service's
 * (library/entries.ts).
 */
export function collectionRoutes(deps: CollectionRouteDeps) {
  const ctx = collectionContext(deps);
  const files = modelFiles(ctx);
  const required = owner(deps.ownerOf, { required: 'to see your collections' });
  return new Hono<OwnerEnv>()
    .use('/collections', required)
    .use('/collections/*', required)
    .get('/collections', listRoute(ctx))
    .post('/collections', createRoute(ctx))
    .get('/collections/:id', readRoute(ctx))
    .patch('/collections/:id', renameRoute(ctx))
    .delete('/collections/:id', deleteRoute(ctx))
    .post('/collections/:id/models', membersRoute(ctx))
    .get('/collections/:id/download.zip', zipRoute(ctx))
    .post('/collections/:id/share', shareRoute(ctx))
    .get('/collections/:id/share', readShareRoute(ctx))
    .delete('/collections/:id/share', revokeRoute(ctx))
    .get('/collection-shares/:token', publicFactsRoute(ctx))
    .get('/collection-shares/:token/preview.jpg', previewRoute(ctx))
    .get('/collection-shares/:token/models/:n/model.glb', files.glb)
    .get('/collection-shares/:token/models/:n/thumbnail.webp', files.thumbnail);
}

/** What the page shell needs: the built index.html and Vite's manifest. */
export interface CollectionPageDeps extends PublicPageDeps {
  collections: CollectionStore;
}

/** The public page of a shared collection: the page, and the viewer it shows. */
const COLLECTION_PAGE_MODULES: readonly string[] = [
  'src/web/features/collections/collection-page.tsx',
  'src/web/features/viewer/model-viewer.tsx',
];

/**
 * `/c/{token}` (a shared collection's public page) and `/c/{token}/embed` (the same for an
 * `<iframe>`): the SPA's shell with Open Graph and Twitter tags rendered here (the collection's
 * name, and its link preview picture). An unknown or revoked token is a 404 with the "gone" shell.
 */
export function collectionPageRoutes(deps: CollectionPageDeps) {
  return publicPageRoutes(deps, {
    what: 'collection',
    modules: COLLECTION_PAGE_MODULES,
    resolve: (token) => deps.collections.resolveShare(token),
    meta: (base, token, shared) => {
      const preview = collectionPreview(shared);
      const name = preview.title;
      const pictured = preview.pictureSha256s.length;
      return {
        title: name,
        description: collectionDescription(shared),
        url: collectionUrls(base, token).page,
        // Always a picture: the collection's first models on Kiln's stage with its name, or the
        // name alone until a browser has drawn one of them.
        image: {
          url: `${base}${collectionPreviewPath(token)}`,
          alt:
            pictured > 1
              ? `${pictured} 3D models of the collection “${name}” on Kiln’s stage, with its name`
              : pictured === 1
                ? `A 3D model of the collection “${name}” on Kiln’s stage, with its name`
                : `The name of the collection of 3D models “${name}”, on Kiln’s stage`,
        },
      };
    },
  });
}
