// bench/soak: the scaled stack of docs/deploy.md (src/testing/stack.ts: two replicas, PostgreSQL,
// s3rver, the standalone mock, nginx; all loopback) driven for SOAK_MINUTES (default 20) by a
// few artists at a modest rate, through nginx, with a realistic mix: keyed creates (some sync)
// and their polls, library reads with filters, credits, uploads of fixture photos (each one
// slightly different, so every one is decoded and stored), model pictures kept and read, asset
// downloads, shared links (facts, preview, picture, GLB, page) and renames. Once a minute it
// prints each replica's resident memory (VmRSS from /proc) beside what V8 and Node say of it
// (/metrics: heap used and total, external), so a figure that grows can be placed: the JS heap,
// buffers, or native memory (libvips, the allocator). Prints figures; asserts nothing; stops by
// itself. Run: npm run bench:soak (SOAK_MINUTES, SOAK_ARTISTS; MALLOC_ARENA_MAX= for glibc's
// default arenas, decision 0096).
import sharp from 'sharp';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { PHOTO_NAMES, readPhoto } from '../src/testing/fixtures.ts';
import { STACK_KEY, startStack, type Stack } from '../src/testing/stack.ts';

const MINUTES = Math.max(1, Number(process.env.SOAK_MINUTES ?? 20));
const ARTISTS = Math.min(8, Math.max(1, Number(process.env.SOAK_ARTISTS ?? 4)));
const METRICS_TOKEN = 'soak-metrics-token-0123456789';
/** Pause between one artist's actions: 0.4–1.2 s (a few requests a second in all). */
const PAUSE_MS = [400, 1200] as const;
/** One artist's actions at most (a bound beside the time). */
const MAX_ACTIONS = MINUTES * 60 * 4;
/** Polls of one task at most, 1 s apart (the mock's `fast` speed ends a task in about 2 s). */
const MAX_POLLS = 60;

const PROMPTS = [
  'a red mug',
  'a small wooden chair',
  'a blue vase',
  'a green tree',
  'a yellow rocket',
  'a white snowman',
  'a brass lamp',
  'an orange pumpkin',
  'a grey robot',
  'a purple teapot',
  'a wooden table',
  'a red car',
];
const LIBRARY_QUERIES = [
  'limit=24',
  'limit=24&sort=oldest',
  'limit=24&sort=credits',
  'limit=24&status=completed',
  'limit=24&kind=prompt',
  'limit=24&kind=photo',
  'limit=24&model=beta-text',
  'limit=24&favourite=1',
  'limit=24&q=red',
  'limit=24&q=chair%20wooden',
  'limit=48',
];

interface Entry {
  id: string;
  status: string;
  model_url: string | null;
  archived: boolean;
  thumbnail_url?: string | null;
  share?: { url: string } | null;
}

/** Requests by what they were, and how they ended: per minute and in all. */
class Tally {
  requests = 0;
  byStatus = new Map<string, number>();
  unexpected = new Map<string, number>();
  count(kind: string, status: number | 'error', expected: readonly number[]) {
    this.requests++;
    const s = String(status);
    this.byStatus.set(s, (this.byStatus.get(s) ?? 0) + 1);
    if (status === 'error' || !expected.includes(status)) {
      const k = `${kind} ${s}`;
      this.unexpected.set(k, (this.unexpected.get(k) ?? 0) + 1);
    }
  }
  get unexpectedCount() {
    return [...this.unexpected.values()].reduce((a, b) => a + b, 0);
  }
}

const total = new Tally();
let minute = new Tally();

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One artist: a key, their tasks, and the stack's address. */
class Artist {
  readonly pending = new Map<string, { polls: number; nextMs: number }>();
  readonly done: Entry[] = [];
  readonly uploads: string[] = [];
  readonly shares: string[] = [];
  private n = 0;
  constructor(
    readonly base: string,
    readonly key: string,
    readonly index: number,
  ) {}

  async call(
    kind: string,
    path: string,
    init: RequestInit & { expect?: readonly number[]; timeoutMs?: number } = {},
  ): Promise<Response | undefined> {
    const expected = init.expect ?? [200];
    try {
      const res = await fetch(`${this.base}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${this.key}`, ...init.headers },
        signal: AbortSignal.timeout(init.timeoutMs ?? 30_000),
      });
      total.count(kind, res.status, expected);
      minute.count(kind, res.status, expected);
      return res;
    } catch {
      total.count(kind, 'error', expected);
      minute.count(kind, 'error', expected);
      return undefined;
    }
  }

  async json<T>(kind: string, path: string, init: Parameters<Artist['call']>[2] = {}) {
    const res = await this.call(kind, path, init);
    if (!res) return undefined;
    const body = await res.arrayBuffer().catch(() => undefined);
    if (!res.ok || !body) return undefined;
    try {
      return JSON.parse(new TextDecoder().decode(body)) as T;
    } catch {
      return undefined;
    }
  }

  /** Reads a body to its end (a download), counting it. */
  async drain(kind: string, path: string, expect: readonly number[] = [200]) {
    const res = await this.call(kind, path, { expect });
    await res?.arrayBuffer().catch(() => undefined);
  }

  /** One poll of each task that is due (the SPA's loop). */
  async pollDue() {
    const now = Date.now();
    for (const [id, p] of this.pending) {
      if (p.nextMs > now) continue;
      const task = await this.json<{ status: string }>('poll', `/api/v1/tasks/${id}`);
      p.polls++;
      p.nextMs = Date.now() + 1000;
      if (!task || ['completed', 'failed', 'cancelled'].includes(task.status)) {
        this.pending.delete(id);
        if (task?.status === 'completed') await this.refresh(id);
      } else if (p.polls >= MAX_POLLS) this.pending.delete(id);
    }
  }

  async refresh(id: string) {
    const entry = await this.json<Entry>('entry', `/api/library/${id}`);
    if (!entry) return;
    const i = this.done.findIndex((e) => e.id === id);
    if (i >= 0) this.done[i] = entry;
    else this.done.push(entry);
    if (this.done.length > 200) this.done.shift();
  }

  async create(photo: boolean) {
    const sync = !photo && Math.random() < 0.2;
    const image = photo ? pick(this.uploads) : undefined;
    if (photo && !image) return;
    const body = image
      ? { model: 'beta', image_url: image }
      : { model: 'beta-text', prompt: pick(PROMPTS), ...(sync ? { mode: 'sync' } : {}) };
    const task = await this.json<{ id: string; status: string }>(
      sync ? 'create (sync)' : 'create',
      '/api/v1/3d/generations',
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'idempotency-key': `soak-${this.index}-${Date.now()}-${this.n++}`,
        },
        body: JSON.stringify(body),
        expect: [200, 201, 202],
        timeoutMs: 70_000,
      },
    );
    if (!task) return;
    if (task.status === 'completed') await this.refresh(task.id);
    else this.pending.set(task.id, { polls: 0, nextMs: Date.now() + 1000 });
  }

  async upload() {
    const photo = readPhoto(pick(PHOTO_NAMES));
    // A slightly different photo each time: decoded, normalised and stored, never a duplicate.
    const bytes = await sharp(photo)
      .modulate({ hue: Math.floor(Math.random() * 360) })
      .png()
      .toBuffer();
    const res = await this.json<{ url: string }>('upload', '/api/uploads', {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: new Uint8Array(bytes),
      expect: [200, 201],
    });
    if (res?.url) {
      this.uploads.push(res.url);
      if (this.uploads.length > 20) this.uploads.shift();
    }
  }

  async keepPicture(entry: Entry) {
    const picture = await sharp(readPhoto(pick(PHOTO_NAMES)))
      .resize(320, 320, { fit: 'contain', background: '#20242c' })
      .modulate({ hue: Math.floor(Math.random() * 360) })
      .webp()
      .toBuffer();
    const after = await this.json<Entry>('thumbnail put', `/api/library/${entry.id}/thumbnail`, {
      method: 'PUT',
      headers: { 'content-type': 'image/webp' },
      body: new Uint8Array(picture),
    });
    if (after) Object.assign(entry, after);
  }

  async share(entry: Entry) {
    const link = await this.json<{ url: string }>('share', `/api/library/${entry.id}/share`, {
      method: 'POST',
      expect: [200, 201],
    });
    const token = link?.url.split('/s/')[1];
    if (token && !this.shares.includes(token)) this.shares.push(token);
  }

  async readShare(token: string) {
    await this.drain('share facts', `/api/shares/${token}`);
    await this.drain('share preview', `/api/shares/${token}/preview.jpg`);
    await this.drain('share picture', `/api/shares/${token}/thumbnail.webp`, [200, 404]);
    await this.drain('share glb', `/api/shares/${token}/model.glb`);
    // The page shell needs a built SPA (dist/); without one it is a 404.
    await this.drain('share page', `/s/${token}`, [200, 404]);
  }

  async act() {
    await this.pollDue();
    const archived = this.done.filter((e) => e.archived && e.model_url);
    const r = Math.random() * 100;
    if (r < 8) await this.create(false);
    else if (r < 10) await this.create(this.uploads.length > 0);
    else if (r < 14) await this.upload();
    else if (r < 40) await this.drain('library', `/api/library?${pick(LIBRARY_QUERIES)}`);
    else if (r < 52) await this.drain('credits', '/api/credits');
    else if (r < 58 && this.done.length > 0) await this.refresh(pick(this.done).id);
    else if (r < 66 && archived.length > 0) await this.drain('asset', pick(archived).model_url!);
    else if (r < 70 && archived.length > 0) {
      const bare = archived.filter((e) => !e.thumbnail_url);
      if (bare.length > 0) await this.keepPicture(pick(bare));
    } else if (r < 76 && archived.length > 0) {
      const pictured = archived.filter((e) => e.thumbnail_url);
      if (pictured.length > 0) await this.drain('thumbnail', pick(pictured).thumbnail_url!);
    } else if (r < 79 && archived.length > 0) await this.share(pick(archived));
    else if (r < 92 && this.shares.length > 0) await this.readShare(pick(this.shares));
    else if (r < 96 && this.done.length > 0) {
      const change =
        Math.random() < 0.5
          ? { name: `${pick(PROMPTS)} no. ${this.n++}` }
          : { favourite: Math.random() < 0.5 };
      const res = await this.call('rename', `/api/library/${pick(this.done).id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(change),
      });
      await res?.arrayBuffer().catch(() => undefined);
    } else await this.drain('library', '/api/library?limit=24');
  }

  async run(untilMs: number) {
    // A first photo, so that photo creates have something to use.
    await this.upload();
    for (let i = 0; i < MAX_ACTIONS && Date.now() < untilMs; i++) {
      await this.act();
      await sleep(PAUSE_MS[0] + Math.random() * (PAUSE_MS[1] - PAUSE_MS[0]));
    }
  }
}

/** A process's resident set from /proc in MB: all of it (VmRSS) and its anonymous part (RssAnon). */
function rssOf(pid: number | undefined): { rss: number; anon: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]);
    const rss = kb('VmRSS') / 1024;
    const anon = kb('RssAnon') / 1024;
    return Number.isNaN(rss) ? undefined : { rss, anon };
  } catch {
    return undefined;
  }
}

/** A variable of a running process's environment (from /proc), or undefined when it has none. */
function envOf(pid: number | undefined, name: string): string | undefined {
  try {
    const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    return env.find((e) => e.startsWith(`${name}=`))?.slice(name.length + 1);
  } catch {
    return undefined;
  }
}

interface Heap {
  used: number;
  total: number;
  external: number;
}

/** V8's heap and Node's external memory in MB, from a replica's own /metrics. */
async function heapOf(url: string): Promise<Heap | undefined> {
  try {
    const res = await fetch(`${url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    const value = (name: string) => {
      const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text);
      return m ? Number(m[1]) / 2 ** 20 : NaN;
    };
    return {
      used: value('nodejs_heap_size_used_bytes'),
      total: value('nodejs_heap_size_total_bytes'),
      external: value('nodejs_external_memory_bytes'),
    };
  } catch {
    return undefined;
  }
}

interface Sample {
  minute: number;
  rss: (number | undefined)[];
  /** RssAnon less V8's heap and Node's external memory: what malloc holds for native code. */
  native: (number | undefined)[];
  heap: (Heap | undefined)[];
  mockRss: number | undefined;
  requests: number;
  unexpected: number;
}

async function sample(stack: Stack, at: number): Promise<Sample> {
  const heap = await Promise.all(stack.replicas.map((r) => heapOf(r.url)));
  const rss = stack.replicas.map((r) => rssOf(r.process?.child.pid));
  const s: Sample = {
    minute: at,
    rss: rss.map((r) => r?.rss),
    native: rss.map((r, i) => {
      const h = heap[i];
      return r && h ? r.anon - h.total - h.external : undefined;
    }),
    heap,
    mockRss: rssOf(stack.mock.child.pid)?.rss,
    requests: minute.requests,
    unexpected: minute.unexpectedCount,
  };
  minute = new Tally();
  return s;
}

const mb = (n: number | undefined) => (n === undefined || Number.isNaN(n) ? '–' : n.toFixed(0));
const row = (s: Sample) =>
  `| ${String(s.minute).padStart(3)} | ` +
  s.rss
    .map(
      (rss, i) =>
        `${mb(rss).padStart(4)} | ${mb(s.heap[i]?.used).padStart(3)}/${mb(s.heap[i]?.total).padEnd(3)} | ${mb(s.heap[i]?.external).padStart(3)} | ${mb(s.native[i]).padStart(3)}`,
    )
    .join(' | ') +
  ` | ${mb(s.mockRss).padStart(4)} | ${String(s.requests).padStart(5)} | ${String(s.unexpected).padStart(3)} |`;

const header = (replicas: number) =>
  [
    `| min | ${Array.from({ length: replicas }, (_, i) => `r${i} RSS | r${i} heap used/total | r${i} ext | r${i} native`).join(' | ')} | mock RSS | requests | unexpected |`,
    `| --: | ${Array.from({ length: replicas }, () => '-----: | ----------------: | -----: | --------:').join(' | ')} | -------: | -------: | ---------: |`,
  ].join('\n');

const keys = Array.from({ length: ARTISTS }, (_, i) =>
  i === 0 ? STACK_KEY : `tr_soak_artist_${i}`,
);
const stack = await startStack({
  replicas: 2,
  mockSpeed: 'fast',
  balance: 1_000_000_000,
  keys: keys.slice(1).map((k) => `${k}:1000000000`),
  env: { METRICS_TOKEN },
});
const samples: Sample[] = [];
const startedMs = Date.now();
const untilMs = startedMs + MINUTES * 60_000;
try {
  console.log(
    `Soak: ${MINUTES} min, ${ARTISTS} artists through nginx at ${stack.url}; replicas ${stack.replicas
      .map((r) => {
        // Empty or unset: glibc's default arenas (8 a core); decision 0096.
        const arenas = envOf(r.process?.child.pid, 'MALLOC_ARENA_MAX');
        return `pid ${r.process?.child.pid} (MALLOC_ARENA_MAX=${arenas ?? '(unset)'})`;
      })
      .join(', ')}; ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  console.log(
    'Memory in MB per minute (RSS: VmRSS; heap: V8 used/total; ext: Node external; native: ' +
      'RssAnon less heap total and ext, what malloc holds for native code):\n',
  );
  console.log(header(stack.replicas.length));
  samples.push(await sample(stack, 0));
  console.log(row(samples[0]!));
  const artists = keys.map((k, i) => new Artist(stack.url, k, i));
  const running = Promise.all(artists.map((a) => a.run(untilMs)));
  for (let m = 1; m <= MINUTES; m++) {
    const due = startedMs + m * 60_000;
    while (Date.now() < due) await sleep(Math.min(1000, due - Date.now()));
    const s = await sample(stack, m);
    samples.push(s);
    console.log(row(s));
  }
  // The artists' last actions end within a sync create's wait at most.
  await Promise.race([running, sleep(90_000)]);
} finally {
  await stack.stop();
}

const last = samples.at(-1)!;
const warm = samples.find((s) => s.minute === Math.min(5, MINUTES)) ?? samples[0]!;
console.log(
  `\n${total.requests} requests; by status: ${[...total.byStatus]
    .sort()
    .map(([s, n]) => `${s} × ${n}`)
    .join(', ')}.`,
);
if (total.unexpected.size > 0)
  console.log(
    `Unexpected: ${[...total.unexpected]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} × ${n}`)
      .join(', ')}.`,
  );
for (const [i] of stack.replicas.entries()) {
  const rss = samples.map((s) => s.rss[i]).filter((n): n is number => n !== undefined);
  const after = samples
    .filter((s) => s.minute >= warm.minute)
    .map((s) => s.rss[i])
    .filter((n): n is number => n !== undefined);
  console.log(
    `Replica ${i}: RSS ${mb(samples[0]!.rss[i])} MB at start, ${mb(warm.rss[i])} MB at minute ${warm.minute}, ` +
      `${mb(last.rss[i])} MB at minute ${last.minute} (peak ${mb(Math.max(...rss))} MB; ` +
      `${mb((last.rss[i] ?? 0) - (warm.rss[i] ?? 0))} MB after minute ${warm.minute}, ` +
      `between ${mb(Math.min(...after))} and ${mb(Math.max(...after))} MB from then on).`,
  );
}
console.log(
  `Load average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}.`,
);
