// bench/mock-throughput: start Kiln in mock mode as a user does, then measure with autocannon
//   - task creates per second (POST …/3d/generations, beta-text), directly at /mock/v1 and through
//     the /api/v1 proxy,
//   - throughput and p50/p99 latency of task queries (GET …/tasks/{id}), directly and proxied,
// and print the proxy's share of direct throughput and what it adds at p50 (the budget: polls
// ≥ 70 % of direct, ≤ 1 ms added). Prints figures; asserts nothing. Run: npm run bench:mock
import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnEntry } from '../src/testing/spawn-server.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const KEY = 'tr_bench_key';
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

const dataDir = mkdtempSync(join(tmpdir(), 'kiln-bench-'));
const server = await spawnEntry('src/server/main.ts', {
  DATA_DIR: dataDir,
  MOCK_SPEED: 'fast',
  MOCK_KEYS: `${KEY}:1000000000`,
  MOCK_RATE_LIMIT: '0',
  CREATE_RATE_LIMIT: '0',
});

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

try {
  const created = await fetch(`${server.url}/mock/v1/3d/generations`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: 'beta-text', prompt: 'a cube' }),
  });
  const { id } = (await created.json()) as { id: string };

  const createRun = (base: string) =>
    run({
      url: `${server.url}${base}/3d/generations`,
      method: 'POST',
      headers,
      body: JSON.stringify({ model: 'beta-text', prompt: 'a bench cube' }),
      connections: CONNECTIONS,
      duration: DURATION,
    });
  const creates = await createRun('/mock/v1');
  // Let the created tasks drain so they do not load the next runs.
  await new Promise((r) => setTimeout(r, 5000));
  const proxiedCreates = await createRun('/api/v1');
  await new Promise((r) => setTimeout(r, 5000));
  const queries = await run({
    url: `${server.url}/mock/v1/tasks/${id}`,
    headers,
    connections: CONNECTIONS,
    duration: DURATION,
  });
  const proxied = await run({
    url: `${server.url}/api/v1/tasks/${id}`,
    headers,
    connections: CONNECTIONS,
    duration: DURATION,
  });

  const line = (name: string, r: autocannon.Result) =>
    `${name.padEnd(34)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   non-2xx ${r.non2xx}`;
  console.log(
    `\nmock throughput — ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown cpu'}), node ${process.version}, ${CONNECTIONS} connections, ${DURATION} s each`,
  );
  console.log(line('creates  POST /mock/v1/3d/generations', creates));
  console.log(line('creates  POST /api/v1/3d/generations (proxy)', proxiedCreates));
  console.log(line('queries  GET  /mock/v1/tasks/{id}', queries));
  console.log(line('queries  GET  /api/v1/tasks/{id} (proxy)', proxied));
  const share = (a: autocannon.Result, b: autocannon.Result) =>
    `${((100 * a.requests.average) / b.requests.average).toFixed(0)} %`;
  console.log(
    `proxied polls: ${share(proxied, queries)} of direct throughput, +${proxied.latency.p50 - queries.latency.p50} ms at p50 (budget ≥ 70 %, ≤ 1 ms)`,
  );
  console.log(
    `proxied creates: ${share(proxiedCreates, creates)} of direct throughput, +${proxiedCreates.latency.p50 - creates.latency.p50} ms at p50`,
  );
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
