// A vendor's task in the spec's task shape, so the library, the archive and the studio read every
// provider's tasks as they read the spec's; what the spec has no field for travels beside it
// (`provider`, `queue_position`, `logs`, `cost`, `step`, `result_expires_ms`; decision 0114).
import {
  ERROR_TYPES,
  type ProviderTaskExtras,
  type Task,
  type VendorProvider,
} from '../../contract/index.ts';
import type { ProviderTask } from '../../providers/types.ts';

export type PresentedTask = Task & ProviderTaskExtras;

const STATUS: Record<ProviderTask['status'], string> = {
  queued: 'pending',
  running: 'pending',
  succeeded: 'completed',
  failed: 'failed',
};

/** The stage shown when the vendor names none: waiting its turn, or making the model. */
function stageOf(t: ProviderTask): string | null {
  if (t.stage) return t.stage;
  if (t.status === 'queued') return 'Queued';
  if (t.status === 'running') return 'Generating 3D mesh';
  return t.status === 'succeeded' ? 'Completed' : null;
}

export function presentTask(
  provider: VendorProvider,
  id: string,
  model: string,
  t: ProviderTask,
  nowMs: number,
  /** When Kiln first saw it end (the library's), so a poll repeats the same answer. */
  endedAt?: number | null,
): PresentedTask {
  // A first stage that succeeded is not the task's end: it goes on to the next (Meshy's refine).
  const next = t.awaitingContinue === true;
  const done = t.status === 'succeeded' && t.result && !next;
  const failed = t.status === 'failed' || (t.status === 'succeeded' && !t.result && !next);
  return {
    id,
    object: done ? '3d.generation' : 'task',
    status: failed ? 'failed' : next ? 'pending' : STATUS[t.status],
    created: Math.floor((t.createdMs ?? nowMs) / 1000),
    completed_at: done || failed ? (endedAt ?? Math.floor(nowMs / 1000)) : null,
    // Never invented: a vendor that gives no percentage (fal) leaves it null until the end.
    progress: done ? 100 : t.progress,
    progress_stage: stageOf(t),
    data: done ? { model_url: t.result!.glbUrl, format: 'glb', model } : null,
    usage: null,
    error: failed
      ? {
          message: t.error?.message ?? 'The provider says the task ended without a model.',
          type: ERROR_TYPES.api,
          code: t.error?.code ?? 'generation_failed',
        }
      : null,
    provider,
    queue_position: t.queuePosition ?? null,
    logs: t.logs ? [...t.logs].slice(-20) : null,
    cost: t.cost ?? null,
    step: t.step ?? null,
    result_expires_ms: t.result?.expiresMs ?? null,
  };
}
