// Tests only: prompt batches as the batch store keeps them.
import type { Batch, BatchItem } from './batch-store.ts';

/** Item `n` of batch b1: `prompt`, queued, sent under key-`n`; `change` sets anything else. */
export const promptItem = (
  n: number,
  prompt: string,
  change: Partial<BatchItem> = {},
): BatchItem => ({
  id: `b1-${n}`,
  name: prompt,
  prompt,
  upload: null,
  idempotencyKey: `key-${n}`,
  state: 'queued',
  taskId: null,
  error: null,
  earlierTaskIds: [],
  ...change,
});

/** Batch b1: prompts for beta-text at 10 credits each, started at 1 ms. */
export const promptBatch = (items: BatchItem[]): Batch => ({
  id: 'b1',
  kind: 'prompts',
  model: 'beta-text',
  creditsPerItem: 10,
  createdMs: 1,
  items,
});
