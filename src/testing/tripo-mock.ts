// The Tripo mock served over real HTTP on 127.0.0.1 (an ephemeral port), with Kiln's generator
// on a worker thread: what the Tripo adapter's and the mock's contract tests talk to.
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import {
  GeneratorInputError,
  IMAGE_QUALITY,
  VIEWS_QUALITY,
  imageToGlb,
  promptToGlb,
  viewsToGlb,
} from '../generator/index.ts';
import { createGeneratorPool } from '../generator/runtime/pool.ts';
import { pooledGenerator } from '../mock/create.ts';
import { createTripoMock, type TripoMock, type TripoMockDeps } from '../mock/tripo/app.ts';
import type { TripoGenerator } from '../mock/tripo/generate.ts';

/** The real generator, in this thread. */
export const inThreadGenerator: TripoGenerator = {
  imageToGlb: (image, hooks) => imageToGlb(image, { ...IMAGE_QUALITY.standard, ...hooks }),
  viewsToGlb: (images, hooks) => viewsToGlb(images, { ...VIEWS_QUALITY.standard, ...hooks }),
  promptToGlb: (prompt, hooks) => promptToGlb(prompt, hooks),
  isInputError: (err) => err instanceof GeneratorInputError,
};

export interface ServedTripoMock {
  mock: TripoMock;
  /** Where the API is, as TRIPO_API_URL would say it (…/v2/openapi). */
  baseUrl: string;
  close(): Promise<void>;
}

/** Served with the generator on one worker thread, so that the server keeps answering. */
export async function serveTripoMock(deps: Partial<TripoMockDeps> = {}): Promise<ServedTripoMock> {
  const pool = createGeneratorPool({ threads: 1 });
  const mock = createTripoMock({ generator: pooledGenerator(pool), speed: 'fast', ...deps });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: mock.app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    mock,
    baseUrl: `http://127.0.0.1:${port}/v2/openapi`,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await mock.close();
      await pool.close();
    },
  };
}
