import { z } from 'zod';
import { ErrorObjectSchema } from './errors.ts';
import { ProviderCostSchema } from './providers.ts';

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

/** Kiln's own stores an archive can wait on (`archive.outage`). */
export const ARCHIVE_OUTAGES = ['file_store', 'database'] as const;
export type ArchiveOutage = (typeof ARCHIVE_OUTAGES)[number];

export const LibraryEntrySchema = z.object({
  id: z.string(),
  model: z.string(),
  mode: z.enum(['sync', 'async']),
  status: z.string(),
  progress: z.number(),
  progress_stage: z.string().nullable(),
  images: z.array(LibraryImageSchema),
  prompt: z.string().nullable(),
  /**
   * The model's own name, given by its owner (`PATCH {"name": "…"}`, decision 0085); null (or
   * absent, from an older server) when it has none: the prompt or the photo's name stands in.
   */
  name: z.string().nullable().optional(),
  /** Unix seconds, the upstream's `created`. */
  created: z.number(),
  completed_at: z.number().nullable(),
  /** Epoch ms of the last update Kiln saw. */
  updated_ms: z.number(),
  credits_consumed: z.number().nullable(),
  credits_remaining: z.number().nullable(),
  /**
   * A vendor's task's cost in its own unit, as the vendor's answer stated it (decision 0116);
   * absent for the spec's tasks (their `credits_consumed` says it) and before a vendor states it.
   */
  cost: ProviderCostSchema.nullable().optional(),
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
  /** Starred by its owner (`PATCH {"favourite": true}`); the gallery can show only these. */
  favourite: z.boolean().optional(),
  /**
   * The owner's public link to the model (`POST /api/library/{id}/share`), when there is one:
   * the page's address and when it was made; null when the task is not shared.
   */
  share: z.object({ url: z.string(), created_ms: z.number() }).nullable().optional(),
  /** The ids of the owner's collections the model sits in (decision 0087); absent from older servers. */
  collections: z.array(z.string()).optional(),
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
      /**
       * Present while the copy waits on one of Kiln's own stores that could not be reached at the
       * last try (`file_store`: the bucket or the blob directory; `database`): no fault of the
       * model, not counted in `attempts`, tried again by itself at `next_attempt_ms`; `error`
       * says it in a sentence (decision 0095).
       */
      outage: z.enum(ARCHIVE_OUTAGES).optional(),
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

/**
 * What moved the balance: a task's `charge`, a failed task's `refund`, a figure the upstream
 * `stated` (where the history starts), or a `correction` (the upstream's figure differed from
 * Kiln's ledger; never money that came in: it carries both figures and its cause).
 */
export const BALANCE_POINT_KINDS = ['charge', 'refund', 'stated', 'correction'] as const;

/**
 * Why a correction was needed (decision 0091): credits moved `outside` Kiln (a top-up, the key
 * used in another app), charges `overlap`ped in time so Kiln's order was a guess, or a create
 * recorded through a `recovery` path (answered again after a restart) was placed by a guess.
 */
export const CORRECTION_CAUSES = ['outside', 'overlap', 'recovery'] as const;
export type CorrectionCause = (typeof CORRECTION_CAUSES)[number];

export const BalancePointSchema = z.object({
  balance: z.number(),
  learned_ms: z.number(),
  task_id: z.string().nullable(),
  kind: z.enum(BALANCE_POINT_KINDS).optional(),
  /** What the event changed (−price, +refund, or the correction); null when not known. */
  change: z.number().nullable().optional(),
  /** A correction's figures: Kiln's ledger before it, what the upstream stated, and why. */
  correction: z
    .object({ ledger: z.number(), stated: z.number(), cause: z.enum(CORRECTION_CAUSES) })
    .optional(),
});
export type BalancePoint = z.infer<typeof BalancePointSchema>;

/**
 * `GET /api/credits`: the balance derived from what the upstream stated and every charge and
 * refund since (decision 0076), true as of `as_of_ms` as far as Kiln saw (decision 0100).
 */
export const CreditsSchema = z.object({
  /** The balance; null before the upstream (or, in mock mode, the built-in mock) has stated any. */
  balance: z.number().nullable(),
  /** When the upstream stated the figure the balance is derived from. */
  learned_ms: z.number().nullable(),
  /**
   * The moment the balance is true as of: the later of `learned_ms` and the last charge or
   * refund Kiln saw after it. Credits spent outside Kiln since `learned_ms` are not in it.
   */
  as_of_ms: z.number().nullable().optional(),
  /**
   * True when every charge and refund that went through Kiln since `learned_ms` is known
   * exactly. It says nothing of spending outside Kiln (another app with the same key), which
   * Kiln cannot see until the upstream states a figure again.
   */
  exact: z.boolean().optional(),
  /** Why the balance is not exact, in a sentence. */
  note: z.string().nullable().optional(),
  /** Oldest first. */
  history: z.array(BalancePointSchema),
});
export type Credits = z.infer<typeof CreditsSchema>;

/**
 * `PATCH /api/library/{id}`: hide a task or show it again, star it or unstar it, name it or
 * rename it (`name`: text, checked by `checkModelName`; null or "" clears it).
 */
export const LibraryPatchSchema = z
  .strictObject({
    hidden: z.boolean().optional(),
    favourite: z.boolean().optional(),
    name: z.string().nullable().optional(),
  })
  .refine((p) => p.hidden !== undefined || p.favourite !== undefined || p.name !== undefined, {
    message: 'Send hidden or favourite (true or false), or name.',
  });
export type LibraryPatch = z.infer<typeof LibraryPatchSchema>;

/** `GET /api/library` query values: what the gallery filters and sorts by. */
export const LIBRARY_SORTS = ['newest', 'oldest', 'credits'] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];
/** What a task was made from: one photo, 2–4 views, or a prompt. */
export const LIBRARY_KINDS = ['photo', 'views', 'prompt'] as const;
export type LibraryKind = (typeof LIBRARY_KINDS)[number];
/** `pending` is every status that is not an end (queued, in progress). */
export const LIBRARY_STATUSES = ['completed', 'failed', 'pending'] as const;
export type LibraryStatusFilter = (typeof LIBRARY_STATUSES)[number];

/** `POST /api/library/bulk`: one action on up to 100 of the caller's tasks. */
export const LIBRARY_BULK_MAX = 100;
export const LIBRARY_BULK_ACTIONS = ['hide', 'unhide', 'favourite', 'unfavourite'] as const;
export const LibraryBulkSchema = z.strictObject({
  ids: z.array(z.string().min(1).max(200)).min(1).max(LIBRARY_BULK_MAX),
  action: z.enum(LIBRARY_BULK_ACTIONS),
});
export type LibraryBulk = z.infer<typeof LibraryBulkSchema>;
export const LibraryBulkResultSchema = z.object({
  object: z.literal('bulk_result'),
  action: z.enum(LIBRARY_BULK_ACTIONS),
  /** The caller's tasks the action was applied to (already in that state counts). */
  updated: z.array(z.string()),
  /** Ids the caller has no task for (another key's tasks are not found either). */
  not_found: z.array(z.string()),
});
export type LibraryBulkResult = z.infer<typeof LibraryBulkResultSchema>;
