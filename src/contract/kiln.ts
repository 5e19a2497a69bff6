import { z } from 'zod';
import { ErrorObjectSchema } from './errors.ts';

/**
 * Kiln's own API (not the upstream's): uploads, the library of generations,
 * credits. Shared by the server and the SPA.
 */

export const UploadResultSchema = z.object({
  url: z.string().min(1),
  sha256: z.string().regex(/^[a-f0-9]{64}$/),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  bytes: z.number().int().positive(),
});
export type UploadResult = z.infer<typeof UploadResultSchema>;

/** An input image of a library entry: the upload it came from when Kiln knows it. */
export const LibraryImageSchema = z.object({
  /** The URL sent upstream (data: URIs are shortened to their media type). */
  url: z.string(),
  /** `/api/uploads/{sha}.{ext}` when the image is a Kiln upload. */
  upload: z.string().nullable(),
  /** The file name the upload came with ("chair.png"), when known. */
  name: z.string().nullable().optional(),
});
export type LibraryImage = z.infer<typeof LibraryImageSchema>;

export const LibraryEntrySchema = z.object({
  id: z.string(),
  model: z.string(),
  mode: z.enum(['sync', 'async']),
  status: z.string(),
  progress: z.number(),
  progress_stage: z.string().nullable(),
  images: z.array(LibraryImageSchema),
  prompt: z.string().nullable(),
  /** Unix seconds, the upstream's `created`. */
  created: z.number(),
  completed_at: z.number().nullable(),
  /** Epoch ms of the last update Kiln saw. */
  updated_ms: z.number(),
  credits_consumed: z.number().nullable(),
  credits_remaining: z.number().nullable(),
  error: ErrorObjectSchema.nullable(),
  /** The archived copy (`/api/assets/{sha}.glb`) when there is one, else the upstream's URL. */
  model_url: z.string().nullable(),
  archived: z.boolean(),
  /**
   * A picture of the model itself (`/api/assets/{sha}.webp`), drawn by the first browser that
   * showed the archived model; null until then (the gallery shows the input instead).
   */
  thumbnail_url: z.string().nullable().optional(),
  /** Hidden from the gallery and the list (DELETE); still readable by its id. */
  hidden: z.boolean().optional(),
  /**
   * The owner's public link to the model (`POST /api/library/{id}/share`), when there is one:
   * the page's address and when it was made; null when the task is not shared.
   */
  share: z.object({ url: z.string(), created_ms: z.number() }).nullable().optional(),
  /**
   * Kiln's copy of the model: `archived`; `pending` (being fetched); `retrying` after a failed
   * download (`next_attempt_ms`); `failed` once Kiln gave up (the upstream's link may still work
   * until it expires); `none` before the task completes.
   */
  archive: z
    .object({
      state: z.enum(['none', 'pending', 'retrying', 'archived', 'failed']),
      attempts: z.number().int().nonnegative(),
      error: z.string().nullable(),
      next_attempt_ms: z.number().nullable(),
    })
    .optional(),
});
export type LibraryEntry = z.infer<typeof LibraryEntrySchema>;

export const LibraryPageSchema = z.object({
  object: z.literal('list'),
  data: z.array(LibraryEntrySchema),
  /** Pass as `?cursor=` for the next (older) page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type LibraryPage = z.infer<typeof LibraryPageSchema>;

export const BalancePointSchema = z.object({
  balance: z.number(),
  learned_ms: z.number(),
  task_id: z.string().nullable(),
});
export type BalancePoint = z.infer<typeof BalancePointSchema>;

export const CreditsSchema = z.object({
  /** The last balance an upstream response showed; null before any. */
  balance: z.number().nullable(),
  learned_ms: z.number().nullable(),
  /** Oldest first. */
  history: z.array(BalancePointSchema),
});
export type Credits = z.infer<typeof CreditsSchema>;

/** `PATCH /api/library/{id}`: hide a task or show it again. */
export const LibraryPatchSchema = z.strictObject({ hidden: z.boolean() });
export type LibraryPatch = z.infer<typeof LibraryPatchSchema>;
