// The Tripo mock's state, in memory: each key's credits (balance and frozen) and its tasks. A
// task's status follows from the clock (queued, then running, then final); the ledger moves once,
// when a task first reads as final: its frozen price is consumed on success, returned otherwise.
import { randomBytes, randomUUID } from 'node:crypto';
import type { KeyGrant } from '../keys.ts';
import type { TaskType, TripoTimings } from './catalogue.ts';

/** An input image: uploaded bytes (a file token) or an address to fetch. */
export type ImageSource = { bytes: Uint8Array } | { url: string };

export type TaskInput =
  | { kind: 'text'; prompt: string }
  | { kind: 'image'; image: ImageSource }
  /** Tripo's four ordered slots: front, left, back, right; null where omitted. */
  | { kind: 'multiview'; slots: readonly (ImageSource | null)[] };

/** A `mock:` trigger: how the task ends instead of succeeding (README "Triggers"). */
export type Trigger = 'failed' | 'banned' | 'expired' | 'cancelled' | 'unknown';
type FinalStatus = 'success' | 'failed' | 'banned' | 'expired' | 'cancelled';

export interface TaskRecord {
  id: string;
  key: string;
  type: TaskType;
  /** The create body's fields but `type`, as the task query echoes them. */
  echo: Record<string, unknown>;
  /** Whether the result is a PBR model (`pbr_model`) or a plain one (`model`). */
  pbr: boolean;
  input: TaskInput;
  price: number;
  createdMs: number;
  startMs: number;
  doneMs: number;
  trigger: Trigger | null;
  /** The secret part of this task's result address. */
  signature: string;
  glb?: Uint8Array;
  glbReadyMs?: number;
  /** Why the generator could not make a model (the task fails with it). */
  glbError?: string;
  final?: { status: FinalStatus; atMs: number; errorCode?: number; errorMsg?: string };
}

export interface TripoLedger {
  balance: number;
  frozen: number;
  /** Credits consumed by succeeded tasks. */
  spent: number;
  /** Credits returned by tasks that ended otherwise. */
  refunded: number;
}

export class TripoTasks {
  private readonly accounts = new Map<string, TripoLedger>();
  private readonly tasks = new Map<string, TaskRecord>();

  constructor(
    keys: readonly KeyGrant[],
    private readonly timings: TripoTimings,
  ) {
    for (const k of keys) {
      this.accounts.set(k.key, { balance: k.balance, frozen: 0, spent: 0, refunded: 0 });
    }
  }

  knows(key: string): boolean {
    return this.accounts.has(key);
  }

  /** The key's ledger, every task of it settled up to `now`. */
  ledger(key: string, now: number): TripoLedger | undefined {
    for (const task of this.tasks.values()) if (task.key === key) this.settle(task, now);
    const account = this.accounts.get(key);
    return account && { ...account };
  }

  /** Tasks of the key still queued or running at `now`, and when the first of them ends. */
  active(key: string, now: number): { count: number; nextEndMs: number } {
    let count = 0;
    let nextEndMs = Infinity;
    for (const task of this.tasks.values()) {
      if (task.key !== key) continue;
      this.settle(task, now);
      if (task.final) continue;
      count++;
      nextEndMs = Math.min(nextEndMs, task.doneMs);
    }
    return { count, nextEndMs };
  }

  /** Freezes the price and records the task; false when the balance does not cover it. */
  create(
    fields: Pick<TaskRecord, 'key' | 'type' | 'echo' | 'pbr' | 'input' | 'price' | 'trigger'>,
    now: number,
  ): TaskRecord | undefined {
    const account = this.accounts.get(fields.key);
    if (!account || account.balance < fields.price) return undefined;
    account.balance -= fields.price;
    account.frozen += fields.price;
    const startMs = now + this.timings.queuedMs;
    const task: TaskRecord = {
      ...fields,
      id: randomUUID(),
      createdMs: now,
      startMs,
      doneMs: startMs + this.timings.runningMs,
      signature: randomBytes(18).toString('base64url'),
    };
    this.tasks.set(task.id, task);
    return task;
  }

  /** The task, settled to `now`, if it is the key's (another key's task is not found, as documented). */
  get(key: string, id: string, now: number): TaskRecord | undefined {
    const task = this.tasks.get(id);
    if (!task || task.key !== key) return undefined;
    this.settle(task, now);
    return task;
  }

  /** For the result address: no key travels with it. */
  byId(id: string): TaskRecord | undefined {
    return this.tasks.get(id);
  }

  /** The number of the key's tasks queued before this one. */
  queuePosition(task: TaskRecord, now: number): number {
    let ahead = 0;
    for (const other of this.tasks.values()) {
      if (other.key === task.key && other.createdMs < task.createdMs && other.startMs > now)
        ahead++;
    }
    return ahead;
  }

  /** Ends the task if the clock (or its generation) says it has ended; moves the ledger once. */
  settle(task: TaskRecord, now: number): void {
    if (task.final) return;
    const midpoint = task.startMs + this.timings.runningMs / 2;
    if (task.trigger && task.trigger !== 'unknown' && now >= midpoint) {
      task.final = {
        status: task.trigger,
        atMs: midpoint,
        ...(task.trigger === 'failed'
          ? { errorCode: 1001, errorMsg: 'mock:fail was asked for.' }
          : {}),
      };
    } else if (!task.trigger && task.glbError !== undefined && now >= task.startMs) {
      task.final = { status: 'failed', atMs: now, errorCode: 1001, errorMsg: task.glbError };
    } else if (!task.trigger && task.glb && now >= task.doneMs) {
      task.final = { status: 'success', atMs: Math.max(task.doneMs, task.glbReadyMs ?? 0) };
    }
    if (!task.final) return;
    const account = this.accounts.get(task.key);
    if (!account) return;
    account.frozen -= task.price;
    if (task.final.status === 'success') account.spent += task.price;
    else {
      account.balance += task.price;
      account.refunded += task.price;
    }
  }
}
