// Resources: each library model (`kiln://models/{id}`: its entry; `…/model.glb`: the file;
// `…/picture.webp`: its picture) and each collection (`kiln://collections/{id}`: it and its
// models), listed newest first. Files come from Kiln's own copies, through the one client.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import type { Variables } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import { modelTitle, type LibraryEntry } from '../contract/index.ts';
import type { McpContext } from './context.ts';
import { collectionSummary, modelDetail, modelSummary } from './present.ts';

/** Models listed at most (the newest); older ones are read by their address all the same. */
const LISTED = 100;
/** Files larger than this are not inlined: the answer gives their download address instead. */
const INLINE_MAX_BYTES = 25_000_000;

const one = (v: Variables[string] | undefined) =>
  decodeURIComponent((Array.isArray(v) ? v[0] : v) ?? '');
const json = (uri: URL, value: unknown): ReadResourceResult => ({
  contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
});

const modelUri = (id: string, file = '') => `kiln://models/${encodeURIComponent(id)}${file}`;

/** A file of Kiln's (the model or its picture) as a blob, or its address when too large. */
async function file(ctx: McpContext, uri: URL, path: string | null | undefined, mimeType: string) {
  if (!path) throw new Error(`${uri.href}: there is no such file yet.`);
  const { bytes } = await ctx.api.download(path);
  if (bytes.byteLength > INLINE_MAX_BYTES)
    return json(uri, { too_large_to_inline: bytes.byteLength, download_url: ctx.api.url(path) });
  return {
    contents: [{ uri: uri.href, mimeType, blob: Buffer.from(bytes).toString('base64') }],
  };
}

/** One template over the newest models: `keep` says which have this resource. */
function modelTemplate(
  server: McpServer,
  ctx: McpContext,
  name: string,
  file: { suffix: string; mimeType: string; keep: (e: LibraryEntry) => boolean },
  read: (uri: URL, id: string) => Promise<ReadResourceResult>,
) {
  const listed = async () => {
    const page = await ctx.api.library.list({}, { limit: LISTED });
    return {
      resources: page.data.filter(file.keep).map((e) => ({
        uri: modelUri(e.id, file.suffix),
        name: `${modelTitle(e)}${file.suffix}`,
        mimeType: file.mimeType,
        description: `${e.model} · ${e.status}`,
      })),
    };
  };
  server.registerResource(
    name,
    new ResourceTemplate(`kiln://models/{id}${file.suffix}`, { list: listed }),
    { mimeType: file.mimeType },
    (uri, variables) => read(uri, one(variables.id)),
  );
}

export function registerResources(server: McpServer, ctx: McpContext): void {
  const { api } = ctx;
  modelTemplate(
    server,
    ctx,
    'model',
    { suffix: '', mimeType: 'application/json', keep: () => true },
    async (uri, id) => json(uri, modelDetail(api, await api.library.get(id))),
  );
  modelTemplate(
    server,
    ctx,
    'model-file',
    { suffix: '/model.glb', mimeType: 'model/gltf-binary', keep: (e) => e.archived },
    async (uri, id) => file(ctx, uri, (await api.library.get(id)).model_url, 'model/gltf-binary'),
  );
  modelTemplate(
    server,
    ctx,
    'model-picture',
    { suffix: '/picture.webp', mimeType: 'image/webp', keep: (e) => Boolean(e.thumbnail_url) },
    async (uri, id) => file(ctx, uri, (await api.library.get(id)).thumbnail_url, 'image/webp'),
  );
  server.registerResource(
    'collection',
    new ResourceTemplate('kiln://collections/{id}', {
      list: async () => ({
        resources: (await api.collections.list()).map((c) => ({
          uri: `kiln://collections/${encodeURIComponent(c.id)}`,
          name: c.name,
          mimeType: 'application/json',
          description: `${c.count} models`,
        })),
      }),
    }),
    { mimeType: 'application/json' },
    async (uri, variables) => {
      const id = one(variables.id);
      const collection = await api.collections.get(id);
      const page = await api.library.list({ collection: id }, { limit: LISTED });
      return json(uri, {
        ...collectionSummary(api, collection),
        models: page.data.map((e) => modelSummary(api, e)),
      });
    },
  );
}
