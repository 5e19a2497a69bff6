// `npm run mcp`: Kiln's MCP server over stdio, for an assistant on this computer (Claude Desktop,
// Claude Code, Cursor…). It reads its environment (env.ts), talks to Kiln at KILN_URL through the
// one client, and may read local photos (image_path). Stdout is the protocol's: nothing else is
// written there; a bad environment is one line on stderr and exit code 2.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createKilnApi } from '../client/kiln/index.ts';
import { readMcpEnv } from './env.ts';
import { factsReader } from './facts.ts';
import { createKilnMcpServer } from './server.ts';

const env = readMcpEnv(process.env);
if (!env.ok) {
  process.stderr.write(`kiln mcp: ${env.problem}\n`);
  process.exit(2);
}

const facts = factsReader();
const server = createKilnMcpServer({
  api: createKilnApi(env.api),
  facts,
  localFiles: true,
  vendors: env.vendors,
});

let closing = false;
/** The host closed stdin or stopped us: end the threads and go. */
async function shutdown(code = 0): Promise<void> {
  if (closing) return;
  closing = true;
  await Promise.allSettled([server.close(), facts.close()]);
  process.exit(code);
}
process.stdin.on('end', () => void shutdown());
process.stdin.on('close', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

await server.connect(new StdioServerTransport());
