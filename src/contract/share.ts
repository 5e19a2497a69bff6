import { z } from 'zod';

/**
 * Public links to a model (Kiln's own API): `POST /api/library/{id}/share` makes one (or answers
 * the one there is), `GET` reads it, `DELETE` revokes it; `GET /api/shares/{token}` is what
 * anyone with the link sees, without a key.
 */

/** A share token: 144 random bits in base64url (24 characters). */
export const SHARE_TOKEN = /^[A-Za-z0-9_-]{24}$/;

/** The owner's view of a link: what to copy. */
export const ShareSchema = z.object({
  object: z.literal('share'),
  token: z.string().regex(SHARE_TOKEN),
  /** The public page, absolute (`https://kiln.example/s/{token}`). */
  url: z.string().url(),
  /** The page without Kiln's chrome, for an `<iframe>` (`…/s/{token}/embed`). */
  embed_url: z.string().url(),
  /** A ready `<iframe>` snippet of `embed_url`. */
  embed_html: z.string(),
  /** Epoch ms. */
  created_ms: z.number(),
  /**
   * The link's USDZ for AR Quick Look (`/api/shares/{token}/model.usdz`), once the owner's
   * browser has made and uploaded it (`PUT /api/library/{id}/share/model.usdz`); null until then.
   * Absent from older servers.
   */
  usdz_url: z.string().nullable().optional(),
});
export type Share = z.infer<typeof ShareSchema>;

/**
 * The public facts of a shared model, alike on a model's link ({@link PublicShareSchema}) and
 * on a collection's page (`PublicCollectionModelSchema`). Never the owner, the key, the task's
 * id, or the photos' names and addresses. Its files are same-origin addresses of the link.
 */
export const PUBLIC_MODEL_FACTS = {
  /**
   * A title for the page, by the one rule (`modelTitle`): the model's own name, else the prompt
   * in quotes, else "A 3D model from a photo, made with beta on 25 Nov 2026".
   */
  title: z.string(),
  /** The generation model (`beta`, `gamma-text`, …). */
  model: z.string(),
  /** What it was made from. */
  input: z.enum(['prompt', 'photo', 'photos']),
  prompt: z.string().nullable(),
  /** Unix seconds. */
  created: z.number(),
  /** The GLB (`/api/shares/{token}/model.glb`, `…/models/{n}/model.glb` of a collection). */
  model_url: z.string(),
  /** A picture of the model (`…/thumbnail.webp`), when one was drawn. */
  thumbnail_url: z.string().nullable(),
};

/** What a link shows anyone: the model and public facts about it. */
export const PublicShareSchema = z.object({
  object: z.literal('shared_model'),
  ...PUBLIC_MODEL_FACTS,
  /** The model's own name, given by its owner (decision 0085); null when it has none. */
  name: z.string().nullable().optional(),
  /**
   * The model as USDZ for AR Quick Look on iPhone and iPad (`/api/shares/{token}/model.usdz`),
   * when the owner's browser has made one; null until then. Absent from older servers.
   */
  usdz_url: z.string().nullable().optional(),
  /** The public page, absolute. */
  url: z.string(),
});
export type PublicShare = z.infer<typeof PublicShareSchema>;

/**
 * `GET /api/shares/{token}/mine`, with the owner's key: the link is theirs (the share page then
 * offers the owner what a visitor does not get, such as the turntable). Anyone else gets a 404.
 */
export const ShareOwnershipSchema = z.object({
  object: z.literal('share_ownership'),
  task_id: z.string(),
});
export type ShareOwnership = z.infer<typeof ShareOwnershipSchema>;
