// Collections (decision 0087): ids, addresses, and what the owner and anyone with a link see.
// Pure functions over what the collection store gives; the routes (routes.ts) do the HTTP.
import { randomBytes } from 'node:crypto';
import {
  COLLECTION_ID,
  neutraliseBidi,
  type Collection,
  type PublicCollection,
  type PublicCollectionModel,
  type Share,
} from '../../contract/index.ts';
import { isoDay, slugify } from '../../formats/index.ts';
import { PREVIEW_ROW_MAX } from '../share/preview.ts';
import { linkView, publicModelFacts } from '../share/service.ts';
import type {
  CollectionRow,
  CollectionShareRow,
  SharedCollection,
} from '../storage/collections.ts';
import type { SharedModel } from '../storage/shares.ts';

/** A new collection's id: `col_` and 120 random bits in base64url (20 characters). */
export function newCollectionId(): string {
  return `col_${randomBytes(15).toString('base64url')}`;
}

/** True for a string shaped like a collection id (anything else is unknown without a read). */
export const isCollectionId = (id: string) => COLLECTION_ID.test(id);

/** Where a collection link's page and its frameable variant are, under `base` (an origin). */
export function collectionUrls(base: string, token: string) {
  const page = `${base}/c/${token}`;
  return { page, embed: `${page}/embed` };
}

/** Where the `n`th model of a shared collection is served (same origin, relative). */
function sharedCollectionFiles(token: string, n: number) {
  const at = `/api/collection-shares/${token}/models/${n}`;
  return { model: `${at}/model.glb`, thumbnail: `${at}/thumbnail.webp` };
}

/** Where a shared collection's link preview picture (og:image) is served (same origin, relative). */
export const collectionPreviewPath = (token: string) =>
  `/api/collection-shares/${token}/preview.jpg`;

/** A shared collection's link as its owner's view of the collection says it: what to copy. */
const sharedAs = ({ url, created_ms, embed_html }: Share): Collection['share'] => ({
  url,
  created_ms,
  embed_html,
});

/** The owner's view of a collection; `sign` makes the cover's address (a signed asset path). */
export function collectionView(
  base: string,
  row: CollectionRow,
  sign: (path: string) => string,
): Collection {
  return {
    object: 'collection',
    id: row.id,
    name: row.name,
    count: row.count,
    cover_url: row.coverSha256 ? sign(`/api/assets/${row.coverSha256}.webp`) : null,
    created_ms: row.createdMs,
    updated_ms: row.updatedMs,
    share: row.share && sharedAs(collectionShareView(base, row.share, row.name)),
  };
}

/** The owner's view of a collection's link: what to copy. */
export function collectionShareView(base: string, link: CollectionShareRow, name: string): Share {
  return linkView(collectionUrls(base, link.token), link, neutraliseBidi(name), 'collection');
}

function publicModel(token: string, index: number, model: SharedModel): PublicCollectionModel {
  return { index, ...publicModelFacts(model, sharedCollectionFiles(token, index)) };
}

/** What anyone with the link sees: public facts only (no owner, key or task id). */
export function publicCollectionView(
  base: string,
  token: string,
  shared: SharedCollection,
): PublicCollection {
  return {
    object: 'shared_collection',
    token,
    name: neutraliseBidi(shared.name).trim(),
    url: collectionUrls(base, token).page,
    models: shared.models.map((m, i) => publicModel(token, i, m)),
  };
}

/** One sentence for link previews (og:description). */
export function collectionDescription(shared: SharedCollection): string {
  const n = shared.models.length;
  return n === 0
    ? 'A collection of 3D models made with Kiln (empty for now).'
    : `${n} 3D model${n === 1 ? '' : 's'} made with Kiln. Pick one and turn it around in your browser.`;
}

/**
 * What a shared collection's link preview picture shows: its name, how many models its page
 * shows, and the pictures of its first three (newest first) that a browser has drawn.
 */
export function collectionPreview(shared: SharedCollection): {
  title: string;
  subtitle: string;
  pictureSha256s: string[];
} {
  const n = shared.models.length;
  return {
    title: neutraliseBidi(shared.name).trim(),
    subtitle:
      n === 0
        ? 'A collection of 3D models, made with Kiln (empty for now)'
        : `A collection of ${n === 1 ? 'one 3D model' : `${n} 3D models`}, made with Kiln`,
    pictureSha256s: shared.models
      .map((m) => m.thumbnailSha256)
      .filter((sha): sha is string => sha !== null)
      .slice(0, PREVIEW_ROW_MAX),
  };
}

/** A collection's zip: `kiln-{name as a slug}-{yyyy-mm-dd}.zip` (`kiln-collection-…` without one). */
export function collectionZipName(name: string, now: Date): string {
  return `kiln-${slugify(name) || 'collection'}-${isoDay(now)}.zip`;
}
