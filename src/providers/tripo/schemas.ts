// Tripo's v2 OpenAPI answers, checked at the boundary. Every answer is an envelope: `code` 0 with
// `data`, or a non-zero `code` with `message` and `suggestion` (README "Sources").
import { z } from 'zod';

/** An error answer (any HTTP status), as the error-handling page shows it. */
export const TripoErrorSchema = z.object({
  code: z.number(),
  message: z.string().optional(),
  suggestion: z.string().optional(),
});

/** Every status the task docs and both official SDKs list. */
const TRIPO_STATUSES = [
  'queued',
  'running',
  'success',
  'failed',
  'cancelled',
  'unknown',
  'banned',
  'expired',
] as const;
export type TripoStatus = (typeof TRIPO_STATUSES)[number];

/** `data` of GET /task/{task_id}. `output` may carry undocumented fields; only these are read. */
export const TripoTaskSchema = z.object({
  task_id: z.string(),
  type: z.string(),
  status: z.enum(TRIPO_STATUSES),
  input: z.record(z.string(), z.unknown()).optional(),
  output: z
    .object({
      model: z.string().optional(),
      base_model: z.string().optional(),
      pbr_model: z.string().optional(),
      rendered_image: z.string().optional(),
    })
    .optional(),
  progress: z.number().optional(),
  create_time: z.number().optional(),
  queuing_num: z.number().nullish(),
  running_left_time: z.number().nullish(),
  error_code: z.number().nullish(),
  error_msg: z.string().nullish(),
});
export type TripoTask = z.infer<typeof TripoTaskSchema>;

/** `data` of POST /task. */
export const TripoCreatedSchema = z.object({ task_id: z.string().min(1) });

/** `data` of POST /upload: the token is called `image_token` there (and `file_token` where used). */
export const TripoUploadSchema = z.object({ image_token: z.string().min(1) });

/** `data` of GET /user/balance: credits free to spend, and credits held by running tasks. */
export const TripoBalanceSchema = z.object({ balance: z.number(), frozen: z.number() });
