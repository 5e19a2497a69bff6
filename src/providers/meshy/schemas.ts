// Meshy's responses at the boundary (docs.meshy.ai: the task objects of Image to 3D, Multi-Image
// to 3D and Text to 3D, the Balance API, the Errors page). Lenient about what Kiln does not read:
// unknown fields pass, optional ones may be missing, empty strings stand for "none".
import { z } from 'zod';

/** Every create answers 202 with the new task's id in `result`. */
export const MeshyCreatedSchema = z.object({ result: z.string().min(1) });

const MeshyStatusSchema = z.enum(['PENDING', 'IN_PROGRESS', 'SUCCEEDED', 'FAILED', 'CANCELED']);

/** The fields of a task object Kiln reads (the same across the three task kinds). */
export const MeshyTaskSchema = z.looseObject({
  id: z.string().min(1),
  type: z.string().optional(),
  status: MeshyStatusSchema,
  progress: z.number().min(0).max(100).optional(),
  model_urls: z.looseObject({ glb: z.string().optional() }).nullish(),
  thumbnail_url: z.string().nullish(),
  /** Milliseconds since the epoch; 0 when not yet reached. */
  created_at: z.number().nullish(),
  started_at: z.number().nullish(),
  finished_at: z.number().nullish(),
  /** Older task objects carry when the result expires, in ms. */
  expires_at: z.number().nullish(),
  preceding_tasks: z.number().int().min(0).nullish(),
  task_error: z.looseObject({ message: z.string().nullish() }).nullish(),
  consumed_credits: z.number().nullish(),
  /** A refine's preview (the list's way to find the refine of a preview). */
  preview_task_id: z.string().nullish(),
});
export type MeshyTask = z.infer<typeof MeshyTaskSchema>;

/** "List Text to 3D Tasks": a JSON array of task objects. */
export const MeshyTaskListSchema = z.array(MeshyTaskSchema);

export const MeshyBalanceSchema = z.object({ balance: z.number() });

/** A rejected request: `{ "message": "…" }` (some clients also read a `code`). */
export const MeshyErrorSchema = z.looseObject({
  message: z.string().optional(),
  code: z.string().optional(),
  error_code: z.string().optional(),
});
