// What the storage suite's parts share: a library row as the store takes it, a completed task's
// fields, and `Using` (a fresh storage for one test, closed after it).
import type { Storage } from '../../server/storage/database.ts';

type Row = Parameters<Storage['library']['insert']>[0];

export const row = (owner: string, taskId: string, over: Partial<Row> = {}): Row => ({
  owner,
  taskId,
  model: 'beta-text',
  mode: 'async',
  images: [{ url: 'https://x.test/a.png', upload: null }],
  prompt: 'a cube',
  status: 'pending',
  progress: 0,
  progressStage: 'Initializing',
  created: 1_800_000_000,
  completedAt: null,
  createdMs: 1_800_000_000_000,
  updatedMs: 1_800_000_000_000,
  creditsConsumed: null,
  creditsRemaining: null,
  error: null,
  upstreamModelUrl: null,
  ...over,
});

export const completed = {
  status: 'completed',
  progress: 100,
  progressStage: 'Completed',
  completedAt: 1_800_000_010,
  creditsConsumed: 10,
  creditsRemaining: 990,
  error: null,
  upstreamModelUrl: 'https://up.test/m.glb',
};

/** Runs one test against a fresh storage, closed after it. */
export type Using = (fn: (s: Storage) => Promise<void>) => Promise<void>;

export const usingStorage =
  (open: () => Promise<Storage>): Using =>
  async (fn) => {
    const s = await open();
    try {
      await fn(s);
    } finally {
      await s.close();
    }
  };
