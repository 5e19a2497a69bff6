// Tests only: a library row as the store takes it, for the library's and the gallery's tests.
import type { Storage } from '../server/storage/database.ts';

export type LibraryInsert = Parameters<Storage['library']['insert']>[0];

/**
 * A completed `beta-text` task with no input, made at 1_800_000_000 s and done 10 s later, for
 * 10 credits with 990 left, its model at https://up.test/m.glb; `over` changes any of it.
 */
export const completedRow = (
  owner: string,
  taskId: string,
  over: Partial<LibraryInsert> = {},
): LibraryInsert => ({
  owner,
  taskId,
  model: 'beta-text',
  mode: 'async',
  images: [],
  prompt: null,
  status: 'completed',
  progress: 100,
  progressStage: 'Completed',
  created: 1_800_000_000,
  completedAt: 1_800_000_010,
  createdMs: 1_800_000_000_000,
  updatedMs: 1_800_000_000_000,
  creditsConsumed: 10,
  creditsRemaining: 990,
  error: null,
  upstreamModelUrl: 'https://up.test/m.glb',
  ...over,
});

/** Task t1 of owner o, an `alpha` model of "a cube" finished at `now` (epoch ms): one to archive. */
export const finishedAt = (now: number): LibraryInsert =>
  completedRow('o', 't1', {
    model: 'alpha',
    prompt: 'a cube',
    created: now / 1000,
    completedAt: now / 1000,
    createdMs: now,
    updatedMs: now,
  });
