// Polls through each provider's adapter against the same HTTP calls made directly to its mock, in
// one run (issue 34): what the adapter (its client, its zod parsing, its mapping) adds to a poll.
// Each vendor's mock is served on loopback with a stand-in generator; one task is made and left
// finished, then polled BENCH_POLLS times each way, interleaved in rounds so load drift hits both.
import { cpus, loadavg } from 'node:os';
import { serve } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Hono } from 'hono';
import { FAL_DEMO_KEYS, createFalMock } from '../src/mock/fal/app.ts';
import { MESHY_DEMO_KEYS, createMeshyMock } from '../src/mock/meshy/index.ts';
import { TRIPO_DEMO_KEYS, createTripoMock } from '../src/mock/tripo/app.ts';
import { createFalAdapter } from '../src/providers/fal/adapter.ts';
import { createMeshyAdapter } from '../src/providers/meshy/index.ts';
import { createTripoAdapter } from '../src/providers/tripo/adapter.ts';
import type { AdapterDeps, ProviderAdapter, ProviderInput } from '../src/providers/types.ts';
import { fakeGenerator, photoDataUri } from '../src/testing/mock.ts';

const POLLS = Number(process.env.BENCH_POLLS ?? 300);
const ROUNDS = 5;

interface Case {
  name: string;
  app: Hono;
  path: string;
  key: string;
  model: string;
  input: ProviderInput;
  adapter: (deps: AdapterDeps) => ProviderAdapter;
  close: () => Promise<void>;
}

function cases(): Case[] {
  const photo: ProviderInput = { kind: 'image', imageUrl: photoDataUri('chair.png') };
  const meshy = createMeshyMock({
    generator: fakeGenerator,
    speed: 'fast',
    requestsPerSecond: null,
  });
  const tripo = createTripoMock({ generator: fakeGenerator, speed: 'fast' });
  const fal = createFalMock({ generator: fakeGenerator, speed: 'fast' });
  return [
    {
      name: 'Meshy',
      app: meshy.app as unknown as Hono,
      path: '',
      key: MESHY_DEMO_KEYS[0].key,
      model: 'meshy-6',
      input: photo,
      adapter: createMeshyAdapter,
      close: () => meshy.close(),
    },
    {
      name: 'Tripo',
      app: tripo.app as unknown as Hono,
      path: '/v2/openapi',
      key: TRIPO_DEMO_KEYS[0]!.key,
      model: 'v2.5-20250123',
      input: photo,
      adapter: createTripoAdapter,
      close: () => tripo.close(),
    },
    {
      name: 'fal',
      app: fal.app,
      path: '',
      key: FAL_DEMO_KEYS[0]!.key,
      model: 'fal-ai/trellis',
      input: photo,
      adapter: (d) => createFalAdapter({ ...d, platformUrl: `${d.baseUrl}/v1` }),
      close: () => fal.close(),
    },
  ];
}

async function listen(app: Hono): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Runs `f` n times, one after another; ms per call. */
async function timed(n: number, f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await f();
  return (performance.now() - t0) / n;
}

async function measure(c: Case) {
  const served = await listen(c.app);
  // The adapter's own HTTP calls for one poll, recorded to be replayed raw.
  const calls: { url: string; init: RequestInit }[] = [];
  let recording = false;
  const recorder: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    if (recording) calls.push({ url: req.url, init: { method: req.method, headers: req.headers } });
    return fetch(req);
  };
  const adapter = c.adapter({ baseUrl: `${served.origin}${c.path}`, fetch: recorder });
  const created = await adapter.create(c.key, c.model, c.input);
  let task = created;
  for (let i = 0; i < 300 && task.status !== 'succeeded' && task.status !== 'failed'; i++) {
    await new Promise((r) => setTimeout(r, 100));
    task = await adapter.get(c.key, created.ref);
  }
  recording = true;
  await adapter.get(c.key, created.ref);
  recording = false;
  const direct = async () => {
    for (const call of calls) await (await fetch(call.url, call.init)).arrayBuffer();
  };
  const through = () => adapter.get(c.key, created.ref);
  await timed(20, direct); // warm both paths
  await timed(20, through);
  let directMs = 0;
  let adapterMs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    directMs += await timed(POLLS / ROUNDS, direct);
    adapterMs += await timed(POLLS / ROUNDS, through);
  }
  await served.close();
  await c.close();
  return {
    status: task.status,
    calls: calls.length,
    directMs: directMs / ROUNDS,
    adapterMs: adapterMs / ROUNDS,
  };
}

console.log(
  `bench:providers — ${POLLS} polls each way per provider, ${ROUNDS} interleaved rounds; ` +
    `${cpus().length} cores, Node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
);
console.log(
  'provider  task       HTTP calls/poll  direct ms/poll  adapter ms/poll  adapter/direct',
);
for (const c of cases()) {
  const m = await measure(c);
  console.log(
    `${c.name.padEnd(9)} ${m.status.padEnd(10)} ${String(m.calls).padStart(15)} ${m.directMs.toFixed(2).padStart(15)} ${m.adapterMs.toFixed(2).padStart(16)} ${(m.adapterMs / m.directMs).toFixed(2).padStart(15)}`,
  );
}
