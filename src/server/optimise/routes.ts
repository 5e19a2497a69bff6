import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { ERROR_CODES, parseOptimiseRequest, type OptimiseStart } from '../../contract/index.ts';
import { ApiError } from '../../http/index.ts';
import { readJson } from '../middleware/boundary.ts';
import { owner, ownerOf as theOwner, type OwnerEnv } from '../middleware/owner.ts';
import type { OwnerOf } from '../owner-id.ts';
import { serveBlob } from '../serve-blob.ts';
import type { BlobStore } from '../storage/blobs.ts';
import type { LibraryStore } from '../storage/library.ts';
import type { AssetSigner } from '../library/asset-access.ts';
import type { OptimiseJobs } from './jobs.ts';

export interface OptimiseRouteDeps {
  store: Pick<LibraryStore, 'get'>;
  jobs: OptimiseJobs;
  ownerOf: OwnerOf;
  blobs: BlobStore;
  /**
   * Signs the result addresses a job's owner is given; files are then served only at signed
   * addresses (decision 0077). Without one (tests), by content address alone.
   */
  signer?: AssetSigner;
}

const SERVED = {
  glb: 'model/gltf-binary',
  stl: 'model/stl',
} as const;

/** The options of `POST …/optimise`, checked against the contract, or the 400 naming the field. */
async function checkedPlan(c: Context<OwnerEnv>) {
  const parsed = parseOptimiseRequest(await readJson(c, 'such as { "preset": "web" }'));
  if (parsed.ok) return parsed.plan;
  const { message, code, param } = parsed.error;
  throw new ApiError(400, {
    message,
    code: code === ERROR_CODES.missingField ? ERROR_CODES.missingField : ERROR_CODES.invalidValue,
    ...(param ? { param } : {}),
  });
}

/** The caller's task `id` with its model archived (what an optimise starts from), or why not. */
async function archivedModel(deps: OptimiseRouteDeps, owner: string, id: string) {
  const row = await deps.store.get(owner, id);
  if (!row)
    throw new ApiError(404, {
      code: ERROR_CODES.taskNotFound,
      message: 'No such task in your library.',
      param: 'id',
    });
  if (row.assetSha256 === null)
    throw new ApiError(409, {
      code: ERROR_CODES.taskNotArchived,
      message:
        row.status === 'completed'
          ? 'The model is still being saved to your library; try again in a moment.'
          : 'Only a completed task’s model can be optimised.',
      param: 'id',
    });
  return row.assetSha256;
}

/** `POST /library/{id}/optimise`: a job started on an archived model of the caller's (202). */
function startRoute(deps: OptimiseRouteDeps) {
  return async (c: Context<OwnerEnv, '/library/:id/optimise'>) => {
    const plan = await checkedPlan(c);
    const ownerId = theOwner(c);
    const id = c.req.param('id');
    const sourceSha256 = await archivedModel(deps, ownerId, id);
    const job = await deps.jobs.start({ owner: ownerId, taskId: id, sourceSha256, plan });
    const answer: OptimiseStart = { job_id: job.id };
    return c.json(answer, 202, {
      'cache-control': 'no-store',
      location: `/api/optimise/${job.id}`,
    });
  };
}

/**
 * `GET /optimise/files/{sha256}.glb|stl`: a result, at the signed address the job gives its
 * owner (like `/api/assets`); anything else is the same 404.
 */
function fileRoute(deps: OptimiseRouteDeps) {
  return async (c: Context<OwnerEnv, '/optimise/files/:name'>) => {
    const name = c.req.param('name');
    const match = /^([a-f0-9]{64})\.(glb|stl)$/.exec(name);
    const ext = match?.[2] as keyof typeof SERVED | undefined;
    const signedFor = deps.signer
      ? deps.signer.validFor(`/api/optimise/files/${name}`, c.req.query('exp'), c.req.query('sig'))
      : Infinity;
    const served =
      match && ext && signedFor > 0
        ? await serveBlob(c, deps.blobs, {
            kind: 'assets',
            sha256: match[1]!,
            ext,
            contentType: SERVED[ext],
            ...(deps.signer ? { cacheControl: `private, max-age=${signedFor}` } : {}),
          })
        : undefined;
    if (!served)
      throw new ApiError(404, { code: ERROR_CODES.assetNotFound, message: 'No such file.' });
    return served;
  };
}

/** `GET /optimise/{job_id}`: its progress, then its result (at signed addresses) or why it failed. */
function jobRoute(deps: OptimiseRouteDeps) {
  return async (c: Context<OwnerEnv, '/optimise/:job'>) => {
    const job = await deps.jobs.get(theOwner(c), c.req.param('job'));
    if (!job)
      throw new ApiError(404, {
        code: ERROR_CODES.optimiseJobNotFound,
        message:
          'No such optimise job for your API key (jobs are kept for an hour after they finish).',
        param: 'job_id',
      });
    const sign = (url: string) => deps.signer?.sign(url) ?? url;
    const signed = job.result
      ? {
          ...job,
          result: {
            ...job.result,
            url: sign(job.result.url),
            preview_url: sign(job.result.preview_url),
          },
        }
      : job;
    return c.json(signed, 200, { 'cache-control': 'no-store' });
  };
}

/** The options must be a small JSON object. */
const optionsLimit = bodyLimit({
  maxSize: 16 * 1024,
  onError: () => {
    throw new ApiError(413, {
      code: ERROR_CODES.bodyTooLarge,
      message: 'The options must be a small JSON object.',
    });
  },
});

/**
 * Mounted at `/api`: `POST /library/{id}/optimise` (starts a job on an archived model of the
 * caller's), `GET /optimise/{job_id}` (its progress, then its result or why it failed), and
 * `GET /optimise/files/{sha256}.glb|stl` (results, at the signed addresses the job gives its
 * owner, like `/api/assets`).
 */
export function optimiseRoutes(deps: OptimiseRouteDeps) {
  const required = owner(deps.ownerOf, { required: 'to optimise your models' });
  return new Hono<OwnerEnv>()
    .post('/library/:id/optimise', required, optionsLimit, startRoute(deps))
    .get('/optimise/files/:name', fileRoute(deps))
    .get('/optimise/:job', required, jobRoute(deps));
}
