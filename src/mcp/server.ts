// Kiln's MCP server: the tools and resources over the one client for Kiln's `/api`
// (src/client/kiln). The same server runs over stdio (main.ts) and over streamable HTTP at
// `/mcp` on Kiln's own server (http.ts, src/server/mcp): only what the caller may read differs.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpContext } from './context.ts';
import { registerResources } from './resources.ts';
import { registerCollectionTools } from './tools/collections.ts';
import { registerExport } from './tools/export.ts';
import { registerGenerate } from './tools/generate.ts';
import { registerLibraryTools } from './tools/library.ts';
import { registerTaskTools } from './tools/tasks.ts';

export type { McpContext } from './context.ts';

const INSTRUCTIONS = `Kiln makes 3D models (GLB files) from a photo, 2–4 views of one object, or a prompt, and keeps them in the user's library with names, favourites, collections, share links and exports.
Use generate to make one (it costs credits; credits tells the balance), search_library and get_model to find and describe models, export_model for the web, a game engine or a 3D printer, and the collection and share tools to organise and publish them. Every URL answered is absolute; download URLs are signed for some hours and need no key.`;

/** The MCP server named "kiln" for one caller's client: every tool and resource registered. */
export function createKilnMcpServer(ctx: McpContext): McpServer {
  const server = new McpServer(
    { name: 'kiln', title: 'Kiln', version: '0.1.0' },
    { instructions: INSTRUCTIONS },
  );
  registerGenerate(server, ctx);
  registerTaskTools(server, ctx);
  registerLibraryTools(server, ctx);
  registerExport(server, ctx);
  registerCollectionTools(server, ctx);
  registerResources(server, ctx);
  return server;
}
