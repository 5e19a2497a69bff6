// `generate`: a model from one photo (a local file over stdio, an address, or a data URI), 2–4
// views, or a prompt, with a model (the spec's aliases, or a vendor's `meshy/…`); optionally
// named and put in a collection. Photos are uploaded to Kiln first, the task is created once
// (an Idempotency-Key, so a retry never charges twice), then followed with progress
// notifications; the answer is the library entry, its facts and its download address.
import { randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { vendorKeyVariable } from '../../client/kiln/env.ts';
import type { KilnApi } from '../../client/kiln/index.ts';
import {
  checkModelName,
  isModelAlias,
  LIMITS,
  MODEL_ALIASES,
  type Collection,
} from '../../contract/index.ts';
import { PROVIDER_LABELS, splitModelId } from '../../contract/provider-ids.ts';
import { progressFor, type Extra, type McpContext } from '../context.ts';
import { findCollection } from '../library.ts';
import { answer, guarded, refusal, ToolInputError } from '../results.ts';
import { checkModelTakes, createBody, inputField, oneInput, type GenerateInput } from './inputs.ts';
import { outcome, WAIT_SECONDS, waitSeconds, waitUpTo } from './tasks.ts';

const ALIASES = MODEL_ALIASES.join(', ');
const HTTP_ADDRESS = /^https?:\/\/\S+$/i;

const views = (field: string, each: z.ZodString, what: string) =>
  z
    .array(each, { error: `${field} must be a list of ${what}.` })
    .min(LIMITS.minImages, {
      error: (i) =>
        `${field} takes 2 to 4 views of one object; got ${(i.input as unknown[]).length}.`,
    })
    .max(LIMITS.maxImages, {
      error: (i) =>
        `${field} takes 2 to 4 views of one object; got ${(i.input as unknown[]).length}.`,
    })
    .optional()
    .describe(
      `2 to 4 views of one object, ${what}, in the order front, right, back, left. For the multi-view models (alpha-multiview, beta-multiview).`,
    );

const model = z
  .string({ error: `model is required: one of ${ALIASES}, or a provider's model (meshy/…).` })
  .refine((m) => isModelAlias(m) || splitModelId(m) !== undefined, {
    error: (i) =>
      `model ${JSON.stringify(i.input)} is not one Kiln knows: use ${ALIASES}, or a provider's model named provider/model (meshy/meshy-6, tripo/…, fal/…).`,
  })
  .describe(
    `The model: ${ALIASES} (alpha is fast, beta better, gamma best; *-multiview take 2–4 views; beta-text takes a prompt), or a provider's model such as meshy/meshy-6 when its key is configured.`,
  );

/** The tool's input: the fields of local files only where they may be read (stdio). */
function generateInput(localFiles: boolean) {
  const local = {
    image_path: z
      .string({ error: 'image_path must be a file path.' })
      .min(1, { error: 'image_path must not be empty.' })
      .optional()
      .describe('A photo on this computer (PNG, JPEG or WebP): an absolute path, or ~/….'),
    image_paths: views(
      'image_paths',
      z.string().min(1, { error: 'image_paths[] must not be empty.' }),
      'as file paths',
    ),
  };
  return z.strictObject({
    model,
    ...(localFiles ? local : {}),
    image_url: z
      .string()
      .regex(HTTP_ADDRESS, { error: 'image_url must be an http or https address of a photo.' })
      .optional()
      .describe('A photo at a public http(s) address (Kiln fetches it once and keeps it).'),
    image_data: z
      .string()
      .startsWith('data:image/', {
        error: 'image_data must be a data URI of a photo: data:image/png;base64,…',
      })
      .optional()
      .describe('A photo as a base64 data URI: data:image/png;base64,… (PNG, JPEG or WebP).'),
    image_urls: views(
      'image_urls',
      z.string().regex(/^(https?:\/\/\S+|data:image\/)/i, {
        error: 'image_urls[] must each be an http(s) address or a data:image/… URI.',
      }),
      'as http(s) addresses or data URIs',
    ),
    prompt: z
      .string({ error: 'prompt must be text.' })
      .trim()
      .min(1, { error: 'prompt must not be empty.' })
      .max(LIMITS.maxPromptLength, {
        error: `prompt must be at most ${LIMITS.maxPromptLength} characters.`,
      })
      .optional()
      .describe('What to make, in words (for beta-text or a provider’s text model).'),
    name: z
      .string({ error: 'name must be text.' })
      .optional()
      .describe('A name for the model in the library (what the gallery and downloads say).'),
    collection: z
      .string({ error: 'collection must be a collection’s id or name.' })
      .min(1, { error: 'collection must not be empty.' })
      .optional()
      .describe('Put the model in this collection: its id (col_…) or its name.'),
    request_id: z
      .string()
      .regex(/^[\x21-\x7e]{1,200}$/, {
        error: 'request_id must be 1 to 200 visible ASCII characters (no spaces).',
      })
      .optional()
      .describe(
        'Your own id for this request: generate called again with the same request_id and input (within a day) answers the first task instead of making, and charging, a second.',
      ),
    wait_seconds: waitSeconds('wait_seconds').describe(
      `Seconds to wait for the model (0–900, default ${WAIT_SECONDS}); a task still running after it is answered with done: false and its task_id for wait_for_task.`,
    ),
  });
}
type GenerateArgs = z.infer<ReturnType<typeof generateInput>> & {
  image_path?: string | undefined;
  image_paths?: string[] | undefined;
};

/** A vendor's model needs that vendor's key; a spec alias the right kind of input. */
function checkModel(ctx: McpContext, modelId: string, input: GenerateInput): void {
  const vendor = splitModelId(modelId)?.provider;
  if (vendor && !ctx.vendors.includes(vendor)) {
    const label = PROVIDER_LABELS[vendor];
    throw new ToolInputError(
      'model',
      `${modelId} is a ${label} model: it needs your ${label} key (${vendorKeyVariable(vendor)} for npm run mcp, or the x-provider-key-${vendor} header over HTTP).`,
    );
  }
  checkModelTakes(modelId, input);
}

/** The name to give, checked as Kiln checks it (undefined: none asked for). */
function checkedName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const checked = checkModelName(name);
  if (!checked.ok) throw new ToolInputError('name', checked.message);
  return checked.name ?? undefined;
}

/** Names the new model and puts it in its collection, as soon as the library has it. */
async function label(api: KilnApi, id: string, name?: string, collection?: Collection) {
  if (name !== undefined) await api.library.patch(id, { name });
  if (collection) await api.collections.members(collection.id, { add: [id] });
}

async function generate(ctx: McpContext, args: GenerateArgs, extra: Extra) {
  const input = oneInput(args, ctx.localFiles);
  checkModel(ctx, args.model, input);
  const name = checkedName(args.name);
  const collection = args.collection ? await findCollection(ctx.api, args.collection) : undefined;
  const report = progressFor(extra);
  report(0, input.kind === 'prompt' ? 'Sending the prompt' : 'Uploading the photos to Kiln');
  const body = await createBody(ctx, args.model, input, extra.signal);
  const task = await ctx.api.create(body, {
    idempotencyKey: `mcp-${args.request_id ?? randomUUID()}`,
    signal: extra.signal,
  });
  report(1, 'Task created');
  await label(ctx.api, task.id, name, collection);
  const seconds = args.wait_seconds ?? WAIT_SECONDS;
  const last = seconds > 0 ? await waitUpTo(ctx, task.id, seconds, report, extra.signal) : task;
  const result = await outcome(ctx, last, report, extra.signal);
  if (last.status === 'failed')
    return refusal(
      undefined,
      `The task ${last.id} failed: ${last.error?.message ?? 'the upstream gave no reason'}\n${JSON.stringify(result, null, 2)}`,
    );
  return answer(result);
}

export function registerGenerate(server: McpServer, ctx: McpContext): void {
  const photo = ctx.localFiles ? 'image_path, image_url or image_data' : 'image_url or image_data';
  const several = ctx.localFiles ? 'image_paths or image_urls' : 'image_urls';
  server.registerTool(
    'generate',
    {
      title: 'Generate a 3D model',
      description: `Makes a 3D model (GLB) from one photo (${photo}), 2–4 views of one object (${several}) or a prompt, with a model; optionally names it and puts it in a collection. Costs credits. Sends progress notifications while it runs; answers the library entry, its facts (triangles, size, materials, textures, validator) and its download URL. Give exactly one input.`,
      inputSchema: generateInput(ctx.localFiles),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    (args, extra) => {
      const field = inputField(args as GenerateArgs);
      return guarded(
        { params: { image_url: field, image_urls: field, url: field, file: field } },
        () => generate(ctx, args as GenerateArgs, extra),
      );
    },
  );
}
