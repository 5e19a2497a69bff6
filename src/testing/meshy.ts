// The Meshy mock on a real loopback port, and the Meshy adapter pointed at it (the provider's tests).
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createMeshyMock, type MeshyMock, type MeshyMockDeps } from '../mock/meshy/index.ts';
import { createMeshyAdapter } from '../providers/meshy/index.ts';
import type { ProviderAdapter, ProviderTask } from '../providers/types.ts';
import { configuredProviders } from '../server/providers/configure.ts';
import { startHttpKiln, type HttpKiln } from './http-kiln.ts';
import { fakeGenerator } from './mock.ts';

export const MESHY_KEY = 'msy_kilnTestKey000000000000000000000003';
export const MESHY_POOR_KEY = 'msy_kilnPoorKey000000000000000000000004';

export interface ServedMeshy {
  mock: MeshyMock;
  baseUrl: string;
  adapter: ProviderAdapter;
  /** Moves the mock's clock (not the timers) forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

/** The mock (fast, the fake generator unless given, no rate limit unless given) on 127.0.0.1. */
export async function serveMeshy(deps: MeshyMockDeps = {}): Promise<ServedMeshy> {
  let offset = 0;
  const mock = createMeshyMock({
    speed: 'fast',
    generator: fakeGenerator,
    requestsPerSecond: null,
    keys: [
      { key: MESHY_KEY, balance: 1000 },
      { key: MESHY_POOR_KEY, balance: 10 },
    ],
    now: () => Date.now() + offset,
    ...deps,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: mock.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    mock,
    baseUrl,
    adapter: createMeshyAdapter({ baseUrl, now: () => Date.now() + offset }),
    advance: (ms) => void (offset += ms),
    async close() {
      await mock.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Polls `get` every 100 ms until `done` holds (at most 15 s); returns every task seen. */
export async function pollMeshy(
  adapter: ProviderAdapter,
  key: string,
  ref: string,
  done: (t: ProviderTask) => boolean,
): Promise<ProviderTask[]> {
  const seen: ProviderTask[] = [];
  for (let i = 0; i < 150; i++) {
    const task = await adapter.get(key, ref);
    seen.push(task);
    if (done(task)) return seen;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`task ${ref} never reached the state awaited`);
}

/** A real Kiln on a loopback port (src/testing/http-kiln.ts) with Meshy at its mock, served too. */
export async function startKilnWithMeshy(): Promise<{
  kiln: HttpKiln;
  meshy: ServedMeshy;
  close(): Promise<void>;
}> {
  // Meshy fetches the photos Kiln keeps (its uploads), at Kiln's address once it is known.
  const origins: string[] = [];
  const meshy = await serveMeshy({ imagePolicy: { ownOrigins: () => origins } });
  const kiln = await startHttpKiln({
    providers: configuredProviders({ meshy: meshy.baseUrl }),
    // The mock's result addresses are on loopback: fetched as they are.
    fetchGlb: async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer()),
  });
  origins.push(kiln.baseUrl);
  return {
    kiln,
    meshy,
    async close() {
      await kiln.close();
      await meshy.close();
    },
  };
}
