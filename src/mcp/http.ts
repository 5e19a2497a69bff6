// One MCP exchange over streamable HTTP, stateless (no session id): a fresh transport and server
// answer each POST, so any replica can take any request. The answer is the transport's own (an
// SSE stream carrying progress notifications, then the result); the server is closed once the
// stream has ended or the caller has gone.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { IMAGE_MAX_BYTES } from '../formats/index.ts';

/** The largest request: a photo at Kiln's limit, as a base64 data URI, and the rest of the call. */
const MAX_BODY_BYTES = Math.ceil((IMAGE_MAX_BYTES * 4) / 3) + 1_000_000;

export async function answerMcp(request: Request, server: McpServer): Promise<Response> {
  // No sessionIdGenerator: stateless, no session id given or asked for.
  const transport = new WebStandardStreamableHTTPServerTransport({
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    void server.close().catch(() => {});
  };
  request.signal.addEventListener('abort', close, { once: true });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    if (!response.body) {
      close();
      return response;
    }
    const body = response.body.pipeThrough(new TransformStream({ flush: close }));
    return new Response(body, { status: response.status, headers: response.headers });
  } catch (err) {
    close();
    throw err;
  }
}
