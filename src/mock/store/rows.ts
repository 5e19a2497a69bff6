import type { Selectable } from 'kysely';
import type { ErrorObject, ModelAlias } from '../../contract/index.ts';
import type { MockDatabase } from './schema.ts';

export interface TaskRow {
  id: string;
  keyHash: string;
  model: ModelAlias;
  request: StoredRequest;
  mode: 'sync' | 'async';
  status: 'pending' | 'completed' | 'failed';
  progress: number;
  progressStage: string;
  credits: number;
  created: number;
  completedAt: number | null;
  error: ErrorObject | null;
  /** The balance right after this task's charge; null for tasks made before it was kept. */
  creditsRemaining: number | null;
}

/**
 * What the engine needs to (re)run a task. Images sent inline (data: URIs) are kept as blobs and
 * named here by `input:sha256` references, so a task row stays small whatever its input.
 */
export interface StoredRequest {
  image_url?: string;
  image_urls?: string[];
  prompt?: string;
}

/** A `tasks` row as the mock works with it. */
export function toRow(r: Omit<Selectable<MockDatabase['tasks']>, 'seq'>): TaskRow {
  return {
    id: r.id,
    keyHash: r.key_hash,
    model: r.model as ModelAlias,
    request: JSON.parse(r.request_json) as StoredRequest,
    mode: r.mode === 'sync' ? 'sync' : 'async',
    status: r.status as TaskRow['status'],
    progress: r.progress,
    progressStage: r.progress_stage,
    credits: r.credits,
    created: r.created,
    completedAt: r.completed_at,
    error: r.error_json ? (JSON.parse(r.error_json) as ErrorObject) : null,
    creditsRemaining: r.credits_remaining,
  };
}
