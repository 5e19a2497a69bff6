import { ProviderTaskExtrasSchema, splitTaskId, type Task } from '../../contract/index.ts';

/** How a vendor's task under way is said: its stage in words, and a percentage only if stated. */
export interface VendorProgress {
  /** "Step 1 of 2: preview", "In queue, position 3", "Running". */
  words: string;
  /** The vendor's own figure, or null when it states none (fal): never an invented %. */
  percent: number | null;
}

/** A vendor's task's progress as it states it; undefined for a spec task. */
export function vendorProgress(task: Task): VendorProgress | undefined {
  if (!splitTaskId(task.id)) return undefined;
  const extras = ProviderTaskExtrasSchema.partial().safeParse(task);
  const x = extras.success ? extras.data : {};
  const percent = typeof task.progress === 'number' ? task.progress : null;
  if (x.step) return { words: `Step ${x.step.index} of ${x.step.of}: ${x.step.name}`, percent };
  if (typeof x.queue_position === 'number')
    return {
      words: x.queue_position === 0 ? 'In queue, next' : `In queue, position ${x.queue_position}`,
      percent,
    };
  return {
    words: task.status === 'pending' && percent === null ? 'Running' : 'In progress',
    percent,
  };
}
