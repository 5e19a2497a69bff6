// The Meshy mock's task routes: create (202 `{ "result": id }`) and retrieve, for Image to 3D,
// Multi-Image to 3D and Text to 3D (preview, then refine), each under Meshy's own path.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { MeshyEngine } from './engine.ts';
import { baseOf, presentTask, type PresentDeps } from './present.ts';
import {
  imagePrice,
  previewPrice,
  REFINE_PRICE,
  resolveModel,
  type MeshyModel,
} from './pricing.ts';
import type { MeshyKind, MeshyState, MeshyTaskRow } from './state.ts';

export type KeyEnv = { Variables: { key: string } };

export interface RouteDeps extends PresentDeps {
  state: MeshyState;
  engine: MeshyEngine;
  now: () => number;
  /** Meshy's "Queue Tasks": PENDING plus IN_PROGRESS tasks a key may have at once. */
  queueTasks: number;
}

const ImageUrl = z.string().refine((u) => /^(https?:|data:image\/)/i.test(u), {
  message: 'must be a publicly accessible http(s) URL or a data URI of an image',
});
const Common = {
  ai_model: z.string().optional(),
  model_type: z.enum(['standard', 'lowpoly']).optional(),
  should_texture: z.boolean().optional(),
};
const ImageBody = z.looseObject({ image_url: ImageUrl, ...Common });
const MultiBody = z.looseObject({ image_urls: z.array(ImageUrl).min(1).max(4), ...Common });
const TextBody = z.discriminatedUnion('mode', [
  z.looseObject({ mode: z.literal('preview'), prompt: z.string().min(1).max(600), ...Common }),
  z.looseObject({ mode: z.literal('refine'), preview_task_id: z.string().min(1), ...Common }),
]);

export const fail = (c: Context, status: 400 | 402 | 404 | 429 | 500, message: string) =>
  c.json({ message }, status);

async function bodyOf<T>(c: Context, schema: z.ZodType<T>): Promise<T | Response> {
  const raw: unknown = await c.req.json().catch(() => undefined);
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return fail(
    c,
    400,
    `Invalid parameter ${issue?.path.join('.') || 'body'}: ${issue?.message ?? ''}`,
  );
}

interface Submission {
  kind: MeshyKind;
  model: MeshyModel;
  price: number;
  prompt?: string;
  imageUrls?: readonly string[];
  previewTaskId?: string;
}

/** The shared create: triggers, the queue limit, the charge, then the task. */
function submit(c: Context<KeyEnv>, deps: RouteDeps, s: Submission): Response {
  const key = c.get('key');
  const text = [s.prompt ?? '', ...(s.imageUrls ?? [])].join(' ');
  if (text.includes('mock:429')) {
    c.header('Retry-After', '2');
    return fail(c, 429, 'RateLimitExceeded');
  }
  if (text.includes('mock:5xx')) return fail(c, 500, 'Internal server error.');
  if (deps.state.queued(key).length >= deps.queueTasks)
    return fail(c, 429, 'NoMoreConcurrentTasks');
  if (!deps.state.charge(key, s.price))
    return fail(c, 402, 'Insufficient funds in the account associated with the provided API key.');
  const task = deps.state.add({
    key,
    kind: s.kind,
    model: s.model,
    status: 'PENDING',
    progress: 0,
    createdAt: deps.now(),
    startedAt: 0,
    finishedAt: 0,
    charged: s.price,
    refunded: false,
    ...(s.prompt !== undefined ? { prompt: s.prompt } : {}),
    imageUrls: s.imageUrls ?? [],
    ...(s.previewTaskId ? { previewTaskId: s.previewTaskId } : {}),
    error: '',
  });
  deps.engine.start(task);
  return c.json({ result: task.id }, 202);
}

function modelOf(c: Context, aiModel: string | undefined): MeshyModel | Response {
  const model = resolveModel(aiModel);
  if (model === 'retired')
    return fail(c, 400, 'meshy-4 is retired; use meshy-5, meshy-6 or latest.');
  return model ?? fail(c, 400, `Invalid parameter ai_model: ${aiModel ?? ''}`);
}

/** A retrieve route: the key's own task of this endpoint's kinds, or 404. */
function getRoute(deps: RouteDeps, kinds: readonly MeshyKind[]) {
  return (c: Context<KeyEnv>) => {
    const task = deps.state.task(c.req.param('id') ?? '');
    if (!task || task.key !== c.get('key') || !kinds.includes(task.kind))
      return fail(c, 404, 'Task not found.');
    return c.json(presentTask(deps, task, baseOf(c.req.url)));
  };
}

export function taskRoutes(deps: RouteDeps): Hono<KeyEnv> {
  const app = new Hono<KeyEnv>();
  app.post('/openapi/v1/image-to-3d', async (c) => {
    const body = await bodyOf(c, ImageBody);
    if (body instanceof Response) return body;
    const model = modelOf(c, body.ai_model);
    if (model instanceof Response) return model;
    const price = imagePrice(model, body.should_texture !== false);
    return submit(c, deps, { kind: 'image-to-3d', model, price, imageUrls: [body.image_url] });
  });
  app.post('/openapi/v1/multi-image-to-3d', async (c) => {
    const body = await bodyOf(c, MultiBody);
    if (body instanceof Response) return body;
    const model = modelOf(c, body.ai_model);
    if (model instanceof Response) return model;
    const price = imagePrice(model, body.should_texture !== false);
    return submit(c, deps, { kind: 'multi-image-to-3d', model, price, imageUrls: body.image_urls });
  });
  app.post('/openapi/v2/text-to-3d', async (c) => {
    const body = await bodyOf(c, TextBody);
    if (body instanceof Response) return body;
    const model = modelOf(c, body.ai_model);
    if (model instanceof Response) return model;
    if (body.mode === 'preview') {
      const price = previewPrice(model, body.model_type === 'lowpoly');
      return submit(c, deps, { kind: 'text-to-3d-preview', model, price, prompt: body.prompt });
    }
    return refine(c, deps, body.preview_task_id, model);
  });
  app.get('/openapi/v2/text-to-3d', listRoute(deps, ['text-to-3d-preview', 'text-to-3d-refine']));
  app.get('/openapi/v1/image-to-3d/:id', getRoute(deps, ['image-to-3d']));
  app.get('/openapi/v1/multi-image-to-3d/:id', getRoute(deps, ['multi-image-to-3d']));
  app.get(
    '/openapi/v2/text-to-3d/:id',
    getRoute(deps, ['text-to-3d-preview', 'text-to-3d-refine']),
  );
  return app;
}

const ListQuery = z.object({
  page_num: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(50).default(10),
  sort_by: z.enum(['+created_at', '-created_at']).default('-created_at'),
});

/**
 * A list route ("List Text to 3D Tasks": `page_num`, `page_size` up to 50, `sort_by`
 * `+created_at` or `-created_at`): a JSON array of the key's task objects.
 */
function listRoute(deps: RouteDeps, kinds: readonly MeshyKind[]) {
  return (c: Context<KeyEnv>) => {
    const parsed = ListQuery.safeParse(c.req.query());
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return fail(
        c,
        400,
        `Invalid parameter ${issue?.path.join('.') ?? 'query'}: ${issue?.message ?? ''}`,
      );
    }
    const { page_num: page, page_size: size, sort_by: sort } = parsed.data;
    const rows = deps.state.list(c.get('key'), kinds);
    if (sort === '-created_at') rows.reverse();
    const base = baseOf(c.req.url);
    return c.json(
      rows.slice((page - 1) * size, page * size).map((t) => presentTask(deps, t, base)),
    );
  };
}

/** A refine needs the key's own SUCCEEDED preview. */
function refine(c: Context<KeyEnv>, deps: RouteDeps, previewId: string, model: MeshyModel) {
  const preview: MeshyTaskRow | undefined = deps.state.task(previewId);
  if (!preview || preview.key !== c.get('key') || preview.kind !== 'text-to-3d-preview')
    return fail(c, 404, 'Task not found.');
  if (preview.status !== 'SUCCEEDED')
    return fail(c, 400, 'Invalid parameter preview_task_id: the preview task has not succeeded.');
  return submit(c, deps, {
    kind: 'text-to-3d-refine',
    model,
    price: REFINE_PRICE,
    ...(preview.prompt !== undefined ? { prompt: preview.prompt } : {}),
    previewTaskId: preview.id,
  });
}
