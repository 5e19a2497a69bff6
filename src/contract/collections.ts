import { z } from 'zod';
import { PUBLIC_MODEL_FACTS, SHARE_TOKEN } from './share.ts';

/**
 * Collections (decision 0087): an owner's named groups of library models. A model may sit in
 * several; removing it from a collection, or deleting the collection, never touches the model.
 *
 * - `GET /api/collections` → {@link CollectionListSchema} (the owner's, by name)
 * - `POST /api/collections` `{ name }` → 201 {@link CollectionSchema}
 * - `GET|PATCH|DELETE /api/collections/{id}` (`PATCH { name }`)
 * - `POST /api/collections/{id}/models` {@link CollectionMembersPatchSchema} → the collection
 * - `GET /api/library?collection={id}`: the gallery, filtered to one collection
 * - `GET /api/collections/{id}/download.zip`: every archived model in it, as one zip
 * - `POST|GET|DELETE /api/collections/{id}/share`: a public, revocable page (`/c/{token}`)
 * - `GET /api/collection-shares/{token}` → {@link PublicCollectionSchema}, without a key; each
 *   model's GLB and picture under `/api/collection-shares/{token}/models/{n}/…`, and the link
 *   preview picture (og:image, a 1200 × 630 JPEG) at `/api/collection-shares/{token}/preview.jpg`
 *
 * Names follow the model-name rule (`checkModelName`, 1–120 characters, trimmed), and are unique
 * per owner regardless of case (409 `collection_name_taken`, param `name`).
 */

/** `col_` and 20 base64url characters. */
export const COLLECTION_ID = /^col_[A-Za-z0-9_-]{20}$/;

/** How many models one `POST …/models` may add or remove at once. */
export const COLLECTION_MEMBERS_MAX = 200;

export const CollectionSchema = z.object({
  object: z.literal('collection'),
  id: z.string().regex(COLLECTION_ID),
  name: z.string(),
  /** How many models are in it (hidden ones included). */
  count: z.number().int().nonnegative(),
  /** A picture for the collection: the newest member's thumbnail, when it has one. */
  cover_url: z.string().nullable(),
  /** Epoch ms. */
  created_ms: z.number(),
  updated_ms: z.number(),
  /** The public link to it, when it is shared. */
  share: z
    .object({
      url: z.string(),
      created_ms: z.number(),
      /**
       * A ready `<iframe>` snippet of the page's frameable variant (`…/c/{token}/embed`), titled
       * with the collection's name (HTML-escaped), as its share answer's `embed_html`. Absent
       * from older servers.
       */
      embed_html: z.string().optional(),
    })
    .nullable(),
});
export type Collection = z.infer<typeof CollectionSchema>;

export const CollectionListSchema = z.object({
  object: z.literal('list'),
  data: z.array(CollectionSchema),
});
export type CollectionList = z.infer<typeof CollectionListSchema>;

/** `POST /api/collections` and `PATCH /api/collections/{id}`. */
export const CollectionNameBodySchema = z.strictObject({ name: z.string() });
export type CollectionNameBody = z.infer<typeof CollectionNameBodySchema>;

/** `POST /api/collections/{id}/models`: library ids to add and to remove (either may be empty). */
export const CollectionMembersPatchSchema = z
  .strictObject({
    add: z.array(z.string()).max(COLLECTION_MEMBERS_MAX).optional(),
    remove: z.array(z.string()).max(COLLECTION_MEMBERS_MAX).optional(),
  })
  .refine((p) => (p.add?.length ?? 0) + (p.remove?.length ?? 0) > 0, {
    message: 'Send add or remove: a list of library ids.',
  });
export type CollectionMembersPatch = z.infer<typeof CollectionMembersPatchSchema>;

/** One model on a shared collection's page: public facts only, no task id. */
export const PublicCollectionModelSchema = z.object({
  /** Its place in the collection (0 = newest), the `{n}` of its URLs. */
  index: z.number().int().nonnegative(),
  ...PUBLIC_MODEL_FACTS,
  /** The model's own name, given by its owner; null when it has none. */
  name: z.string().nullable(),
});
export type PublicCollectionModel = z.infer<typeof PublicCollectionModelSchema>;

/** What `/c/{token}` shows anyone: the collection's name and its archived models. */
export const PublicCollectionSchema = z.object({
  object: z.literal('shared_collection'),
  token: z.string().regex(SHARE_TOKEN),
  name: z.string(),
  /** The public page, absolute. */
  url: z.string(),
  /** Newest first; models without an archived GLB are left out. */
  models: z.array(PublicCollectionModelSchema),
});
export type PublicCollection = z.infer<typeof PublicCollectionSchema>;
