// bench/scale: Kiln scaled out as docs/deploy.md describes (PostgreSQL, S3-compatible blobs, the
// standalone mock upstream, nginx round-robin), measured with autocannon through nginx, first
// with one replica behind it and then with two:
//   - polls/s and p50/p99 of GET /api/v1/tasks/{id} (a completed task),
//   - creates/s of POST /api/v1/3d/generations (beta-text, async),
//   - library reads/s (GET /api/library, the database on every request),
// and the two-to-one ratio of each. Prints figures; asserts nothing. Run: npm run bench:scale
import autocannon from 'autocannon';
import { readFileSync, readdirSync } from 'node:fs';
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
  /** Where the CPU went during the polls run: seconds of CPU per part. */
  pollCpu: Record<string, number>;
}

/** CPU seconds used so far by each process (Linux /proc; empty elsewhere). */
function cpuTimes(): Map<number, { comm: string; seconds: number }> {
  const out = new Map<number, { comm: string; seconds: number }>();
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return out;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const seconds = (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in ticks
      out.set(Number(pid), { comm, seconds });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** CPU seconds per part between two snapshots. */
function cpuShares(
  before: ReturnType<typeof cpuTimes>,
  after: ReturnType<typeof cpuTimes>,
  parts: { replicas: number[]; mock: number },
): Record<string, number> {
  const shares: Record<string, number> = {};
  for (const [pid, { comm, seconds }] of after) {
    const used = seconds - (before.get(pid)?.seconds ?? 0);
    if (used <= 0) continue;
    const part = parts.replicas.includes(pid)
      ? 'replicas'
      : pid === parts.mock
        ? 'mock upstream'
        : pid === process.pid
          ? 'load generator'
          : comm === 'nginx'
            ? 'nginx'
            : comm.startsWith('postgres')
              ? 'PostgreSQL'
              : 'other';
    shares[part] = (shares[part] ?? 0) + used;
  }
  return shares;
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
    const cpuBefore = cpuTimes();
    const polls = await run({ ...common, url: `${stack.url}/api/v1/tasks/${id}` });
    const pollCpu = cpuShares(cpuBefore, cpuTimes(), {
      replicas: stack.replicas.map((r) => r.process?.child.pid ?? -1),
      mock: stack.mock.child.pid ?? -1,
    });
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
    return { polls, creates, library, pollCpu };
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

const cpuLine = (f: Figures) =>
  Object.entries(f.pollCpu)
    .sort((a, b) => b[1] - a[1])
    .map(([part, seconds]) => `${part} ${((seconds / DURATION) * 100).toFixed(0)} %`)
    .join(', ');
console.log(`\nCPU during the polls run (100 % = one core, ${cpus().length * 100} % available):`);
console.log(`  1 replica:  ${cpuLine(one)}`);
console.log(`  2 replicas: ${cpuLine(two)}`);
const perCpu = (f: Figures) => (rps(f.polls) * DURATION) / (f.pollCpu.replicas ?? 1);
console.log(
  `\nPolls per CPU-second of replica work: ${perCpu(one).toFixed(0)} with one replica, ${perCpu(two).toFixed(0)} with two.`,
);
console.log(
  `The run is bound by the machine's ${cpus().length} cores when the parts above add up to about ${cpus().length * 100} %.`,
);
