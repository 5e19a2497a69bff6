// The library: `search_library` (the gallery's filters), `get_model` (one model with its facts),
// `rename_model`, `favourite_model` and `hide_model`.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { LibraryFilters } from '../../client/kiln/index.ts';
import {
  checkModelName,
  LIBRARY_KINDS,
  LIBRARY_SORTS,
  LIBRARY_STATUSES,
} from '../../contract/index.ts';
import { VENDOR_PROVIDERS } from '../../contract/provider-ids.ts';
import type { McpContext } from '../context.ts';
import { factsOf, findCollection } from '../library.ts';
import { modelDetail, modelSummary } from '../present.ts';
import { answer, guarded, ToolInputError } from '../results.ts';

const oneOf = <const T extends readonly string[]>(field: string, values: T) =>
  z.enum(values, { error: `${field} must be one of ${values.join(', ')}.` });

/** A library entry's id, as every tool on one model takes it. */
export const modelId = z
  .string({ error: 'id is required: a model’s id from search_library or generate (task_…).' })
  .min(1, { error: 'id must not be empty.' })
  .describe('The model’s id (its task id: task_…, meshy_…), from search_library or generate.');

const searchInput = z.strictObject({
  text: z
    .string()
    .optional()
    .describe('Words in the model’s name, its prompt or its photo’s file name.'),
  model: z.string().optional().describe('Only this model (alpha, beta, meshy/meshy-6, …).'),
  kind: oneOf('kind', LIBRARY_KINDS)
    .optional()
    .describe('Made from one photo, 2–4 views, or a prompt.'),
  status: oneOf('status', LIBRARY_STATUSES).optional().describe('pending is anything not ended.'),
  favourite: z
    .boolean({ error: 'favourite must be true or false.' })
    .optional()
    .describe('Only starred models.'),
  hidden: z
    .boolean({ error: 'hidden must be true or false.' })
    .optional()
    .describe('The hidden models instead of the shown ones.'),
  collection: z
    .string()
    .min(1, { error: 'collection must not be empty.' })
    .optional()
    .describe('Only the models in this collection: its id (col_…) or its name.'),
  provider: oneOf('provider', ['spec', ...VENDOR_PROVIDERS] as const)
    .optional()
    .describe('Only one maker’s models: spec (Kiln’s API), meshy, tripo or fal.'),
  sort: oneOf('sort', LIBRARY_SORTS).optional().describe('newest (default), oldest, or credits.'),
  limit: z
    .number({ error: 'limit must be a number.' })
    .int({ error: 'limit must be a whole number.' })
    .min(1, { error: 'limit must be from 1 to 100.' })
    .max(100, { error: 'limit must be from 1 to 100.' })
    .optional()
    .describe('Models per page (1–100, default 20).'),
  cursor: z
    .string()
    .min(1, { error: 'cursor must not be empty.' })
    .optional()
    .describe('The next_cursor of the page before, for the next (older) page.'),
});

function registerSearch(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'search_library',
    {
      title: 'Search the library',
      description:
        'Finds models in the library by text, model, input kind, status, favourites, collection or provider; newest first, a page at a time (next_cursor).',
      inputSchema: searchInput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded({ params: { q: 'text' } }, async () => {
        const filters: Partial<LibraryFilters> = {
          q: args.text ?? '',
          model: args.model ?? '',
          kind: args.kind ?? '',
          status: args.status ?? '',
          favourite: args.favourite ?? false,
          hidden: args.hidden ?? false,
          sort: args.sort ?? 'newest',
          provider: args.provider ?? '',
          collection: args.collection ? (await findCollection(ctx.api, args.collection)).id : '',
        };
        const page = await ctx.api.library.list(filters, {
          limit: args.limit ?? 20,
          cursor: args.cursor,
        });
        return answer({
          models: page.data.map((e) => modelSummary(ctx.api, e)),
          next_cursor: page.next_cursor,
        });
      }),
  );
}

function registerGetModel(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'get_model',
    {
      title: 'Get a model',
      description:
        'One model of the library with its facts: triangles, vertices, size in metres, materials, textures, the glTF validator’s summary; its inputs, cost, collections, share link, picture and download URLs.',
      inputSchema: z.strictObject({ id: modelId }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id }) =>
      guarded({ notFound: 'id' }, async () => {
        const entry = await ctx.api.library.get(id);
        const names = new Map((await ctx.api.collections.list()).map((c) => [c.id, c.name]));
        return answer({
          ...modelDetail(ctx.api, entry),
          collections: (entry.collections ?? []).map((c) => ({
            id: c,
            name: names.get(c) ?? null,
          })),
          facts: await factsOf(ctx, entry),
        });
      }),
  );
}

/** One of the three changes of one model: its answer is the model as it is now. */
function registerChange(
  server: McpServer,
  ctx: McpContext,
  tool: { name: string; title: string; description: string },
  field: 'name' | 'favourite' | 'hidden',
  value: z.ZodType,
) {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: z.strictObject({ id: modelId, [field]: value }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args: Record<string, unknown>) =>
      guarded({ notFound: 'id' }, async () => {
        let change: unknown = args[field] ?? true;
        if (field === 'name') {
          const checked = checkModelName(change);
          if (!checked.ok) throw new ToolInputError('name', checked.message);
          change = checked.name;
        }
        const entry = await ctx.api.library.patch(String(args.id), { [field]: change });
        const result: Record<string, unknown> = { model: modelSummary(ctx.api, entry) };
        if (field === 'hidden' && change === true && entry.share)
          result.note = 'Hidden from the library; its public link stays up until revoke_share.';
        return answer(result);
      }),
  );
}

export function registerLibraryTools(server: McpServer, ctx: McpContext): void {
  registerSearch(server, ctx);
  registerGetModel(server, ctx);
  registerChange(
    server,
    ctx,
    {
      name: 'rename_model',
      title: 'Rename a model',
      description:
        'Gives a model its name (what the gallery, downloads and share page say); an empty name clears it.',
    },
    'name',
    z
      .string({ error: 'name is required: the new name, or "" to clear it.' })
      .describe('The new name (1–120 characters), or "" to clear it.'),
  );
  registerChange(
    server,
    ctx,
    {
      name: 'favourite_model',
      title: 'Star a model',
      description: 'Stars a model (favourite: true, the default) or unstars it (false).',
    },
    'favourite',
    z
      .boolean({ error: 'favourite must be true or false.' })
      .optional()
      .describe('true (default) stars it, false unstars it.'),
  );
  registerChange(
    server,
    ctx,
    {
      name: 'hide_model',
      title: 'Hide a model',
      description:
        'Hides a model from the library (hidden: true, the default; it is kept and readable by id) or shows it again (false).',
    },
    'hidden',
    z
      .boolean({ error: 'hidden must be true or false.' })
      .optional()
      .describe('true (default) hides it, false shows it again.'),
  );
}
