// Kiln's MCP server at `/mcp` with a vendor's model: the MCP SDK's own Client, the bearer key and
// the Meshy key in `x-provider-key-meshy`, against a real Kiln whose Meshy is the Meshy mock
// over HTTP. `generate` with meshy/meshy-6 makes the model, files it and answers its download.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readPhoto } from '../../testing/fixtures.ts';
import { MESHY_KEY, startKilnWithMeshy } from '../../testing/meshy.ts';
import { KEY } from '../../testing/server.ts';

let served: Awaited<ReturnType<typeof startKilnWithMeshy>>;

beforeAll(async () => {
  served = await startKilnWithMeshy();
}, 60_000);
afterAll(() => served?.close());

const textOf = (result: CallToolResult) =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

it('generate with a Meshy model and the Meshy key in x-provider-key-meshy completes', async () => {
  const client = new Client({ name: 'kiln-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', served.kiln.baseUrl), {
      requestInit: {
        headers: { authorization: `Bearer ${KEY}`, 'x-provider-key-meshy': MESHY_KEY },
      },
    }),
  );
  try {
    const data = `data:image/png;base64,${Buffer.from(readPhoto('chair.png')).toString('base64')}`;
    const result = (await client.callTool(
      { name: 'generate', arguments: { model: 'meshy/meshy-6', image_data: data, name: 'Chair' } },
      undefined,
      { timeout: 60_000 },
    )) as CallToolResult;
    const text = textOf(result);
    expect(result.isError, text).toBeFalsy();
    const made = JSON.parse(text) as { download_url: string; task: { task_id: string } };
    expect(made).toMatchObject({
      done: true,
      model: { name: 'Chair', model: 'meshy/meshy-6', status: 'completed', archived: true },
    });
    expect(made.task.task_id).toMatch(/^meshy_/);
    expect((await fetch(made.download_url)).status).toBe(200);
    expect(text).not.toContain(MESHY_KEY);
  } finally {
    await client.close();
  }
}, 60_000);
