// For tests: the fal mock served over real HTTP on 127.0.0.1 (an ephemeral port), and the
// adapter pointed at it.
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { createFalMock, type FalMock, type FalMockDeps } from './app.ts';

export interface ServedFalMock extends FalMock {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Moves the mock's clock (and the adapter's, when it uses `now`) forward. */
  advance(ms: number): void;
  now(): number;
}

export async function serveFalMock(deps: Partial<FalMockDeps> & Pick<FalMockDeps, 'generator'>) {
  let offset = 0;
  const now = () => Date.now() + offset;
  const mock = createFalMock({ speed: 'fast', now, ...deps });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: mock.app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const served: ServedFalMock = {
    ...mock,
    url: `http://127.0.0.1:${port}`,
    advance: (ms) => void (offset += ms),
    now,
    async close() {
      await mock.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return served;
}
