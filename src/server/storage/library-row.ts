// A library row: one task made through Kiln, as stored, and how a database row reads back.
import type { Selectable } from 'kysely';
import type { ErrorObject, LibraryImage, ProviderCost } from '../../contract/index.ts';
import type { Tables } from './schema.ts';

/** One task made through Kiln, as stored (owner = HMAC of the API key, never the key). */
export interface LibraryRow {
  owner: string;
  taskId: string;
  model: string;
  mode: 'sync' | 'async';
  images: LibraryImage[];
  prompt: string | null;
  status: string;
  progress: number;
  progressStage: string | null;
  created: number;
  completedAt: number | null;
  createdMs: number;
  updatedMs: number;
  creditsConsumed: number | null;
  creditsRemaining: number | null;
  /** A vendor's task: what it cost in the vendor's own unit, every stage so far; else null. */
  cost: ProviderCost | null;
  error: ErrorObject | null;
  upstreamModelUrl: string | null;
  assetSha256: string | null;
  archiveAttempts: number;
  archiveError: string | null;
  /** When the archive is tried again; null when archived or given up. */
  archiveNextMs: number | null;
  hidden: boolean;
  /** The picture of the archived model, when a browser has drawn one. */
  thumbnailSha256: string | null;
  /** Starred by its owner. */
  favourite: boolean;
  /** The model's own name, given by its owner (trimmed); null until named. */
  name: string | null;
  seq: number;
  /**
   * The windows of its charge and refund (decision 0076): the create was sent at `sentMs` and
   * answered at `answeredMs`; the task was last seen pending at `lastPendingMs` and first seen
   * ended at `endedMs`. Null on rows older than migration 008.
   */
  sentMs: number | null;
  answeredMs: number | null;
  lastPendingMs: number | null;
  endedMs: number | null;
}

/** Statuses a task never leaves. */
export const TERMINAL = ['completed', 'failed'];

/** A `library` table row as a {@link LibraryRow}. */
export function toRow(r: Selectable<Tables['library']>): LibraryRow {
  return {
    owner: r.owner,
    taskId: r.task_id,
    model: r.model,
    mode: r.mode === 'sync' ? 'sync' : 'async',
    images: JSON.parse(r.images_json) as LibraryImage[],
    prompt: r.prompt,
    status: r.status,
    progress: r.progress,
    progressStage: r.progress_stage,
    created: Number(r.created),
    completedAt: r.completed_at === null ? null : Number(r.completed_at),
    createdMs: Number(r.created_ms),
    updatedMs: Number(r.updated_ms),
    creditsConsumed: r.credits_consumed,
    creditsRemaining: r.credits_remaining,
    cost: costOf(r.cost_amount, r.cost_unit),
    error: r.error_json ? (JSON.parse(r.error_json) as ErrorObject) : null,
    upstreamModelUrl: r.upstream_model_url,
    assetSha256: r.asset_sha256,
    archiveAttempts: r.archive_attempts,
    archiveError: r.archive_error,
    archiveNextMs: r.archive_next_ms === null ? null : Number(r.archive_next_ms),
    hidden: Number(r.hidden) === 1,
    thumbnailSha256: r.thumbnail_sha256 ?? null,
    favourite: Number(r.favourite ?? 0) === 1,
    name: r.name ?? null,
    seq: Number(r.seq),
    sentMs: r.sent_ms == null ? null : Number(r.sent_ms),
    answeredMs: r.answered_ms == null ? null : Number(r.answered_ms),
    lastPendingMs: r.last_pending_ms == null ? null : Number(r.last_pending_ms),
    endedMs: r.ended_ms == null ? null : Number(r.ended_ms),
  };
}

/** A stored cost, when both halves are there and the unit is one Kiln knows. */
function costOf(amount: number | null, unit: string | null): ProviderCost | null {
  if (amount === null || (unit !== 'credits' && unit !== 'USD')) return null;
  return { amount: Number(amount), unit };
}
