// A task as Meshy's GET answers it (the task object of the Image to 3D, Multi-Image to 3D and
// Text to 3D pages), and the signed, expiring address of its GLB.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MeshyEngine } from './engine.ts';
import type { MeshyState, MeshyTaskRow } from './state.ts';

export interface AssetSigner {
  /** `…/mock-assets/{id}.glb?Expires={unix s}&Signature={hex}` under `base`. */
  url(base: string, task: MeshyTaskRow): string;
  /** Whether a query's signature is this mock's for that task and time. */
  verify(id: string, expires: string, signature: string): boolean;
}

export function assetSigner(
  secret: Buffer,
  expiresAtMs: (task: MeshyTaskRow) => number,
): AssetSigner {
  const sign = (id: string, expires: string) =>
    createHmac('sha256', secret).update(`${id}:${expires}`).digest('hex');
  return {
    url(base, task) {
      const expires = String(Math.floor(expiresAtMs(task) / 1000));
      return `${base}/mock-assets/${task.id}.glb?Expires=${expires}&Signature=${sign(task.id, expires)}`;
    },
    verify(id, expires, signature) {
      const want = Buffer.from(sign(id, expires));
      const got = Buffer.from(signature);
      return want.length === got.length && timingSafeEqual(want, got);
    },
  };
}

/** The origin and mount path in front of `/openapi/…` in this request's URL. */
export function baseOf(requestUrl: string): string {
  const url = new URL(requestUrl);
  const at = url.pathname.indexOf('/openapi/');
  return url.origin + (at > 0 ? url.pathname.slice(0, at) : '');
}

export interface PresentDeps {
  state: MeshyState;
  engine: MeshyEngine;
  signer: AssetSigner;
}

/** The task object. Formats other than GLB, textures and thumbnails are not made by the mock. */
export function presentTask(deps: PresentDeps, task: MeshyTaskRow, base: string) {
  const succeeded = task.status === 'SUCCEEDED';
  const isText = task.kind === 'text-to-3d-preview' || task.kind === 'text-to-3d-refine';
  return {
    id: task.id,
    type: task.kind,
    model_urls: succeeded ? { glb: deps.signer.url(base, task) } : {},
    thumbnail_url: '',
    ...(isText ? { prompt: task.prompt ?? '' } : {}),
    ...(task.previewTaskId ? { preview_task_id: task.previewTaskId } : {}),
    progress: deps.engine.progressOf(task),
    status: task.status,
    created_at: task.createdAt,
    started_at: task.startedAt,
    finished_at: task.finishedAt,
    preceding_tasks: task.status === 'PENDING' ? precedingTasks(deps.state, task) : 0,
    task_error: { message: task.error },
    consumed_credits: task.charged,
  };
}

/** How many of the same key's PENDING tasks were submitted before this one. */
function precedingTasks(state: MeshyState, task: MeshyTaskRow): number {
  return state
    .queued(task.key)
    .filter((t) => t.status === 'PENDING' && t.createdAt < task.createdAt).length;
}
