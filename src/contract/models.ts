import { z } from 'zod';

/** The six public model aliases of the spec (section 2.2). */
export const MODEL_ALIASES = [
  'alpha',
  'alpha-multiview',
  'beta',
  'beta-multiview',
  'gamma',
  'beta-text',
] as const;

export const ModelAliasSchema = z.enum(MODEL_ALIASES);
export type ModelAlias = z.infer<typeof ModelAliasSchema>;

/** What a model takes as input: one image, 2–4 views, or a text prompt. */
export const INPUT_KINDS = ['image', 'multiview', 'text'] as const;
export const InputKindSchema = z.enum(INPUT_KINDS);
export type InputKind = z.infer<typeof InputKindSchema>;

export const MODEL_INPUT: Readonly<Record<ModelAlias, InputKind>> = {
  alpha: 'image',
  'alpha-multiview': 'multiview',
  beta: 'image',
  'beta-multiview': 'multiview',
  gamma: 'image',
  'beta-text': 'text',
};

export function isModelAlias(value: unknown): value is ModelAlias {
  return typeof value === 'string' && (MODEL_ALIASES as readonly string[]).includes(value);
}

/** Limits of the spec (section 8). */
export const LIMITS = {
  minImages: 2,
  maxImages: 4,
  maxPromptLength: 2000,
  /** The longest a sync create blocks (55 s): the mock's wait, and Kiln's own for a sync create. */
  syncWaitMs: 55_000,
  pollMinMs: 2000,
  pollMaxMs: 5000,
} as const;

/**
 * One model record of the listing. The spec does not show its fields; Kiln's
 * mock answers `{ id, object: "model", input, credits_per_task, description }`
 * (DESIGN.md) and the schema tolerates anything else a real upstream adds.
 */
export const ModelRecordSchema = z
  .object({
    id: z.string().min(1),
    object: z.string().nullish(),
    /** An input kind Kiln does not know reads as absent rather than failing the listing. */
    input: InputKindSchema.nullish().catch(undefined),
    credits_per_task: z.number().int().nonnegative().nullish().catch(undefined),
    description: z.string().nullish(),
  })
  .loose();
export type ModelRecord = z.infer<typeof ModelRecordSchema>;

export const ModelListSchema = z
  .object({
    object: z.string().optional(),
    data: z.array(ModelRecordSchema),
  })
  .loose();
export type ModelList = z.infer<typeof ModelListSchema>;

/** The listing used when the upstream's listing fails or has another shape. */
export const FALLBACK_MODELS: ModelList = {
  object: 'list',
  data: MODEL_ALIASES.map((id) => ({ id, object: 'model', input: MODEL_INPUT[id] })),
};
