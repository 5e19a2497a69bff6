// The Meshy mock's state, in memory (a Map per kind of thing): accounts with their balances, and
// tasks with what they were asked and how far they are. Nothing survives a restart: a restarted
// mock forgets its tasks, and every key starts again from its granted balance.
import { randomUUID } from 'node:crypto';
import type { MeshyModel } from './pricing.ts';

type MeshyStatus = 'PENDING' | 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED' | 'CANCELED';

/** Which endpoint made the task (its GET lives under the same path), as the task's `type`. */
export type MeshyKind =
  'image-to-3d' | 'multi-image-to-3d' | 'text-to-3d-preview' | 'text-to-3d-refine';

export interface MeshyTaskRow {
  id: string;
  /** The API key that made it (each key is its own account in the mock). */
  key: string;
  kind: MeshyKind;
  model: MeshyModel;
  status: MeshyStatus;
  /** The last progress written (the IN_PROGRESS figure is derived from time when read). */
  progress: number;
  createdAt: number;
  startedAt: number;
  finishedAt: number;
  /** Credits taken at submission (`consumed_credits`). */
  charged: number;
  refunded: boolean;
  prompt?: string;
  imageUrls: readonly string[];
  /** For a refine: the preview it textures. */
  previewTaskId?: string;
  /** `task_error.message` ("" unless FAILED). */
  error: string;
  glb?: Uint8Array;
}

export interface MeshyState {
  balance(key: string): number | undefined;
  /** Takes `amount` credits; false (nothing taken) when the balance is short. */
  charge(key: string, amount: number): boolean;
  refund(task: MeshyTaskRow): void;
  add(row: Omit<MeshyTaskRow, 'id'>): MeshyTaskRow;
  task(id: string): MeshyTaskRow | undefined;
  /** The key's tasks still PENDING or IN_PROGRESS (Meshy's "queue tasks"). */
  queued(key: string): MeshyTaskRow[];
  /** The key's tasks of these kinds, oldest first (Meshy's list endpoints). */
  list(key: string, kinds: readonly MeshyKind[]): MeshyTaskRow[];
}

export function createMeshyState(grants: readonly { key: string; balance: number }[]): MeshyState {
  const balances = new Map(grants.map((g) => [g.key, g.balance]));
  const tasks = new Map<string, MeshyTaskRow>();
  return {
    balance: (key) => balances.get(key),
    charge(key, amount) {
      const have = balances.get(key);
      if (have === undefined || have < amount) return false;
      balances.set(key, have - amount);
      return true;
    },
    refund(task) {
      if (task.refunded || task.charged === 0) return;
      task.refunded = true;
      balances.set(task.key, (balances.get(task.key) ?? 0) + task.charged);
    },
    add(row) {
      const task = { ...row, id: randomUUID() };
      tasks.set(task.id, task);
      return task;
    },
    task: (id) => tasks.get(id),
    list: (key, kinds) =>
      [...tasks.values()].filter((t) => t.key === key && kinds.includes(t.kind)),
    queued: (key) =>
      [...tasks.values()].filter(
        (t) => t.key === key && (t.status === 'PENDING' || t.status === 'IN_PROGRESS'),
      ),
  };
}
