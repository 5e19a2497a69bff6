// bench/gallery: the gallery with 500 tasks, in headless Chromium.
//   - builds the SPA (vite build, into a temporary directory) and runs Kiln's real server app
//     in-process (startTestServer: the mock upstream, SQLite and blobs in a throwaway DATA_DIR),
//     served on a free loopback port;
//   - seeds BENCH_ENTRIES (default 500) library rows through the server's storage, filed under
//     the test key: prompts, single photos and view sets (the fixture photos, uploaded through
//     POST /api/uploads), completed (with a model picture, as a browser would have kept it),
//     failed and in progress, six models, credits 0–30;
//   - for each variant, BENCH_RUNS times in a fresh browser context: opens /gallery and takes
//     the time from navigation to the first card in the page and to its first paint after it;
//     then scrolls to the end one screen at a time, letting the gallery load its pages as it
//     does for a user, until every task is shown. Over the scroll: the main thread's CPU time
//     (Chromium's counters in thread ticks: script, layout and style, all tasks), in total and
//     per scroll step (a screen scrolled plus any page that arrived meanwhile); long tasks
//     (> 50 ms, wall) and the frame intervals requestAnimationFrame saw (wall: on a loaded
//     machine these follow the load more than the page). With every card shown: the CPU of
//     selecting a card (Space) and of one arrow key; the DOM's element count, Chromium's node count
//     and the JS heap;
//   - variants: the gallery as shipped (pages of 24, cards out of view skipped by
//     `content-visibility: auto`); the same with every card laid out
//     (`content-visibility: visible`), to see what skipping buys; pages of 96 (the page's
//     requests rewritten), to see what fewer requests buy.
// Prints figures; asserts nothing (exit 0). Run: npx tsx bench/gallery.ts
import { serve } from '@hono/node-server';
import { chromium, type Browser, type Page } from '@playwright/test';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import sharp from 'sharp';
import { build } from 'vite';
import { findChromium, NO_CHROMIUM_HELP } from '../scripts/chromium.mjs';
import type { LibraryImage } from '../src/contract/index.ts';
import { ownerHasher } from '../src/server/owner-id.ts';
import { diskBlobStore } from '../src/server/storage/blobs.ts';
import { PHOTOS_DIR } from '../src/testing/fixtures.ts';
import { KEY, startTestServer, type TestServer } from '../src/testing/server.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRIES = Math.max(1, Number(process.env.BENCH_ENTRIES ?? 500) || 500);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 3);
const VIEWPORT = { width: 1280, height: 800 };
/** startTestServer's secret: the owner id its server files KEY's tasks under. */
const OWNER = ownerHasher(Buffer.alloc(32, 7))(KEY);

interface Variant {
  name: string;
  /** CSS added to every page. */
  css?: string;
  /** The page size the gallery's library requests are rewritten to. */
  pageSize?: number;
}
const VARIANTS: Variant[] = [
  { name: 'as shipped (24 a page, content-visibility)' },
  {
    name: 'every card laid out (content-visibility: visible)',
    css: '.gallery-item { content-visibility: visible !important; }',
  },
  { name: 'pages of 96 (requests rewritten)', pageSize: 96 },
];

const PROMPTS = [
  'a red wooden chair',
  'a small blue vase',
  'a green ceramic mug',
  'an oak table',
  'a rocket ship',
  'a snowman with a scarf',
  'a brass desk lamp',
  'a pine tree',
  'a yellow toy car',
  'a stone house',
];
const MODELS_PHOTO = ['alpha', 'beta', 'gamma'];
const MODELS_VIEWS = ['alpha-multiview', 'beta-multiview'];

export async function seed(
  server: TestServer,
  entries = ENTRIES,
): Promise<{ photos: number; thumbnails: number }> {
  // The fixture photos, uploaded as a user would (kept with their names).
  const photos: LibraryImage[] = [];
  for (const file of readdirSync(PHOTOS_DIR).filter((f) => f.endsWith('.png'))) {
    const form = new FormData();
    form.set('file', new File([readFileSync(join(PHOTOS_DIR, file))], file, { type: 'image/png' }));
    const res = await server.request('/api/uploads', { method: 'POST', body: form });
    if (!res.ok) throw new Error(`upload of ${file}: ${res.status} ${await res.text()}`);
    const { url, sha256 } = (await res.json()) as { url: string; sha256: string };
    photos.push({ url, upload: `/api/uploads/${sha256}.png`, name: file });
  }
  // Model pictures as the browser keeps them (480 × 360 WebP): a shape on a soft stage.
  const blobs = diskBlobStore(join(server.dataDir, 'blobs'));
  const thumbnails: string[] = [];
  for (let i = 0; i < 12; i++) {
    const hue = (i * 30) % 360;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360"><ellipse cx="240" cy="300" rx="120" ry="18" fill="rgba(0,0,0,0.15)"/><path d="M${170 + i * 3} 290 L240 ${70 + i * 6} L${310 - i * 3} 290 Z" fill="hsl(${hue},60%,50%)"/></svg>`;
    const webp = await sharp(Buffer.from(svg)).webp({ quality: 80 }).toBuffer();
    thumbnails.push((await blobs.put('thumbnails', new Uint8Array(webp), 'webp')).sha256);
  }

  const start = 1_795_000_000;
  for (let i = 0; i < entries; i++) {
    const kind = i % 5 === 0 ? 'views' : i % 2 === 0 ? 'photo' : 'prompt';
    const status =
      i % 17 === 0 ? 'failed' : i === entries - 1 || i % 61 === 0 ? 'pending' : 'completed';
    const model =
      kind === 'views'
        ? MODELS_VIEWS[i % MODELS_VIEWS.length]!
        : kind === 'photo'
          ? MODELS_PHOTO[i % MODELS_PHOTO.length]!
          : 'beta-text';
    const images =
      kind === 'prompt'
        ? []
        : kind === 'photo'
          ? [photos[i % photos.length]!]
          : [0, 1, 2, 3].map((k) => photos[(i + k) % photos.length]!);
    const taskId = `task_bench_${String(i).padStart(4, '0')}`;
    await server.store.insert({
      owner: OWNER,
      taskId,
      model,
      mode: 'async',
      images,
      prompt: kind === 'prompt' ? `${PROMPTS[i % PROMPTS.length]} ${i}` : null,
      status,
      progress: status === 'completed' ? 100 : status === 'failed' ? 40 : 60,
      progressStage: null,
      created: start + i * 600,
      completedAt: status === 'completed' ? start + i * 600 + 35 : null,
      createdMs: (start + i * 600) * 1000,
      updatedMs: (start + i * 600 + 35) * 1000,
      creditsConsumed: status === 'completed' ? [10, 15, 20, 25, 30][i % 5]! : null,
      creditsRemaining: status === 'completed' ? 1000 - (i % 900) : null,
      error:
        status === 'failed'
          ? { message: 'No object could be told from the backdrop.', code: 'no_subject_found' }
          : null,
      upstreamModelUrl: status === 'completed' ? `https://upstream.invalid/${taskId}.glb` : null,
    });
    if (status === 'completed') {
      // Archived (the sha need not exist: the gallery only links it) with its picture kept.
      await server.store.archived(taskId, i.toString(16).padStart(64, '0'));
      await server.store.setThumbnail(OWNER, taskId, thumbnails[i % thumbnails.length]!);
    }
    if (i % 9 === 0) await server.store.setFavourite(OWNER, taskId, true);
  }
  return { photos: photos.length, thumbnails: thumbnails.length };
}

const QUERY_RUNS = 20;

/** The server's side: one page of the list for a few searches, filters and orders. */
async function serverQueries(server: TestServer) {
  const out: { query: string; ms: number; count: number }[] = [];
  for (const query of [
    'limit=24',
    'limit=24&q=chair',
    'limit=24&q=chair.png',
    'limit=24&sort=credits',
    'limit=24&kind=photo&status=completed&favourite=1',
    'limit=24&q=nothing-matches-this',
  ]) {
    const times: number[] = [];
    let count = 0;
    for (let i = 0; i < QUERY_RUNS; i++) {
      const t = performance.now();
      const res = await server.request(`/api/library?${query}`);
      count = ((await res.json()) as { data: unknown[] }).data.length;
      times.push(performance.now() - t);
    }
    out.push({ query, ms: median(times), count });
  }
  return out;
}

interface RunResult {
  firstCardMs: number;
  firstCardPaintMs: number;
  scrollMs: number;
  requests: number;
  cards: number;
  elements: number;
  nodes: number;
  heapMb: number;
  scriptMs: number;
  layoutMs: number;
  styleMs: number;
  taskMs: number;
  longTasks: number;
  longTaskMs: number;
  frameP50: number;
  frameP95: number;
  frameMax: number;
  /** Main-thread CPU of each scroll step (a screen scrolled, and any page that arrived). */
  stepP50: number;
  stepP95: number;
  stepMax: number;
  /** Main-thread CPU of selecting one card, and of an arrow key, with every card shown. */
  selectMs: number;
  arrowMs: number;
}

/** Runs in the page before its scripts: marks the first card, counts long tasks and frames. */
const PAGE_PROBE = `(() => {
  const probe = (window.__probe = { firstCard: 0, firstCardPaint: 0, longTasks: [], frames: [], recording: false });
  new MutationObserver((_, observer) => {
    if (document.querySelector('.gallery-card')) {
      probe.firstCard = performance.now();
      requestAnimationFrame(() => setTimeout(() => (probe.firstCardPaint = performance.now()), 0));
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
  try {
    new PerformanceObserver((list) => {
      if (!probe.recording) return;
      for (const e of list.getEntries()) probe.longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  } catch {}
  let last = 0;
  const frame = (t) => {
    if (probe.recording && last) probe.frames.push(t - last);
    last = t;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;

/** Chromium's counters (Performance.getMetrics) from one CDP session kept for the page. */
async function counters(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  return async (): Promise<Record<string, number>> => {
    const { metrics: list } = await cdp.send('Performance.getMetrics');
    return Object.fromEntries(list.map((m) => [m.name, m.value]));
  };
}

const quantile = (values: number[], q: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const median = (values: number[]) => quantile(values, 0.5);

async function run(browser: Browser, origin: string, variant: Variant): Promise<RunResult> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript((k) => localStorage.setItem('kiln.apiKey', k), KEY);
  await context.addInitScript(PAGE_PROBE);
  if (variant.css)
    await context.addInitScript((css) => {
      document.addEventListener('DOMContentLoaded', () => {
        const style = document.createElement('style');
        style.textContent = css;
        document.head.append(style);
      });
    }, variant.css);
  // Nothing leaves the machine: any request to another origin is refused.
  await context.route(
    (url) => url.origin !== origin,
    (route) => route.abort(),
  );
  let requests = 0;
  await context.route(/\/api\/library\?/, async (route) => {
    requests++;
    if (!variant.pageSize) return route.continue();
    const url = new URL(route.request().url());
    url.searchParams.set('limit', String(variant.pageSize));
    return route.continue({ url: url.toString() });
  });
  const page = await context.newPage();
  const metrics = await counters(page);
  await page.goto(`${origin}/gallery`);
  await page.waitForSelector('.gallery-card');
  await page.waitForFunction(
    () => (window as unknown as { __probe: { firstCardPaint: number } }).__probe.firstCardPaint > 0,
  );
  const first = (await page.evaluate(
    () => (window as unknown as { __probe: { firstCard: number; firstCardPaint: number } }).__probe,
  )) as {
    firstCard: number;
    firstCardPaint: number;
  };
  await page.waitForTimeout(300);

  const before = await metrics();
  await page.evaluate(
    () => ((window as unknown as { __probe: { recording: boolean } }).__probe.recording = true),
  );
  const started = performance.now();
  const steps: number[] = [];
  let last = before.TaskDuration ?? 0;
  // One screen at a time, as a reader scrolls; the gallery loads its pages as it goes.
  for (let step = 0; step < 5000; step++) {
    const state = await page.evaluate(async () => {
      window.scrollBy(0, Math.round(window.innerHeight * 0.9));
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const atEnd =
        window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 4;
      return {
        atEnd,
        cards: document.querySelectorAll('.gallery-card').length,
        more: Boolean(document.querySelector('.gallery-more')),
      };
    });
    const now = (await metrics()).TaskDuration ?? 0;
    steps.push((now - last) * 1000);
    last = now;
    if (state.atEnd && !state.more) break;
    if (state.atEnd) await page.waitForTimeout(50);
  }
  const scrollMs = performance.now() - started;
  await page.evaluate(
    () => ((window as unknown as { __probe: { recording: boolean } }).__probe.recording = false),
  );
  const after = await metrics();
  const probe = (await page.evaluate(
    () => (window as unknown as { __probe: { longTasks: number[]; frames: number[] } }).__probe,
  )) as {
    longTasks: number[];
    frames: number[];
  };
  const counts = await page.evaluate(() => ({
    cards: document.querySelectorAll('.gallery-card').length,
    elements: document.getElementsByTagName('*').length,
  }));

  // With every card shown: what one selection and one arrow key cost the main thread.
  const frames = () =>
    page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const cpu = async (act: () => Promise<unknown>) => {
    await frames();
    const a = (await metrics()).TaskDuration ?? 0;
    await act();
    await frames();
    return (((await metrics()).TaskDuration ?? 0) - a) * 1000;
  };
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('.gallery-card').first().focus();
  // Space selects the focused card (the key, not a click: Playwright's checks before a click
  // run scripts in the page and would be counted too).
  const select: number[] = [];
  for (let i = 0; i < 4; i++) select.push(await cpu(() => page.keyboard.press('Space')));
  const arrows: number[] = [];
  for (let i = 0; i < 8; i++) arrows.push(await cpu(() => page.keyboard.press('ArrowRight')));
  await context.close();
  const delta = (name: string) => ((after[name] ?? 0) - (before[name] ?? 0)) * 1000;
  return {
    firstCardMs: first.firstCard,
    firstCardPaintMs: first.firstCardPaint,
    scrollMs,
    requests,
    cards: counts.cards,
    elements: counts.elements,
    nodes: after.Nodes ?? 0,
    heapMb: (after.JSHeapUsedSize ?? 0) / 1_048_576,
    scriptMs: delta('ScriptDuration'),
    layoutMs: delta('LayoutDuration'),
    styleMs: delta('RecalcStyleDuration'),
    taskMs: delta('TaskDuration'),
    longTasks: probe.longTasks.length,
    longTaskMs: probe.longTasks.reduce((s, d) => s + d, 0),
    frameP50: quantile(probe.frames, 0.5),
    frameP95: quantile(probe.frames, 0.95),
    frameMax: Math.max(0, ...probe.frames),
    stepP50: quantile(steps, 0.5),
    stepP95: quantile(steps, 0.95),
    stepMax: Math.max(0, ...steps),
    selectMs: median(select),
    arrowMs: median(arrows),
  };
}

async function main() {
  const found = await findChromium();
  if (!found) {
    console.log(NO_CHROMIUM_HELP);
    return;
  }
  const temporary: string[] = [];
  let server: TestServer | undefined;
  let http: Server | undefined;
  let browser: Browser | undefined;
  try {
    const t0 = performance.now();
    const staticDir = mkdtempSync(join(tmpdir(), 'kiln-bench-gallery-dist-'));
    temporary.push(staticDir);
    await build({
      root: ROOT,
      logLevel: 'silent',
      build: {
        outDir: staticDir,
        emptyOutDir: true,
        sourcemap: false,
        reportCompressedSize: false,
      },
    });
    const buildSeconds = (performance.now() - t0) / 1000;
    server = await startTestServer({ staticDir });
    const t1 = performance.now();
    const seeded = await seed(server);
    const seedSeconds = (performance.now() - t1) / 1000;
    const queries = await serverQueries(server);
    const app = server.app;
    http = await new Promise<Server>((resolve) => {
      const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () =>
        resolve(s as Server),
      );
    });
    const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      args: found.args,
      ...(found.executablePath ? { executablePath: found.executablePath } : {}),
    });

    console.log(
      `bench/gallery: ${ENTRIES} tasks (${seeded.photos} photos, ${seeded.thumbnails} model pictures), ${RUNS} runs per variant`,
    );
    console.log(
      `Chromium ${browser.version()} (${found.kind}), viewport ${VIEWPORT.width}×${VIEWPORT.height}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}; build ${buildSeconds.toFixed(1)} s, seeding ${seedSeconds.toFixed(1)} s`,
    );
    console.log(
      `GET /api/library over ${ENTRIES} rows, in-process, median of ${QUERY_RUNS}: ${queries
        .map((q) => `${q.query} ${q.ms.toFixed(1)} ms (${q.count})`)
        .join('; ')}`,
    );
    const table: string[][] = [];
    for (const variant of VARIANTS) {
      const results: RunResult[] = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await run(browser, origin, variant);
        results.push(r);
        console.log(
          `  ${variant.name} #${i + 1}: first card ${r.firstCardMs.toFixed(0)} ms (painted ${r.firstCardPaintMs.toFixed(0)}), ${r.cards} cards after ${r.requests} requests, scroll ${r.scrollMs.toFixed(0)} ms: script ${r.scriptMs.toFixed(0)} ms, layout ${r.layoutMs.toFixed(0)} ms, style ${r.styleMs.toFixed(0)} ms, tasks ${r.taskMs.toFixed(0)} ms, long tasks ${r.longTasks} (${r.longTaskMs.toFixed(0)} ms), frames p50 ${r.frameP50.toFixed(1)} / p95 ${r.frameP95.toFixed(1)} / max ${r.frameMax.toFixed(0)} ms, CPU per step p50 ${r.stepP50.toFixed(1)} / p95 ${r.stepP95.toFixed(1)} / max ${r.stepMax.toFixed(0)} ms; select ${r.selectMs.toFixed(1)} ms, arrow ${r.arrowMs.toFixed(1)} ms; ${r.elements} elements, ${r.nodes} nodes, heap ${r.heapMb.toFixed(1)} MB`,
        );
      }
      const m = (f: (r: RunResult) => number, digits = 0) => median(results.map(f)).toFixed(digits);
      table.push([
        variant.name,
        m((r) => r.firstCardMs),
        m((r) => r.firstCardPaintMs),
        m((r) => r.requests),
        m((r) => r.scriptMs),
        m((r) => r.layoutMs + r.styleMs),
        m((r) => r.taskMs),
        `${m((r) => r.longTasks)} / ${m((r) => r.longTaskMs)}`,
        `${m((r) => r.frameP50, 1)} / ${m((r) => r.frameP95, 1)} / ${m((r) => r.frameMax)}`,
        `${m((r) => r.stepP50, 1)} / ${m((r) => r.stepP95, 1)} / ${m((r) => r.stepMax)}`,
        `${m((r) => r.selectMs, 1)} / ${m((r) => r.arrowMs, 1)}`,
        m((r) => r.elements),
        m((r) => r.nodes),
        m((r) => r.heapMb, 1),
      ]);
    }
    const head = [
      'variant',
      'first card ms',
      'painted ms',
      'requests',
      'scroll CPU: script ms',
      'layout+style ms',
      'all ms',
      'long tasks n / ms',
      'frame p50 / p95 / max ms',
      'CPU per scroll step p50 / p95 / max ms',
      'CPU select / arrow ms',
      'elements',
      'nodes',
      'heap MB',
    ];
    console.log(`\nMedians of ${RUNS} runs, ${ENTRIES} tasks, scrolled to the end:\n`);
    console.log(`| ${head.join(' | ')} |`);
    console.log(`| ${head.map(() => '---').join(' | ')} |`);
    for (const row of table) console.log(`| ${row.join(' | ')} |`);
  } finally {
    await browser?.close();
    if (http) {
      (http as Server).closeAllConnections();
      await new Promise<void>((resolve) => http!.close(() => resolve()));
    }
    await server?.close();
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  }
}

// Run as a script (imported, it only lends `seed`).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
