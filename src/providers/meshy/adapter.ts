// Kiln's adapter for Meshy (api.meshy.ai): image, 2–4 views and text (preview, then refine, as
// one Kiln task of two steps), the task poll, the static model list and the balance call.
import {
  ProviderError,
  type AdapterDeps,
  type CreateOptions,
  type ProviderAdapter,
  type ProviderInput,
  type ProviderTask,
  type ViewSide,
} from '../types.ts';
import { meshyRequest, type MeshyCall } from './http.ts';
import { isMeshyModel, MESHY_MODEL_LIST, type MeshyModelId } from './models.ts';
import {
  MeshyBalanceSchema,
  MeshyCreatedSchema,
  MeshyTaskListSchema,
  MeshyTaskSchema,
} from './schemas.ts';
import {
  decodeRef,
  STAGE_PATHS,
  stagePrice,
  toProviderTask,
  type MeshyRef,
  type MeshyStage,
} from './task-map.ts';

/** Meshy's public API; MESHY_API_URL overrides it. */
export const MESHY_DEFAULT_BASE_URL = 'https://api.meshy.ai';

/** Meshy's documented key prefix (`msy_…`; one page of its docs writes `msy-…`). */
const KEY_PATTERN = /^msy[_-][A-Za-z0-9_-]{8,}$/;

/** Meshy's longest prompt, in characters. */
const PROMPT_MAX = 600;

/** Kiln's named sides in a fixed order; Meshy takes the images unnamed. */
const SIDE_ORDER: readonly ViewSide[] = ['front', 'right', 'back', 'left'];

function requestFor(model: MeshyModelId, input: ProviderInput): [MeshyStage, object] {
  switch (input.kind) {
    case 'image':
      return ['image', { image_url: input.imageUrl, ai_model: model }];
    case 'multiview': {
      if (input.views.length < 1 || input.views.length > 4)
        throw new ProviderError('invalid_input', 'Meshy takes 1 to 4 views of one object.', {
          param: 'views',
        });
      const rank = (s: ViewSide | null) => (s ? SIDE_ORDER.indexOf(s) : SIDE_ORDER.length);
      const urls = [...input.views].sort((a, b) => rank(a.side) - rank(b.side)).map((v) => v.url);
      return ['multi', { image_urls: urls, ai_model: model }];
    }
    case 'text':
      if (!input.prompt.trim() || input.prompt.length > PROMPT_MAX)
        throw new ProviderError(
          'invalid_input',
          `A Meshy prompt is 1 to ${PROMPT_MAX} characters.`,
          {
            param: 'prompt',
          },
        );
      return ['preview', { mode: 'preview', prompt: input.prompt, ai_model: model }];
  }
}

/** The task just created, before its first poll: queued, at the start of its step. */
function justCreated(r: MeshyRef): ProviderTask {
  return toProviderTask(r, {
    id: r.id,
    status: 'PENDING',
    progress: 0,
    consumed_credits: stagePrice(r),
  });
}

/**
 * The refine of a preview, if one was started: among the newest 50 text tasks (Meshy's largest
 * page), where a refine sent moments ago is.
 */
async function findRefine(call: MeshyCall, r: MeshyRef): Promise<ProviderTask | undefined> {
  if (r.stage !== 'preview') return undefined;
  const list = await meshyRequest(
    call,
    'GET',
    `${STAGE_PATHS.refine}?page_num=1&page_size=50&sort_by=-created_at`,
    MeshyTaskListSchema,
  );
  const found = list.find((t) => t.preview_task_id === r.id);
  return found && toProviderTask({ stage: 'refine', model: r.model, id: found.id }, found);
}

export function createMeshyAdapter(deps: AdapterDeps): ProviderAdapter {
  const call = (key: string, signal?: AbortSignal): MeshyCall => ({
    baseUrl: deps.baseUrl,
    fetch: deps.fetch ?? fetch,
    key,
    signal,
  });
  const refOf = (ref: string): MeshyRef => {
    const r = decodeRef(ref);
    if (!r)
      throw new ProviderError('not_found', 'That is not a Meshy task Kiln made.', { param: 'ref' });
    return r;
  };

  return {
    name: 'meshy',
    label: 'Meshy',
    recognisesKey: (key) => KEY_PATTERN.test(key),
    models: () => Promise.resolve(MESHY_MODEL_LIST),
    // Meshy documents no idempotency key: `options.idempotencyKey` is not sent, and a repeated
    // create makes (and charges) a second task. Kiln's intent record is what prevents a retry.
    async create(key, model, input, options: CreateOptions = {}) {
      if (!isMeshyModel(model))
        throw new ProviderError('invalid_input', `Meshy has no model "${model}".`, {
          param: 'model',
        });
      const [stage, body] = requestFor(model, input);
      const created = await meshyRequest(
        call(key, options.signal),
        'POST',
        STAGE_PATHS[stage],
        MeshyCreatedSchema,
        body,
      );
      return justCreated({ stage, model, id: created.result });
    },
    async get(key, ref, signal) {
      const r = refOf(ref);
      const task = await meshyRequest(
        call(key, signal),
        'GET',
        `${STAGE_PATHS[r.stage]}/${r.id}`,
        MeshyTaskSchema,
      );
      return toProviderTask(r, task);
    },
    async continue(key, ref, options: CreateOptions = {}) {
      const r = refOf(ref);
      if (r.stage !== 'preview')
        throw new ProviderError('invalid_input', "Only a text task's preview has a next stage.", {
          param: 'ref',
        });
      const body = { mode: 'refine', preview_task_id: r.id, ai_model: r.model };
      const created = await meshyRequest(
        call(key, options.signal),
        'POST',
        STAGE_PATHS.refine,
        MeshyCreatedSchema,
        body,
      );
      return justCreated({ stage: 'refine', model: r.model, id: created.result });
    },
    findContinued: (key, ref) => findRefine(call(key), refOf(ref)),
    async balance(key, signal) {
      const { balance } = await meshyRequest(
        call(key, signal),
        'GET',
        '/openapi/v1/balance',
        MeshyBalanceSchema,
      );
      return { amount: balance, unit: 'credits', asOfMs: (deps.now ?? Date.now)() };
    },
  };
}
