// Collections (`list_collections`, `create_collection`, `add_to_collection`,
// `remove_from_collection`) and a model's public link (`share_model`, `revoke_share`).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { membersSteps } from '../../client/kiln/index.ts';
import type { Collection } from '../../contract/index.ts';
import type { McpContext } from '../context.ts';
import { findCollection } from '../library.ts';
import { collectionSummary } from '../present.ts';
import { answer, guarded } from '../results.ts';
import { modelId } from './library.ts';

const collectionRef = z
  .string({ error: 'collection is required: a collection’s id (col_…) or its name.' })
  .min(1, { error: 'collection must not be empty.' })
  .describe('The collection: its id (col_…) or its name.');

const ids = z
  .array(z.string().min(1, { error: 'ids[] must not be empty.' }), {
    error: 'ids must be a list of model ids.',
  })
  .min(1, { error: 'ids must name at least one model.' })
  .max(1000, { error: 'ids takes at most 1000 models at once.' })
  .describe('The models’ ids (task_…), from search_library or generate.');

const name = z
  .string({ error: 'name is required: the collection’s name.' })
  .describe('The collection’s name (1–120 characters, unique in your library whatever the case).');

function registerCollectionList(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'list_collections',
    {
      title: 'List collections',
      description: 'Your collections, by name: id, how many models, share link.',
      inputSchema: z.strictObject({}),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      guarded({}, async () =>
        answer({
          collections: (await ctx.api.collections.list()).map((c) => collectionSummary(ctx.api, c)),
        }),
      ),
  );
  server.registerTool(
    'create_collection',
    {
      title: 'Create a collection',
      description: 'Makes a collection (a named group of models; a model may sit in several).',
      inputSchema: z.strictObject({ name }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    (args) =>
      guarded({}, async () =>
        answer({
          collection: collectionSummary(ctx.api, await ctx.api.collections.create(args.name)),
        }),
      ),
  );
}

/** `add_to_collection` or `remove_from_collection`: every id in requests Kiln takes at once. */
function registerMembers(server: McpServer, ctx: McpContext, action: 'add' | 'remove'): void {
  const adding = action === 'add';
  server.registerTool(
    adding ? 'add_to_collection' : 'remove_from_collection',
    {
      title: adding ? 'Add to a collection' : 'Remove from a collection',
      description: adding
        ? 'Puts models in a collection (all or none: an unknown id changes nothing).'
        : 'Takes models out of a collection; the models stay in the library.',
      inputSchema: z.strictObject({ collection: collectionRef, ids }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: !adding,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args) =>
      guarded({ params: { add: 'ids', remove: 'ids' }, notFound: 'collection' }, async () => {
        const target = await findCollection(ctx.api, args.collection);
        let now: Collection = target;
        const steps = adding ? membersSteps(args.ids) : membersSteps([], args.ids);
        for (const step of steps) now = await ctx.api.collections.members(target.id, step);
        return answer({ collection: collectionSummary(ctx.api, now) });
      }),
  );
}

function registerShares(server: McpServer, ctx: McpContext): void {
  server.registerTool(
    'share_model',
    {
      title: 'Share a model',
      description:
        'Makes a public, revocable link to a page showing the model (no key needed to view it), with an embed snippet; answers the one there is if it is shared already.',
      inputSchema: z.strictObject({ id: modelId }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args) =>
      guarded({ notFound: 'id' }, async () => {
        const share = await ctx.api.shares.of(args.id).create();
        return answer({
          id: args.id,
          url: share.url,
          embed_url: share.embed_url,
          embed_html: share.embed_html,
          created: new Date(share.created_ms).toISOString(),
        });
      }),
  );
  server.registerTool(
    'revoke_share',
    {
      title: 'Stop sharing a model',
      description: 'Revokes a model’s public link: the page and its files stop answering.',
      inputSchema: z.strictObject({ id: modelId }),
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args) =>
      guarded({ notFound: 'id' }, async () => {
        await ctx.api.shares.of(args.id).revoke();
        return answer({ id: args.id, shared: false });
      }),
  );
}

export function registerCollectionTools(server: McpServer, ctx: McpContext): void {
  registerCollectionList(server, ctx);
  registerMembers(server, ctx, 'add');
  registerMembers(server, ctx, 'remove');
  registerShares(server, ctx);
}
