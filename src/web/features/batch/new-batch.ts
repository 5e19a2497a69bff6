// A new batch as the planner hands it over, made into the batch that is kept and sent: one item
// per photo or prompt, each with its own Idempotency-Key.
import type { BatchKind } from './batch-plan.ts';
import type { Batch, BatchItem } from './batch-store.ts';

export interface NewBatch {
  kind: BatchKind;
  model: string;
  creditsPerItem: number | null;
  /** Photos (for `photos`) or prompts (for `prompts`). */
  photos?: readonly File[];
  prompts?: readonly string[];
}

/** The batch of `plan`, nothing sent yet, and the photo of each photo item by item id. */
export function makeBatch(
  plan: NewBatch,
  { nowMs, newKey }: { nowMs: number; newKey: () => string },
): { batch: Batch; photos: [itemId: string, file: File][] } {
  const id = `b${nowMs.toString(36)}`;
  const entries =
    plan.kind === 'photos'
      ? (plan.photos ?? []).map((file) => ({ name: file.name || 'photo', prompt: null, file }))
      : (plan.prompts ?? []).map((prompt) => ({ name: prompt, prompt, file: null }));
  const items: BatchItem[] = entries.map((e, i) => ({
    id: `${id}-${i + 1}`,
    name: e.name,
    prompt: e.prompt,
    upload: null,
    idempotencyKey: newKey(),
    state: 'queued',
    taskId: null,
    error: null,
    earlierTaskIds: [],
  }));
  const photos = entries.flatMap((e, i): [string, File][] =>
    e.file ? [[items[i]!.id, e.file]] : [],
  );
  return {
    batch: {
      id,
      kind: plan.kind,
      model: plan.model,
      creditsPerItem: plan.creditsPerItem,
      createdMs: nowMs,
      items,
    },
    photos,
  };
}
