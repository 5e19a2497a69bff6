import { z } from 'zod';
import { paramOf } from './create-request.ts';
import { ERROR_CODES, ERROR_TYPES, ErrorObjectSchema, type ErrorObject } from './errors.ts';

/**
 * Kiln's own API: optimising an archived model for a target (`POST /api/library/{id}/optimise`,
 * `GET /api/optimise/{job_id}`). A request names a preset and, where the preset leaves it open,
 * its options; `resolveOptimisePlan` turns it into the plan the server carries out.
 */

export const TEXTURE_SIZES = [256, 512, 1024, 2048, 4096] as const;
export type TextureSize = (typeof TEXTURE_SIZES)[number];
/** `keep` leaves each texture in its format; `ktx2` is Basis Universal (KHR_texture_basisu). */
export const TEXTURE_FORMATS = ['keep', 'webp', 'png', 'jpeg', 'ktx2'] as const;
export type TextureFormat = (typeof TEXTURE_FORMATS)[number];
export const GEOMETRY_COMPRESSIONS = ['none', 'draco', 'meshopt'] as const;
export type GeometryCompression = (typeof GEOMETRY_COMPRESSIONS)[number];
/** Where the model's origin ends up: as it was, at the bottom centre of its box, or its centre. */
export const PIVOTS = ['keep', 'bottom', 'center'] as const;
export type Pivot = (typeof PIVOTS)[number];
export const OPTIMISE_PRESETS = ['web', 'game', 'print', 'custom'] as const;
export type OptimisePreset = (typeof OPTIMISE_PRESETS)[number];

export const OPTIMISE_LIMITS = {
  triangles: { min: 100, max: 2_000_000 },
  /** A printed model's height. */
  heightMm: { min: 1, max: 5_000 },
  /** A model's real height (custom). */
  heightM: { min: 0.001, max: 1_000 },
} as const;

/** What "Web / AR" means (the issue's numbers). */
export const WEB_PRESET = {
  triangles: 50_000,
  texture_size: 1024,
  texture_format: 'webp',
  compression: 'meshopt',
  pivot: 'bottom',
} as const;
/** "Game engine" defaults (the user may change both numbers). */
export const GAME_DEFAULTS = { triangles: 20_000, texture_size: 2048 } as const;
/** "3D print" default height. */
export const PRINT_DEFAULT_HEIGHT_MM = 100;

const count = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number.` })
    .int({ error: `${field} must be a whole number.` })
    .min(min, { error: `${field} must be at least ${min.toLocaleString('en')}.` })
    .max(max, { error: `${field} must be at most ${max.toLocaleString('en')}.` });

const measure = (field: string, unit: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a number of ${unit}.` })
    .refine(Number.isFinite, { error: `${field} must be a finite number of ${unit}.` })
    .refine((v) => v >= min && v <= max, {
      error: `${field} must be from ${min} to ${max.toLocaleString('en')} ${unit}.`,
    });

const oneOf = <const T extends readonly string[]>(field: string, values: T) =>
  z.enum(values, { error: `${field} must be one of ${values.join(', ')}.` });

const triangles = count('triangles', OPTIMISE_LIMITS.triangles.min, OPTIMISE_LIMITS.triangles.max);
const textureSize = z.union(
  TEXTURE_SIZES.map((s) => z.literal(s)),
  { error: `texture_size must be one of ${TEXTURE_SIZES.join(', ')} (pixels).` },
);

const WebRequestSchema = z.strictObject({ preset: z.literal('web') });
const GameRequestSchema = z.strictObject({
  preset: z.literal('game'),
  triangles: triangles.default(GAME_DEFAULTS.triangles),
  texture_size: textureSize.default(GAME_DEFAULTS.texture_size),
});
/** A printed model's height: 3D print's `height_mm`, and the viewer's STL for slicers. */
export const PrintHeightMmSchema = measure(
  'height_mm',
  'millimetres',
  OPTIMISE_LIMITS.heightMm.min,
  OPTIMISE_LIMITS.heightMm.max,
);

const PrintRequestSchema = z.strictObject({
  preset: z.literal('print'),
  height_mm: PrintHeightMmSchema,
  /** A triangle budget for the printed mesh (none: as many as the model has). */
  triangles: triangles.nullable().optional(),
});
const CustomRequestSchema = z.strictObject({
  preset: z.literal('custom'),
  /** Simplify to at most this many triangles (none: keep them all). */
  triangles: triangles.nullable().optional(),
  /** Resize textures to fit within this many pixels a side (none: keep their size). */
  texture_size: textureSize.nullable().optional(),
  texture_format: oneOf('texture_format', TEXTURE_FORMATS).default('keep'),
  compression: oneOf('compression', GEOMETRY_COMPRESSIONS).default('none'),
  pivot: oneOf('pivot', PIVOTS).default('keep'),
  /** Scale the model so that it is this many metres tall (none: keep its size). */
  height_m: measure('height_m', 'metres', OPTIMISE_LIMITS.heightM.min, OPTIMISE_LIMITS.heightM.max)
    .nullable()
    .optional(),
});

/** The body of `POST /api/library/{id}/optimise`. Unknown fields are refused, by name. */
export const OptimiseRequestSchema = z.discriminatedUnion(
  'preset',
  [WebRequestSchema, GameRequestSchema, PrintRequestSchema, CustomRequestSchema],
  { error: `preset must be one of ${OPTIMISE_PRESETS.join(', ')}.` },
);
export type OptimiseRequest = z.infer<typeof OptimiseRequestSchema>;
export type OptimiseRequestInput = z.input<typeof OptimiseRequestSchema>;

/** What the server does, every option settled. */
export const OptimisePlanSchema = z.object({
  preset: z.enum(OPTIMISE_PRESETS),
  /** `stl`: binary STL in millimetres, Z up, watertight (3D print); else a GLB. */
  output: z.enum(['glb', 'stl']),
  triangles: z.number().int().nullable(),
  texture_size: z.number().int().nullable(),
  texture_format: z.enum(TEXTURE_FORMATS),
  compression: z.enum(GEOMETRY_COMPRESSIONS),
  pivot: z.enum(PIVOTS),
  /** The model's height after scaling, in metres; null keeps its size. */
  height_m: z.number().nullable(),
});
export type OptimisePlan = z.infer<typeof OptimisePlanSchema>;

export function resolveOptimisePlan(request: OptimiseRequest): OptimisePlan {
  switch (request.preset) {
    case 'web':
      return { preset: 'web', output: 'glb', height_m: null, ...WEB_PRESET };
    case 'game':
      return {
        preset: 'game',
        output: 'glb',
        triangles: request.triangles,
        texture_size: request.texture_size,
        texture_format: 'keep',
        compression: 'none',
        pivot: 'bottom',
        height_m: null,
      };
    case 'print':
      return {
        preset: 'print',
        output: 'stl',
        triangles: request.triangles ?? null,
        texture_size: null,
        texture_format: 'keep',
        compression: 'none',
        pivot: 'bottom',
        height_m: request.height_mm / 1000,
      };
    case 'custom':
      return {
        preset: 'custom',
        output: 'glb',
        triangles: request.triangles ?? null,
        texture_size: request.texture_size ?? null,
        texture_format: request.texture_format,
        compression: request.compression,
        pivot: request.pivot,
        height_m: request.height_m ?? null,
      };
  }
}

/** The plan of a request given as typed (defaults filled in); throws when it is invalid. */
export function optimisePlanOf(request: OptimiseRequestInput): OptimisePlan {
  return resolveOptimisePlan(OptimiseRequestSchema.parse(request));
}

export type ParsedOptimise =
  { ok: true; value: OptimiseRequest; plan: OptimisePlan } | { ok: false; error: ErrorObject };

/** Validates a request body; on failure, the spec-shaped error naming the field. */
export function parseOptimiseRequest(body: unknown): ParsedOptimise {
  const result = OptimiseRequestSchema.safeParse(body, { reportInput: true });
  if (result.success)
    return { ok: true, value: result.data, plan: resolveOptimisePlan(result.data) };
  const issue = result.error.issues[0];
  const invalid = (message: string, param?: string, code: string = ERROR_CODES.invalidValue) => ({
    ok: false as const,
    error: {
      message,
      type: ERROR_TYPES.invalidRequest,
      code,
      ...(param ? { param } : {}),
    },
  });
  if (!issue || typeof body !== 'object' || body === null || Array.isArray(body))
    return invalid('The body must be a JSON object such as { "preset": "web" }.');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const preset = (body as { preset?: unknown }).preset;
    return invalid(`${key} is not an option of the ${String(preset)} preset.`, key);
  }
  const param = paramOf(issue.path);
  if (issue.code === 'invalid_type' && issue.input === undefined)
    return invalid(`${param} is required.`, param, ERROR_CODES.missingField);
  return invalid(issue.message, param);
}

/** Facts about a model file, before and after. */
export const OptimiseFactsSchema = z.object({
  triangles: z.number().int().nonnegative(),
  vertices: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  textures: z.array(
    z.object({
      width: z.number().int().nonnegative(),
      height: z.number().int().nonnegative(),
      mime_type: z.string(),
    }),
  ),
  /** The bounding box's size, x · y · z, in metres (y is up). */
  size_m: z.tuple([z.number(), z.number(), z.number()]),
  /** The glTF extensions the file uses (none for STL). */
  extensions: z.array(z.string()),
});
export type OptimiseFacts = z.infer<typeof OptimiseFactsSchema>;

export const OptimiseResultSchema = z.object({
  format: z.enum(['glb', 'stl']),
  /** The file to download (`/api/optimise/files/{sha256}.glb|stl`, content-addressed). */
  url: z.string(),
  /** A GLB of the result for the viewer: the file itself, or (STL) the printed mesh as a GLB. */
  preview_url: z.string(),
  sha256: z.string().regex(/^[a-f0-9]{64}$/),
  bytes: z.number().int().nonnegative(),
  before: OptimiseFactsSchema,
  after: OptimiseFactsSchema,
  /** STL: every edge is shared by exactly two triangles (holes were closed if there were any). */
  watertight: z.boolean().nullable(),
  /** What did not go as asked, in words ("2 textures stayed PNG: they have transparency"). */
  notes: z.array(z.string()),
});
export type OptimiseResult = z.infer<typeof OptimiseResultSchema>;

export const OPTIMISE_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type OptimiseStatus = (typeof OPTIMISE_STATUSES)[number];

/** `GET /api/optimise/{job_id}`. */
export const OptimiseJobSchema = z.object({
  object: z.literal('optimise_job'),
  id: z.string(),
  task_id: z.string(),
  status: z.enum(OPTIMISE_STATUSES),
  /** 0–100. */
  progress: z.number().min(0).max(100),
  /** What is being done, in words ("Simplifying to 50,000 triangles"). */
  stage: z.string(),
  plan: OptimisePlanSchema,
  created_ms: z.number(),
  finished_ms: z.number().nullable(),
  result: OptimiseResultSchema.nullable(),
  /** Why it failed. */
  error: ErrorObjectSchema.nullable(),
});
export type OptimiseJob = z.infer<typeof OptimiseJobSchema>;

/** `POST /api/library/{id}/optimise` answers 202 with the job's id. */
export const OptimiseStartSchema = z.object({ job_id: z.string() });
export type OptimiseStart = z.infer<typeof OptimiseStartSchema>;
