// fal's responses at Kiln's boundary, as fal documents them (docs.fal.ai's queue page, the
// @fal-ai/client types in libs/client/src/types/common.ts, fal_client's Completed status, the
// Platform API's account billing). Lenient where fal is (extra fields pass, `logs` may be null).
import { z } from 'zod';

/** POST queue.fal.run/{model id}: the request's id and where to ask about it. */
export const SubmitSchema = z.object({
  request_id: z.string().min(1),
  response_url: z.string().optional(),
  status_url: z.string().optional(),
  cancel_url: z.string().optional(),
  queue_position: z.number().int().nullish(),
});

const LogSchema = z.object({
  message: z.string(),
  level: z.string().optional(),
  source: z.string().optional(),
  timestamp: z.string().optional(),
});

/**
 * GET …/requests/{id}/status?logs=1. `status` is IN_QUEUE, IN_PROGRESS or COMPLETED; a
 * COMPLETED request that failed carries `error` and `error_type` (fal_client's `Completed`).
 * Any other status is kept as a string, so the adapter can say it failed rather than crash.
 */
export const StatusSchema = z.object({
  status: z.string(),
  queue_position: z.number().int().nullish(),
  logs: z.array(LogSchema).nullish(),
  metrics: z.object({ inference_time: z.number().nullish() }).passthrough().nullish(),
  error: z.string().nullish(),
  error_type: z.string().nullish(),
});
export type FalStatus = z.infer<typeof StatusSchema>;

/** fal's `File` (the client's types/endpoints.d.ts). */
const FileSchema = z.object({
  url: z.string().min(1),
  content_type: z.string().nullish(),
  file_name: z.string().nullish(),
  file_size: z.number().nullish(),
});

/** GET …/requests/{id}: the model's output; its GLB is `model_mesh` (TRELLIS, Hunyuan3D v2). */
export const ResultSchema = z
  .object({
    model_mesh: FileSchema.optional(),
    model_glb: FileSchema.optional(),
    thumbnail: FileSchema.nullish(),
  })
  .passthrough()
  .refine((r) => r.model_glb !== undefined || r.model_mesh !== undefined, {
    message: 'the result names no GLB (model_glb or model_mesh)',
  });

/**
 * An error body: a model error's `detail` array of `{ loc, msg, type }` (docs.fal.ai/errors), or
 * a request error's `detail` string with its `error_type` (request-errors page).
 */
export const ErrorBodySchema = z
  .object({
    detail: z
      .union([
        z.string(),
        z.array(
          z
            .object({
              loc: z.array(z.union([z.string(), z.number()])).optional(),
              msg: z.string(),
              type: z.string().optional(),
            })
            .passthrough(),
        ),
      ])
      .optional(),
    error_type: z.string().optional(),
  })
  .passthrough();
export type FalErrorBody = z.infer<typeof ErrorBodySchema>;

/** GET api.fal.ai/v1/account/billing?expand=credits (ADMIN keys). */
export const BillingSchema = z.object({
  username: z.string().optional(),
  credits: z.object({ current_balance: z.number(), currency: z.string() }).optional(),
});
