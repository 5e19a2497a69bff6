// A Meshy task object as Kiln's ProviderTask: every status mapped, Meshy's own progress (for text,
// the two stages as halves of one bar), and a sentence a person understands for each failure.
import type { ProviderTask } from '../types.ts';
import { STAGE_PRICES, isMeshyModel, type MeshyModelId } from './models.ts';
import type { MeshyTask } from './schemas.ts';

/** Which Meshy endpoint a ref's task lives under. */
export type MeshyStage = 'image' | 'multi' | 'preview' | 'refine';

export const STAGE_PATHS: Record<MeshyStage, string> = {
  image: '/openapi/v1/image-to-3d',
  multi: '/openapi/v1/multi-image-to-3d',
  preview: '/openapi/v2/text-to-3d',
  refine: '/openapi/v2/text-to-3d',
};

export interface MeshyRef {
  stage: MeshyStage;
  model: MeshyModelId;
  id: string;
}

/** `stage.model.id`: URL-safe, no `/` (Meshy's ids are UUIDs). */
export const encodeRef = (r: MeshyRef) => `${r.stage}.${r.model}.${r.id}`;

export function decodeRef(ref: string): MeshyRef | undefined {
  const m = /^(image|multi|preview|refine)\.(meshy-[56])\.([A-Za-z0-9_-]{1,100})$/.exec(ref);
  if (!m?.[1] || !m[2] || !m[3] || !isMeshyModel(m[2])) return undefined;
  return { stage: m[1] as MeshyStage, model: m[2], id: m[3] };
}

export function stagePrice(r: Pick<MeshyRef, 'stage' | 'model'>): number {
  const p = STAGE_PRICES[r.model];
  return r.stage === 'preview' ? p.preview : r.stage === 'refine' ? p.refine : p.image;
}

const STEPS = {
  preview: { index: 1, of: 2, name: 'Preview' },
  refine: { index: 2, of: 2, name: 'Refine' },
} as const;

/** Meshy's 0–100 for this stage as Kiln's one bar: a text task's preview is 0–50, its refine 50–100. */
function overall(stage: MeshyStage, p: number): number {
  if (stage === 'preview') return Math.round(p / 2);
  if (stage === 'refine') return 50 + Math.round(p / 2);
  return Math.round(p);
}

/** What Kiln shows for a task Meshy reports; `ref` names it. */
export function toProviderTask(r: MeshyRef, t: MeshyTask): ProviderTask {
  const base: ProviderTask = {
    ref: encodeRef(r),
    status: 'queued',
    progress: overall(r.stage, t.progress ?? 0),
    createdMs: t.created_at || null,
    cost: { amount: t.consumed_credits ?? stagePrice(r), unit: 'credits' },
    ...(r.stage === 'preview' || r.stage === 'refine' ? { step: STEPS[r.stage] } : {}),
  };
  switch (t.status) {
    case 'PENDING':
      return {
        ...base,
        queuePosition: t.preceding_tasks ?? null,
        stage: "Waiting in Meshy's queue",
      };
    case 'IN_PROGRESS':
      return { ...base, status: 'running', stage: runningStage(r.stage) };
    case 'SUCCEEDED':
      return succeeded(r, t, base);
    case 'FAILED':
      return { ...base, status: 'failed', progress: null, refunded: true, error: failure(r, t) };
    case 'CANCELED':
      return {
        ...base,
        status: 'failed',
        progress: null,
        // Meshy refunds a cancelled task only if it had not started.
        refunded: !t.started_at,
        error: {
          code: 'canceled',
          message: `The task was cancelled at Meshy (in its web app, or by another program using this key), so nothing was made.${t.started_at ? ' It had started, so Meshy kept its credits.' : ' It had not started, so Meshy refunded its credits.'}`,
        },
      };
  }
}

function runningStage(stage: MeshyStage): string {
  if (stage === 'preview') return 'Shaping the mesh (preview)';
  if (stage === 'refine') return 'Texturing the mesh (refine)';
  return 'Generating the model';
}

function succeeded(r: MeshyRef, t: MeshyTask, base: ProviderTask): ProviderTask {
  if (r.stage === 'preview')
    return {
      ...base,
      status: 'running',
      progress: 50,
      awaitingContinue: true,
      stage: 'Preview ready; texturing next',
    };
  const glbUrl = t.model_urls?.glb;
  if (!glbUrl)
    return {
      ...base,
      status: 'failed',
      progress: null,
      error: { code: 'no_model', message: 'Meshy finished the task but gave no GLB file for it.' },
    };
  return {
    ...base,
    status: 'succeeded',
    progress: 100,
    stage: null,
    result: { glbUrl, thumbnailUrl: t.thumbnail_url || null, expiresMs: expiresOf(glbUrl, t) },
  };
}

/** When the GLB's address stops working: its signed `Expires` (s), else `expires_at` (ms). */
function expiresOf(url: string, t: MeshyTask): number | null {
  const expires = Number(new URL(url, 'http://x').searchParams.get('Expires'));
  if (Number.isFinite(expires) && expires > 0) return expires * 1000;
  return t.expires_at || null;
}

const KNOWN: Record<string, string> = {
  'The server is busy. Please try again later.':
    'Meshy was too busy to finish it in time. Trying again in a few minutes usually works.',
  'Internal server error.':
    'Meshy had an error of its own while making it. Trying again usually works.',
};

function failure(r: MeshyRef, t: MeshyTask): { code: string; message: string } {
  const said = t.task_error?.message?.trim() ?? '';
  const why = KNOWN[said] ?? (said ? `Meshy said: ${said}` : 'Meshy gave no reason.');
  const what =
    r.stage === 'refine'
      ? 'Meshy could not texture the model (stage 2 of 2); the preview stage stays charged.'
      : r.stage === 'preview'
        ? 'Meshy could not make the preview mesh (stage 1 of 2).'
        : 'Meshy could not make this model.';
  return {
    code:
      said === 'The server is busy. Please try again later.' ? 'vendor_busy' : 'generation_failed',
    message: `${what} ${why} Meshy refunds a failed task's credits.`,
  };
}
