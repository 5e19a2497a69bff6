import { z } from 'zod';
import { ErrorObjectSchema } from './errors.ts';

export const TASK_STATUSES = ['pending', 'completed', 'failed'] as const;
export type KnownTaskStatus = (typeof TASK_STATUSES)[number];

/** The progress table of spec section 3, in order. */
export const STAGES = [
  { progress: 0, key: 'initializing', label: 'Initializing' },
  { progress: 20, key: 'downloading_images', label: 'Downloading images' },
  { progress: 40, key: 'generating_mesh', label: 'Generating 3D mesh' },
  { progress: 80, key: 'processing_mesh', label: 'Processing mesh' },
  { progress: 90, key: 'uploading_result', label: 'Uploading result' },
  { progress: 100, key: 'completed', label: 'Completed' },
] as const;
export type Stage = (typeof STAGES)[number];
export type StageKey = Stage['key'];

/** The stage a progress value falls in (the last stage whose threshold it reached). */
export function stageForProgress(progress: number): Stage {
  let found: Stage = STAGES[0];
  for (const stage of STAGES) if (progress >= stage.progress) found = stage;
  return found;
}

/**
 * The stages a task goes through, as shown: a prompt's task downloads no images, so its list
 * leaves "Downloading images" out (the spec's table still counts its 20 %).
 */
export function stagesFor(fromPrompt: boolean): readonly Stage[] {
  return fromPrompt ? STAGES.filter((s) => s.key !== 'downloading_images') : STAGES;
}

/**
 * The stage to show for a task: the one it names, else the one its progress falls in; for a
 * prompt's task, "Downloading images" (said by the upstream all the same) reads as the stage
 * before it, since nothing is downloaded.
 */
export function shownStage(
  progressStage: string | null | undefined,
  progress: number,
  fromPrompt: boolean,
): Stage {
  const stage = stageFromName(progressStage) ?? stageForProgress(progress);
  return fromPrompt && stage.key === 'downloading_images' ? STAGES[0] : stage;
}

/**
 * The stage named by a `progress_stage` string, tolerant of case, spacing and
 * punctuation ("Generating 3D mesh", "generating_3d_mesh", "GENERATING MESH").
 */
export function stageFromName(name: string | null | undefined): Stage | undefined {
  if (!name) return undefined;
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/3d/g, '')
      .replace(/[^a-z]/g, '');
  const wanted = norm(name);
  return STAGES.find((s) => norm(s.label) === wanted || norm(s.key) === wanted);
}

export const UsageSchema = z
  .object({
    credits_consumed: z.number().int().nonnegative(),
    credits_remaining: z.number().int(),
  })
  .loose();
export type Usage = z.infer<typeof UsageSchema>;

export const GenerationResultSchema = z
  .object({
    model_url: z.string().min(1),
    format: z.string().nullish(),
    model: z.string().nullish(),
  })
  .loose();
export type GenerationResult = z.infer<typeof GenerationResultSchema>;

/**
 * Any task the upstream returns (create or query), parsed leniently: the spec
 * does not rule out other statuses, and optional fields may be absent.
 */
export const TaskSchema = z
  .object({
    id: z.string().min(1),
    object: z.string().optional(),
    status: z.string().min(1),
    created: z.number().nullish(),
    completed_at: z.number().nullish(),
    progress: z.number().min(0).max(100).nullish(),
    progress_stage: z.string().nullish(),
    data: GenerationResultSchema.nullish(),
    usage: UsageSchema.nullish(),
    error: ErrorObjectSchema.nullish(),
  })
  .loose();
export type Task = z.infer<typeof TaskSchema>;

/** The pending task a create returns (rule 1 of 4.1). */
export const PendingTaskSchema = TaskSchema.extend({
  object: z.literal('task'),
  status: z.literal('pending'),
  created: z.number().int(),
  data: z.null(),
});
export type PendingTask = z.infer<typeof PendingTaskSchema>;

/** The completed result (rule 2 of 4.1, and a completed query). */
export const CompletedTaskSchema = TaskSchema.extend({
  object: z.literal('3d.generation'),
  status: z.literal('completed'),
  created: z.number().int(),
  completed_at: z.number().int(),
  data: GenerationResultSchema,
  usage: UsageSchema,
});
export type CompletedTask = z.infer<typeof CompletedTaskSchema>;

export const FailedTaskSchema = TaskSchema.extend({
  status: z.literal('failed'),
  error: ErrorObjectSchema,
});
export type FailedTask = z.infer<typeof FailedTaskSchema>;

export function isCompleted(task: Task): task is CompletedTask {
  return (
    task.status === 'completed' && task.data != null && typeof task.data.model_url === 'string'
  );
}

export function isFailed(task: Task): task is FailedTask {
  return task.status === 'failed';
}

/** True when polling should stop. */
export function isTerminal(task: Task): boolean {
  return task.status === 'completed' || task.status === 'failed';
}

/** The task's progress, from `progress` or, failing that, its stage name or status. */
export function progressOf(task: Task): number {
  if (typeof task.progress === 'number') return task.progress;
  if (task.status === 'completed') return 100;
  return stageFromName(task.progress_stage)?.progress ?? 0;
}
