// A batch as it is kept in localStorage, so that a reload mid-batch picks it up where it was:
// each item's idempotency key (a create re-sent after a reload carries the same key, and the
// server answers with the task it already made), its upload and its task. Parsed with zod on
// the way in: what storage holds is not trusted.
import { z } from 'zod';
import type { CreateGenerationInput } from '../../../contract/index.ts';
import { MAX_BATCH } from './batch-plan.ts';

const ITEM_STATES = [
  /** Nothing sent for it yet (or sent again after Retry). */
  'queued',
  /** Its photo is being uploaded. */
  'uploading',
  /** The create is being sent (maybe already sent: a reload re-sends it with the same key). */
  'creating',
  /** The task exists: its own status says the rest. */
  'created',
  /** It failed before any task existed (the photo or the create was refused). */
  'failed',
] as const;

const BatchItemSchema = z.object({
  id: z.string().min(1),
  /** The photo's file name, or the prompt. */
  name: z.string(),
  prompt: z.string().nullable(),
  /** The upload once done: the URL sent upstream and where this browser shows it. */
  upload: z.object({ url: z.string().min(1), preview: z.string().min(1) }).nullable(),
  /** The Idempotency-Key of the current attempt (a Retry makes a new one). */
  idempotencyKey: z.string().min(1),
  state: z.enum(ITEM_STATES),
  taskId: z.string().min(1).nullable(),
  /** Why it failed before a task existed. */
  error: z.string().nullable(),
  /** Tasks of earlier attempts (before a Retry). */
  earlierTaskIds: z.array(z.string()),
});
export type BatchItem = z.infer<typeof BatchItemSchema>;

const BatchSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['photos', 'prompts']),
  model: z.string().min(1),
  /** The price of one task when the batch started (null when the listing did not say). */
  creditsPerItem: z.number().int().nonnegative().nullable(),
  createdMs: z.number(),
  items: z.array(BatchItemSchema).min(1).max(MAX_BATCH),
});
export type Batch = z.infer<typeof BatchSchema>;

/** The create an item sends: the same body on every attempt, so the server can replay it. */
export function bodyOf(batch: Pick<Batch, 'model'>, item: BatchItem): CreateGenerationInput {
  const model = batch.model as CreateGenerationInput['model'];
  if (item.prompt !== null) return { model, prompt: item.prompt };
  if (!item.upload) throw new Error('the photo is not uploaded yet');
  return { model, image_url: item.upload.url };
}

/** Items whose sending is not over: a run (or a resume after a reload) works through them. */
export function unsent(batch: Batch): BatchItem[] {
  return batch.items.filter(
    (i) => i.state === 'queued' || i.state === 'uploading' || i.state === 'creating',
  );
}

const storageKey = (scope: string) => `kiln.batch.${scope}`;

/** The batch kept for this key scope, or null (none, unreadable, or from another version). */
export function loadBatch(scope: string, storage: Storage = localStorage): Batch | null {
  try {
    const raw = storage.getItem(storageKey(scope));
    if (!raw) return null;
    const parsed = BatchSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Keeps the batch (false when storage refused it: the batch goes on, but a reload loses it). */
export function saveBatch(scope: string, batch: Batch, storage: Storage = localStorage): boolean {
  try {
    storage.setItem(storageKey(scope), JSON.stringify(batch));
    return true;
  } catch {
    return false;
  }
}

export function forgetBatch(scope: string, storage: Storage = localStorage): void {
  try {
    storage.removeItem(storageKey(scope));
  } catch {
    // nothing was kept
  }
}
