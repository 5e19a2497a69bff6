// Kiln's MCP server over streamable HTTP at `/mcp` on Kiln's own server (real HTTP on a loopback
// port), driven by the MCP SDK's own Client: the tools listed, a generate call's progress
// notifications, the same key as `/api` (none, a malformed one and a made-up one are refused with
// a 401 naming `authorization`), stateless (POST only), and no key in what it answers.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPhoto } from '../../testing/fixtures.ts';
import { startHttpKiln, type HttpKiln } from '../../testing/http-kiln.ts';
import { KEY } from '../../testing/server.ts';

let kiln: HttpKiln;
let mcpUrl: URL;

beforeAll(async () => {
  kiln = await startHttpKiln();
  mcpUrl = new URL('/mcp', kiln.baseUrl);
}, 60_000);
afterAll(() => kiln?.close());

async function connected(key: string): Promise<Client> {
  const client = new Client({ name: 'kiln-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(mcpUrl, {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

const textOf = (result: CallToolResult) =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** A raw MCP request, as a host sends its first one. */
const initialize = (headers: Record<string, string>, method = 'POST') =>
  fetch(mcpUrl, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    ...(method === 'POST'
      ? {
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'initialize',
            params: {
              protocolVersion: '2025-06-18',
              capabilities: {},
              clientInfo: { name: 't', version: '1' },
            },
          }),
        }
      : {}),
  });

describe('Kiln’s MCP server at /mcp', () => {
  it('lists its tools and makes a model, telling its progress, once per request_id', async () => {
    const client = await connected(KEY);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(16);
      const generate = tools.find((t) => t.name === 'generate')!;
      // No local files over HTTP.
      expect(Object.keys(generate.inputSchema.properties ?? {})).not.toContain('image_path');

      const progress: { progress: number; message?: string | undefined }[] = [];
      const data = `data:image/png;base64,${Buffer.from(readPhoto('chair.png')).toString('base64')}`;
      const result = (await client.callTool(
        {
          name: 'generate',
          arguments: { model: 'alpha', image_data: data, name: 'Chair', request_id: 'chair-1' },
        },
        undefined,
        { timeout: 120_000, onprogress: (p) => progress.push(p) },
      )) as CallToolResult;
      const text = textOf(result);
      expect(result.isError, text).toBeFalsy();
      const made = JSON.parse(text);
      expect(made).toMatchObject({
        done: true,
        model: { name: 'Chair', status: 'completed', archived: true },
        facts: { validator: { errors: 0 } },
      });
      expect(made.download_url.startsWith(`${kiln.baseUrl}/api/assets/`)).toBe(true);
      expect((await fetch(made.download_url)).status).toBe(200);
      expect(progress.length).toBeGreaterThan(2);
      expect(progress.at(-1)).toMatchObject({ progress: 100 });
      expect(progress.some((p) => /mesh|Initializing|Downloading/i.test(p.message ?? ''))).toBe(
        true,
      );

      // The same request_id again answers the first task: nothing is made or charged twice.
      const repeat = (await client.callTool({
        name: 'generate',
        arguments: { model: 'alpha', image_data: data, name: 'Chair', request_id: 'chair-1' },
      })) as CallToolResult;
      expect(JSON.parse(textOf(repeat)).task.task_id).toBe(made.task.task_id);

      const local = (await client.callTool({
        name: 'generate',
        arguments: { model: 'alpha', image_path: '/tmp/chair.png' },
      })) as CallToolResult;
      expect(local.isError).toBe(true);
      expect(textOf(local)).toMatch(/image_path/);

      const credits = (await client.callTool({ name: 'credits', arguments: {} })) as CallToolResult;
      for (const answered of [text, textOf(credits)]) {
        expect(answered).not.toContain(KEY);
        expect(answered.toLowerCase()).not.toContain('bearer ');
      }
    } finally {
      await client.close();
    }
  }, 120_000);

  it('refuses a call without the key, with a malformed one or a made-up one, as /api does', async () => {
    for (const headers of [
      {},
      { authorization: 'Basic a2lsbjo=' },
      { authorization: 'Bearer not-a-key' },
      { authorization: 'Bearer tr_made_up_key' },
    ]) {
      const res = await initialize(headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
      const body = (await res.json()) as { error: { param?: string; type: string } };
      expect(body.error).toMatchObject({ param: 'authorization', type: 'authentication_error' });
    }
    await expect(connected('tr_made_up_key')).rejects.toMatchObject({
      code: 401,
      message: expect.stringMatching(/does not accept this API key/),
    });
  });

  it('is stateless: POST answers without a session, other methods get 405', async () => {
    const res = await initialize({ authorization: `Bearer ${KEY}` });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    await res.body?.cancel();
    const get = await initialize({ authorization: `Bearer ${KEY}` }, 'GET');
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});
