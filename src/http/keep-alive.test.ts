import { createServer, request, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { KEEP_ALIVE_MS, keepConnectionsOpen } from './keep-alive.ts';

describe('keep-alive', () => {
  it('keeps idle connections longer than nginx and browsers (60 s), headers a little longer', () => {
    const server = createServer();
    keepConnectionsOpen(server);
    expect(server.keepAliveTimeout).toBe(KEEP_ALIVE_MS);
    expect(KEEP_ALIVE_MS).toBeGreaterThan(60_000);
    expect(server.headersTimeout).toBeGreaterThan(server.keepAliveTimeout);
  });

  it('answers a second request on a connection left idle past Node’s default 5 s', async () => {
    const server = createServer((_, res) => res.end('ok'));
    keepConnectionsOpen(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const get = () =>
      new Promise<string>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, agent }, (res) => {
          sockets.add(res.socket);
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve(body));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      expect(await get()).toBe('ok');
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      expect(await get()).toBe('ok');
      expect(sockets.size, 'the same connection, still open').toBe(1);
    } finally {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
