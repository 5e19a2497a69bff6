import { Hono, type Context } from 'hono';
import {
  COLLECTION_MEMBERS_MAX,
  CollectionMembersPatchSchema,
  CollectionNameBodySchema,
  ERROR_CODES,
  MODEL_NAME_MAX,
  checkModelName,
  type CollectionList,
} from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { unusable, zipAnswer, type Skipped } from '../library/download-zip.ts';
import { readJson } from '../middleware/boundary.ts';
import { owner, ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import type { OwnerOf } from '../owner-id.ts';
import { previewKey, renderPreview } from '../share/preview.ts';
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
} from '../share/public-link.ts';
import { newShareToken } from '../share/service.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { CollectionRow, CollectionStore } from '../storage/collections.ts';
import type { LibraryRow } from '../storage/library.ts';
import type { SharedModel } from '../storage/shares.ts';
import {
  collectionDescription,
  collectionPreview,
  collectionPreviewPath,
  collectionShareView,
  collectionUrls,
  collectionView,
  collectionZipName,
  isCollectionId,
  newCollectionId,
  publicCollectionView,
} from './service.ts';

export interface CollectionRouteDeps {
  collections: CollectionStore;
  blobs: BlobStore;
  ownerOf: OwnerOf;
  /** Signs the owner's file addresses (a collection's cover); none: bare paths (tests). */
  sign?: (path: string) => string;
  /** PUBLIC_URL: the origin links are made on; else the request's own. */
  publicUrl?: string | undefined;
  now: () => number;
  log?: (message: string) => void;
  /** A new link token (tests may fix it); default: 144 random bits. */
  newToken?: () => string;
  /** A new collection id (tests may fix it). */
  newId?: () => string;
}

const notFound = () =>
  new ApiError(404, {
    code: ERROR_CODES.collectionNotFound,
    message: 'No such collection in your library: it was never made, or it was deleted.',
    param: 'id',
  });

const nameTaken = (name: string) =>
  new ApiError(409, {
    code: ERROR_CODES.collectionNameTaken,
    message: `You already have a collection called “${name}” (names are compared regardless of case). Choose another name.`,
    param: 'name',
  });

/** The same answer for an unknown token and a revoked one. */
const noSuchLink = linkGone('collection');

const notShared = () =>
  new ApiError(404, {
    code: ERROR_CODES.shareNotFound,
    message: 'This collection is not shared.',
    param: 'id',
  });

/** A collection's name as sent, checked: 1–120 characters, trimmed; or the 400 naming `name`. */
function collectionName(body: unknown): string {
  const parsed = CollectionNameBodySchema.safeParse(body);
  if (!parsed.success) {
    const keys =
      typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
    const stray = keys.find((k) => k !== 'name');
    throw new ApiError(400, {
      code: keys.includes('name') || stray ? ERROR_CODES.invalidValue : ERROR_CODES.missingField,
      message: stray
        ? `Only name can be sent (${stray} is not known).`
        : `name must be text: the collection's name (1 to ${MODEL_NAME_MAX} characters).`,
      param: stray ?? 'name',
    });
  }
  const checked = checkModelName(parsed.data.name);
  if (!checked.ok)
    throw new ApiError(400, {
      code: ERROR_CODES.invalidValue,
      message: checked.message,
      param: 'name',
    });
  if (checked.name === null)
    throw new ApiError(400, {
      code: ERROR_CODES.invalidValue,
      message: `A collection must have a name: name must be 1 to ${MODEL_NAME_MAX} characters.`,
      param: 'name',
    });
  return checked.name;
}

/** Ids in a message: the first few, then how many more. */
function listed(ids: readonly string[]): string {
  const shown = ids.slice(0, 10).map((id) => (id.length > 60 ? `${id.slice(0, 60)}…` : id));
  return ids.length > shown.length
    ? `${shown.join(', ')} and ${ids.length - shown.length} more`
    : shown.join(', ');
}

/** `POST …/models`' body, checked: ids to add and to remove, or the 400 naming the field. */
function membersChange(body: unknown): { add: string[]; remove: string[] } {
  const parsed = CollectionMembersPatchSchema.safeParse(body);
  if (!parsed.success) {
    const keys =
      typeof body === 'object' && body !== null && !Array.isArray(body) ? Object.keys(body) : [];
    const stray = keys.find((k) => k !== 'add' && k !== 'remove');
    const at = parsed.error.issues[0]?.path[0];
    const param = stray ?? (at === 'add' || at === 'remove' ? at : 'add');
    throw new ApiError(400, {
      code: ERROR_CODES.invalidValue,
      message: stray
        ? `Only add and remove can be sent (${stray} is not known).`
        : at === 'add' || at === 'remove'
          ? `${at} must be a list of at most ${COLLECTION_MEMBERS_MAX} library ids (text).`
          : 'Send add or remove: a list of library ids (at least one id in all).',
      param,
    });
  }
  const add = [...new Set(parsed.data.add ?? [])];
  const remove = [...new Set(parsed.data.remove ?? [])];
  const both = add.filter((id) => remove.includes(id));
  if (both.length > 0)
    throw new ApiError(400, {
      code: ERROR_CODES.invalidValue,
      message: `An id cannot be added and removed at once: ${listed(both)}.`,
      param: 'remove',
    });
  return { add, remove };
}

/**
 * The owner's collections (`/api/collections…`: make, rename, delete, members, zip, link) and
 * a collection's public link (`/api/collection-shares/{token}…`), mounted at `/api`. The
 * library's `?collection=` is list-query.ts's, and an entry's `collections` the entry
 * service's (library/entries.ts).
 */
export function collectionRoutes(deps: CollectionRouteDeps) {
  const app = new Hono<OwnerEnv>();
  const newId = deps.newId ?? newCollectionId;
  const newToken = deps.newToken ?? newShareToken;
  const sign = deps.sign ?? ((path: string) => path);
  const view = (c: Context, row: CollectionRow) =>
    collectionView(baseOf(c, deps.publicUrl), row, sign);

  app.use('/collections', owner(deps.ownerOf, { required: 'to see your collections' }));
  app.use('/collections/*', owner(deps.ownerOf, { required: 'to see your collections' }));

  /** The owner's collection named by `:id`, or 404 (a malformed id without a read). */
  const theCollection = async (c: Context<OwnerEnv>) => {
    const id = c.req.param('id') ?? '';
    const row = isCollectionId(id) ? await deps.collections.get(theOwner(c), id) : undefined;
    if (!row) throw notFound();
    return row;
  };

  app.get('/collections', async (c) => {
    const rows = await deps.collections.list(theOwner(c));
    const body: CollectionList = { object: 'list', data: rows.map((r) => view(c, r)) };
    return c.json(body, 200, NO_STORE);
  });

  app.post('/collections', async (c) => {
    const name = collectionName(await readJson(c, '{ "name": "Chairs" }'));
    const made = await deps.collections.create(theOwner(c), newId(), name, deps.now());
    if (made === 'name_taken') throw nameTaken(name);
    return c.json(view(c, made), 201, NO_STORE);
  });

  app.get('/collections/:id', async (c) => c.json(view(c, await theCollection(c)), 200, NO_STORE));

  app.patch('/collections/:id', async (c) => {
    const body = await readJson(c, '{ "name": "Chairs" }');
    const id = (await theCollection(c)).id;
    const name = collectionName(body);
    const renamed = await deps.collections.rename(theOwner(c), id, name, deps.now());
    if (renamed === 'name_taken') throw nameTaken(name);
    if (!renamed) throw notFound();
    return c.json(view(c, renamed), 200, NO_STORE);
  });

  // The collection goes, with its link (its page answers 404 at once); its models stay.
  app.delete('/collections/:id', async (c) => {
    const id = c.req.param('id');
    if (!isCollectionId(id) || !(await deps.collections.remove(theOwner(c), id))) throw notFound();
    return c.body(null, 204);
  });

  // All or nothing: ids that are not the caller's library rows are named and nothing changes.
  app.post('/collections/:id/models', async (c) => {
    const body = await readJson(c, '{ "add": ["task_…"], "remove": ["task_…"] }');
    const id = (await theCollection(c)).id;
    const change = membersChange(body);
    const changed = await deps.collections.changeMembers(theOwner(c), id, change, deps.now());
    if (!changed) throw notFound();
    if ('unknown' in changed) {
      const field = changed.unknown.add.length > 0 ? 'add' : 'remove';
      const ids = changed.unknown[field];
      throw new ApiError(400, {
        code: ERROR_CODES.invalidValue,
        message: `${field} names ${ids.length === 1 ? 'a model that is' : `${ids.length} models that are`} not in your library: ${listed(ids)}. Nothing was changed.`,
        param: field,
      });
    }
    return c.json(view(c, changed), 200, NO_STORE);
  });

  // Every archived, shown model in it as one zip (download-zip.ts); the others are listed in
  // its README.txt.
  app.get('/collections/:id/download.zip', async (c) => {
    const collection = await theCollection(c);
    const members = await deps.collections.members(theOwner(c), collection.id);
    const usable: LibraryRow[] = [];
    const skipped: Skipped[] = [];
    for (const row of members) {
      const why = row.hidden ? 'hidden in your gallery' : unusable(row);
      if (why === null) usable.push(row);
      else skipped.push({ id: row.taskId, reason: why });
    }
    if (usable.length === 0)
      throw new ApiError(409, {
        code: ERROR_CODES.taskNotArchived,
        message:
          members.length === 0
            ? 'This collection is empty: add models to it before downloading it.'
            : 'No model in this collection is ready to download yet (finished, kept by Kiln, and shown in your gallery).',
        param: 'id',
      });
    return zipAnswer(
      c,
      deps,
      usable,
      skipped,
      collectionZipName(collection.name, new Date(deps.now())),
    );
  });

  // One link per collection: a second POST answers the link there is (200), the first makes it.
  app.post('/collections/:id/share', async (c) => {
    const collection = await theCollection(c);
    const fresh = newToken();
    const link = await deps.collections.share(theOwner(c), collection.id, fresh, deps.now());
    if (!link) throw notFound();
    const body = collectionShareView(baseOf(c, deps.publicUrl), link, collection.name);
    return c.json(body, link.token === fresh ? 201 : 200, NO_STORE);
  });

  app.get('/collections/:id/share', async (c) => {
    const collection = await theCollection(c);
    if (!collection.share) throw notShared();
    return c.json(
      collectionShareView(baseOf(c, deps.publicUrl), collection.share, collection.name),
      200,
      NO_STORE,
    );
  });

  // Revoked at once: the page, its facts and its files answer 404 from now on.
  app.delete('/collections/:id/share', async (c) => {
    const collection = await theCollection(c);
    if (!(await deps.collections.revokeShare(theOwner(c), collection.id))) throw notShared();
    return c.body(null, 204);
  });

  // Public, no key. A token not shaped like one is unknown without a database read.
  const resolve = (token: string) =>
    resolveLink(token, (t) => deps.collections.resolveShare(t), noSuchLink);

  app.get('/collection-shares/:token', async (c) => {
    const token = c.req.param('token');
    const shared = await resolve(token);
    return publicAnswer(c, publicCollectionView(baseOf(c, deps.publicUrl), token, shared));
  });

  const previews = previewServer(deps.blobs);
  // The link preview picture (og:image), made once per key like a model's (decision 0089): the
  // name, how many models the page shows and its first three pictures; a rename or a members
  // change makes a new one on the next request.
  app.get('/collection-shares/:token/preview.jpg', async (c) => {
    const token = c.req.param('token');
    const shared = await resolve(token);
    const { title, subtitle, pictureSha256s } = collectionPreview(shared);
    return previews.serve(c, {
      token,
      key: previewKey({ title, subtitle, pictureSha256: null, rowSha256s: pictureSha256s }),
      remembered: shared.preview,
      missing: noSuchLink,
      render: async () => {
        const row = await Promise.all(
          pictureSha256s.map((sha) => deps.blobs.get('thumbnails', sha, 'webp')),
        );
        return renderPreview({
          title,
          subtitle,
          picture: null,
          row: row.filter((bytes): bytes is Uint8Array => bytes !== undefined),
        });
      },
      remember: (preview) => deps.collections.setPreview(token, preview),
    });
  });

  /** The `{n}`th model a live link shows, or the link's 404. */
  const sharedModel = async (c: Context): Promise<SharedModel> => {
    const n = c.req.param('n') ?? '';
    return resolveLink(
      c.req.param('token') ?? '',
      async (token) =>
        /^\d{1,6}$/.test(n) ? deps.collections.sharedModel(token, Number(n)) : undefined,
      noSuchLink,
    );
  };

  const serveFile = linkFiles(deps.blobs, sharedModel, noSuchLink);
  app.get(
    '/collection-shares/:token/models/:n/model.glb',
    serveFile((m) => glbBlob(m.assetSha256)),
  );
  app.get(
    '/collection-shares/:token/models/:n/thumbnail.webp',
    serveFile((m) => (m.thumbnailSha256 ? thumbnailBlob(m.thumbnailSha256) : null)),
  );

  return app;
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
