import { z } from 'zod';

/** Kiln's four named sides of a multi-view input, in the order the views are sent. */
export const VIEW_SIDES = ['front', 'right', 'back', 'left'] as const;

/**
 * The mock's `GET /v1/mock/cutout?image_url=…` (not in the spec; mock mode only): what the demo
 * generator will model of a photo, decided as every tier decides it, so that a studio can show the
 * cut-out on the form and refuse a photo with no object before anything is charged.
 */
export const CutoutCheckSchema = z.object({
  object: z.literal('mock.cutout'),
  /** False when no tier can model the photo: a create would fail (and be refunded). */
  usable: z.boolean(),
  /** One sentence for a person: what will be modelled, or why the photo cannot be. */
  message: z.string(),
  /** A caution to read before paying (the object may not separate cleanly), or null. */
  warning: z.string().nullable(),
  /** Why the photo cannot be modelled, as a failed task's error says it; null when usable. */
  reason: z.enum(['not_an_image', 'no_subject']).nullable(),
  /**
   * The cut-out to lay over the photo (a PNG `data:` URI, the photo's aspect): clear where the
   * object is kept, dark over the backdrop, red over what stood out but is left out. Null when
   * the photo cannot be modelled.
   */
  overlay: z.string().nullable(),
  /** The share of the photo kept as the object (0..1), or null. */
  kept_share: z.number().min(0).max(1).nullable(),
  /** A plain surface behind the object (a disc, a board, a wall panel) is left out. */
  panel_dropped: z.boolean(),
  /** The outline is mostly one plain surface that may be backdrop; it is kept. */
  panel_suspected: z.boolean(),
  /** Other things apart from the object that are left out. */
  parts_dropped: z.number().int().min(0),
});
export type CutoutCheck = z.infer<typeof CutoutCheckSchema>;

/**
 * The mock's `GET /v1/mock/views-check?image_url=…&image_url=…` (2–4, in the order front,
 * right, back, left; mock mode only): whether the photos show one object, compared by colours and
 * by opposite views' mirrored outlines, before a multi-view task is charged.
 */
export const ViewsCheckSchema = z.object({
  object: z.literal('mock.views_check'),
  /** False when the views seem to show different objects (or one cannot be modelled). */
  agree: z.boolean(),
  /** One sentence for a person, before the task is made. */
  message: z.string(),
  /** The same about a model made from these views ("The views did not show one object: …"). */
  made_message: z.string(),
  views: z.array(
    z.object({
      side: z.enum(VIEW_SIDES),
      usable: z.boolean(),
      /** Why this view cannot be modelled, or null. */
      problem: z.string().nullable(),
    }),
  ),
  /** Pairs of views (0-based) that say they are not of one object, and what differs. */
  disagreeing: z.array(
    z.object({
      a: z.number().int().min(0),
      b: z.number().int().min(0),
      differs: z.array(z.enum(['colours', 'outline'])),
    }),
  ),
});
export type ViewsCheck = z.infer<typeof ViewsCheckSchema>;
