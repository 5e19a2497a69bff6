// bench/scale: Kiln scaled out as docs/deploy.md describes (PostgreSQL, S3-compatible blobs, the
// standalone mock upstream, nginx round-robin), measured with autocannon through nginx, first
// with one replica behind it and then with two:
//   - polls/s and p50/p99 of GET /api/v1/tasks/{id} (a completed task),
//   - creates/s of POST /api/v1/3d/generations (beta-text, async),
//   - library reads/s (GET /api/library, the database on every request),
// and the two-to-one ratio of each. Prints figures; asserts nothing. Run: npm run bench:scale
import autocannon from 'autocannon';
import { cpus } from 'node:os';
import { STACK_KEY, startStack } from '../src/testing/stack.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const headers = { authorization: `Bearer ${STACK_KEY}`, 'content-type': 'application/json' };

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

interface Figures {
  polls: autocannon.Result;
  creates: autocannon.Result;
  library: autocannon.Result;
}

async function measure(replicas: number): Promise<Figures> {
  const stack = await startStack({ replicas, mockSpeed: 'instant', balance: 1_000_000_000 });
  try {
    const created = await fetch(`${stack.url}/api/v1/3d/generations`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: 'beta-text', prompt: 'a bench cube', mode: 'sync' }),
    });
    const { id } = (await created.json()) as { id: string };
    const common = { connections: CONNECTIONS, duration: DURATION, headers };
    // Warm every replica's connections and caches first.
    await run({ ...common, url: `${stack.url}/api/v1/tasks/${id}`, duration: 2 });
    const polls = await run({ ...common, url: `${stack.url}/api/v1/tasks/${id}` });
    const library = await run({ ...common, url: `${stack.url}/api/library?limit=20` });
    const creates = await run({
      ...common,
      url: `${stack.url}/api/v1/3d/generations`,
      method: 'POST',
      body: JSON.stringify({ model: 'beta-text', prompt: 'a bench cube' }),
    });
    const errors = [polls, library, creates].map((r) => r.non2xx + r.errors);
    if (errors.some((n) => n > 0))
      console.log(`  (${replicas} replica(s): non-2xx or errors ${errors.join('/')})`);
    return { polls, creates, library };
  } finally {
    await stack.stop();
  }
}

const one = await measure(1);
const two = await measure(2);

const rps = (r: autocannon.Result) => r.requests.average;
const row = (name: string, a: autocannon.Result, b: autocannon.Result) =>
  `| ${name.padEnd(14)} | ${rps(a).toFixed(0).padStart(7)} | ${a.latency.p50}/${a.latency.p99} ms`.padEnd(
    48,
  ) +
  ` | ${rps(b).toFixed(0).padStart(7)} | ${b.latency.p50}/${b.latency.p99} ms`.padEnd(27) +
  ` | ${(rps(b) / rps(a)).toFixed(2)}× |`;

console.log(
  `\nKiln through nginx: one replica vs two (${cpus().length} cores, ${CONNECTIONS} connections, ${DURATION} s each)\n`,
);
console.log(
  '| requests       | 1 replica/s | p50/p99           | 2 replicas/s | p50/p99   | ratio |',
);
console.log(
  '| -------------- | ----------- | ----------------- | ------------ | --------- | ----- |',
);
console.log(row('polls', one.polls, two.polls));
console.log(row('library reads', one.library, two.library));
console.log(row('creates', one.creates, two.creates));
