// Tests only: a real Kiln (the server, its built-in mock with the real demo generator, SQLite in a
// temp folder) listening on a loopback port, for clients that talk HTTP to it: the Kiln client,
// the MCP server over HTTP and the command line. Kiln's PUBLIC_URL is that port, so the mock
// fetches Kiln's uploads from it as in mock mode.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { realGenerator } from './mock.ts';
import { startTestServer, type TestServer } from './server.ts';

export interface HttpKiln {
  kiln: TestServer;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  close(): Promise<void>;
}

export async function startHttpKiln(
  options: Parameters<typeof startTestServer>[0] = {},
): Promise<HttpKiln> {
  const started: { kiln?: TestServer } = {};
  // The port first: PUBLIC_URL names it.
  const http = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve(
      {
        fetch: (req) =>
          started.kiln ? started.kiln.app.fetch(req) : new Response('starting', { status: 503 }),
        hostname: '127.0.0.1',
        port: 0,
      },
      () => resolve(s),
    );
  });
  const baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const kiln = await startTestServer({
    publicUrl: baseUrl,
    ...options,
    mock: {
      generator: realGenerator,
      imagePolicy: { ownOrigins: () => [baseUrl] },
      ...options.mock,
    },
  });
  started.kiln = kiln;
  return {
    kiln,
    baseUrl,
    async close() {
      await new Promise((resolve) => http.close(resolve));
      await kiln.close();
    },
  };
}
