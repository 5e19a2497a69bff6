// bench/viewer: Kiln's viewer against Google's <model-viewer>, in one headless Chromium run.
//   - builds the SPA (vite build, into a temporary directory), makes the viewer fixtures
//     (scripts/make-viewer-fixtures.ts) and Kiln's image-to-3D model of the chair photo;
//   - serves it all from ONE HTTP server on a free port: /bench/* are the bench's own routes
//     (the GLBs, the <model-viewer> page and its script), everything else is Kiln's real server
//     app (createServerApp with the built SPA as staticDir);
//   - for each file and each viewer, in a fresh browser context (cold cache): time from
//     navigation start to the first frame showing the model, and the JS bytes transferred by
//     then. Kiln marks `kiln:viewer:first-frame` on /viewer?src=…; <model-viewer> is timed at its
//     `poster-dismissed` event (or `model-visibility` with visible: true), marked `mv:first-frame`;
//   - requests to any other origin are blocked and counted (both viewers must make none);
//   - BENCH_RUNS runs (default 3), the order of the two viewers alternating; medians, with the
//     fastest and slowest run in brackets.
// Prints figures; asserts nothing (exit 0). Run: npm run bench:viewer
// BENCH_TIMEOUT_MS (default 60000) bounds the wait for a first frame.
// BENCH_PROFILE=phone measures as a phone would (issue 36): a 390 × 844 viewport, the CPU
// slowed 4× and the network at slow 4G (1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip),
// both through the DevTools protocol, the same for both viewers.
// BENCH_PAGE=share measures the share page instead (/s/{token} for a stranger, no key): each file
// made a shared model of Kiln's server with its picture kept (share-pages.ts), against a
// <model-viewer> page with that picture as its poster; both pages' largest paint is printed too.
// On /viewer both viewers load the file from its address on Kiln's server (a shared model's GLB),
// or, with BENCH_SOURCE=raw, from a bench route that sends it as it is (see RAW below).
import { serve } from '@hono/node-server';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { Hono } from 'hono';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, deflateSync, gzipSync } from 'node:zlib';
import { build } from 'vite';
import { findChromium, NO_CHROMIUM_HELP } from '../scripts/chromium.mjs';
import { makeViewerFixtures } from '../src/testing/viewer-fixtures.ts';
import { PHOTOS_DIR } from '../src/testing/fixtures.ts';
import { imageToGlb } from '../src/generator/index.ts';
import { realGenerator } from '../src/testing/mock.ts';
import { startTestServer, type TestServer } from '../src/testing/server.ts';
import { shareFiles, type SharedFile } from './share-pages.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 3);
const TIMEOUT_MS = Math.max(1000, Number(process.env.BENCH_TIMEOUT_MS ?? 60_000) || 60_000);
const PHONE = process.env.BENCH_PROFILE === 'phone';
const SHARE = process.env.BENCH_PAGE === 'share';
// Where /viewer's file comes from. By default the address Kiln's server gives the model (a shared
// model's GLB: served as every address /viewer may open is, compressed for a browser that takes
// it); BENCH_SOURCE=raw: a bench route on the same origin sending the file as it is, which no
// Kiln page names (/viewer opens only this origin's paths, all of them Kiln's).
const RAW = process.env.BENCH_SOURCE === 'raw';
if (process.env.BENCH_SOURCE && !RAW)
  throw new Error(`BENCH_SOURCE: "${process.env.BENCH_SOURCE}" is not a source (raw, or unset).`);
if (process.env.BENCH_PROFILE && !PHONE)
  throw new Error(
    `BENCH_PROFILE: "${process.env.BENCH_PROFILE}" is not a profile (phone, or unset).`,
  );
const VIEWPORT = PHONE ? { width: 390, height: 844 } : { width: 1280, height: 720 };
/** The phone profile's throttling (Chrome DevTools' "Slow 4G" network, a mid-range phone's CPU). */
const PHONE_THROTTLING = {
  cpuRate: 4,
  network: { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 93_750 },
};
const MODEL_VIEWER_JS = join(ROOT, 'node_modules/@google/model-viewer/dist/model-viewer.min.js');
const MESHOPT_DECODER_JS = join(ROOT, 'node_modules/meshoptimizer/meshopt_decoder.cjs');
/** BENCH_VERBOSE=1 prints each page's performance marks and console warnings. */
const VERBOSE = Boolean(process.env.BENCH_VERBOSE);
/** BENCH_FILES=a.glb,b.glb (or a,b) measures only these. */
const ONLY = (process.env.BENCH_FILES ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)
  .map((s) => (s.endsWith('.glb') ? s : `${s}.glb`));

/** A new page; under the phone profile, with its CPU and network throttled before it navigates. */
async function openPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  if (!PHONE) return page;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE_THROTTLING.cpuRate });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', PHONE_THROTTLING.network);
  return page;
}

type ViewerName = 'Kiln' | 'model-viewer';
const VIEWERS: readonly ViewerName[] = ['Kiln', 'model-viewer'];
const MARKS: Record<ViewerName, string> = {
  Kiln: 'kiln:viewer:first-frame',
  'model-viewer': 'mv:first-frame',
};

// ---------------------------------------------------------------------------------------------
// The <model-viewer> page. Its Draco and Basis decoders are Kiln's own (/decoders/, same bytes,
// same origin): by default <model-viewer> fetches them from www.gstatic.com, which the bench
// blocks. It reads EXT_meshopt_compression only when given meshoptDecoderLocation, a classic
// script it loads up front on every page (then it uses the decoder bundled in it): given here,
// meshoptimizer's own decoder, as a site that may show any GLB would configure it.

/** Runs before model-viewer.min.js (module scripts run in document order, after parsing). */
const MV_TIMING_JS = `// bench/viewer: configures <model-viewer> and marks its first frame.
self.ModelViewerElement = Object.assign(self.ModelViewerElement || {}, {
  dracoDecoderLocation: '/decoders/draco/',
  ktx2TranscoderLocation: '/decoders/basis/',
  meshoptDecoderLocation: '/bench/meshopt_decoder.js',
});
const viewer = document.querySelector('model-viewer');
let marked = false;
const firstFrame = () => {
  if (marked) return;
  marked = true;
  performance.mark('mv:first-frame');
};
viewer.addEventListener('load', () => performance.mark('mv:load'));
viewer.addEventListener('poster-dismissed', firstFrame);
viewer.addEventListener('model-visibility', (event) => {
  if (event.detail && event.detail.visible === true) firstFrame();
});
viewer.addEventListener('error', (event) => {
  const type = event.detail && event.detail.type;
  performance.mark('mv:error', { detail: String(type) });
});
`;

const escapeAttribute = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function modelViewerPage(src: string, poster: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>model-viewer — bench</title>
<style>html,body{margin:0;height:100%;overflow:hidden;background:#fff}model-viewer{display:block;width:100vw;height:100vh}</style>
<script type="module" src="/bench/mv-timing.js"></script>
<script type="module" src="/bench/model-viewer.min.js"></script>
</head>
<body>
<model-viewer src="${escapeAttribute(src)}"${poster ? ` poster="${escapeAttribute(poster)}"` : ''} camera-controls alt="bench model"></model-viewer>
</body>
</html>
`;
}

// ---------------------------------------------------------------------------------------------
// Content-Encoding: the bench's JS goes out as Kiln's own JS does, for the same Accept-Encoding.

type Encoding = 'br' | 'gzip' | 'deflate' | 'identity';
const encoded = new Map<string, Uint8Array>();

function encode(body: Uint8Array, encoding: Encoding, key: string): Uint8Array {
  const cacheKey = `${key}:${encoding}`;
  let out = encoded.get(cacheKey);
  if (!out) {
    if (encoding === 'br')
      out = brotliCompressSync(body, {
        params: {
          [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
          [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      });
    else if (encoding === 'gzip') out = gzipSync(body, { level: 9 });
    else if (encoding === 'deflate') out = deflateSync(body, { level: 9 });
    else out = body;
    encoded.set(cacheKey, out);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Setup: build, fixtures, server.

/** " (min–max)" of runs' figures, when there are several; "" for one. */
function spread(values: number[]): string {
  if (values.length < 2) return '';
  const shown = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '—');
  return ` (${shown(Math.min(...values))}–${shown(Math.max(...values))})`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const temporary: string[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

/**
 * Kiln's real server app, composed as the tests compose it (test-server.ts): the in-process mock
 * upstream, SQLite and blobs in a temporary DATA_DIR, and the build as its static files. Its mock
 * answers a prompt naming a bench file with that file (BENCH_PAGE=share).
 */
function startKiln(staticDir: string, files: ReadonlyMap<string, Uint8Array>): Promise<TestServer> {
  return startTestServer({
    staticDir,
    mock: {
      generator: {
        ...realGenerator,
        promptToGlb: async (prompt) => {
          const bytes = files.get(prompt);
          if (!bytes) throw new Error(`no bench file named ${prompt}`);
          return bytes;
        },
      },
    },
  });
}

async function setup() {
  const started = performance.now();
  const staticDir = mkdtempSync(join(tmpdir(), 'kiln-bench-viewer-dist-'));
  temporary.push(staticDir);
  await build({
    root: ROOT,
    logLevel: 'silent',
    build: { outDir: staticDir, emptyOutDir: true, sourcemap: false, reportCompressedSize: false },
  });
  const indexHtml = readFileSync(join(staticDir, 'index.html'), 'utf8');
  const entryJs = /<script[^>]*type="module"[^>]*\bsrc="([^"]+\.js)"/.exec(indexHtml)?.[1];
  if (!entryJs) throw new Error('the built index.html loads no module script');
  const buildSeconds = (performance.now() - started) / 1000;

  const fixtures = await makeViewerFixtures();
  const files = new Map<string, Uint8Array>();
  files.set(
    'chair.glb',
    await imageToGlb(new Uint8Array(readFileSync(join(PHOTOS_DIR, 'chair.png')))),
  );
  for (const f of fixtures) files.set(f.name, new Uint8Array(readFileSync(f.path)));

  const kilnServer = await startKiln(staticDir, files);
  cleanups.push(() => kilnServer.close());
  const kiln = kilnServer.app;

  const modelViewerJs = new Uint8Array(readFileSync(MODEL_VIEWER_JS));
  const timingJs = new TextEncoder().encode(MV_TIMING_JS);
  /** What Kiln answered for its entry JS, by the Accept-Encoding asked with. */
  const seenEncodings = new Map<string, Encoding>();

  async function kilnEncoding(origin: string, acceptEncoding: string): Promise<Encoding> {
    let encoding = seenEncodings.get(acceptEncoding);
    if (!encoding) {
      const res = await kiln.request(`${origin}${entryJs}`, {
        headers: { 'accept-encoding': acceptEncoding },
      });
      await res.body?.cancel();
      const header = (res.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
      encoding = (['br', 'gzip', 'deflate'] as const).find((e) => e === header) ?? 'identity';
      if (encoding === 'identity' && header !== 'identity')
        console.log(`  (Kiln's JS came as ${header}, which the bench cannot make: serving raw)`);
      seenEncodings.set(acceptEncoding, encoding);
    }
    return encoding;
  }

  const bench = new Hono();
  bench.get('/files/:name', (c) => {
    const bytes = files.get(c.req.param('name'));
    if (!bytes) return c.notFound();
    // A copy: a Buffer's .buffer may be a larger shared pool.
    return c.body(new Uint8Array(bytes).buffer, 200, {
      'Content-Type': 'model/gltf-binary',
      'Cache-Control': 'no-store',
    });
  });
  bench.get('/model-viewer.html', (c) => {
    const src = c.req.query('src') ?? '';
    return c.html(modelViewerPage(src, c.req.query('poster') ?? ''), 200, {
      'Cache-Control': 'no-cache',
    });
  });
  const script = (key: string, body: Uint8Array) =>
    bench.get(`/${key}`, async (c) => {
      const encoding = await kilnEncoding(
        new URL(c.req.url).origin,
        c.req.header('accept-encoding') ?? '',
      );
      const headers: Record<string, string> = {
        'Content-Type': 'text/javascript; charset=utf-8',
        'Cache-Control': 'no-cache',
        Vary: 'Accept-Encoding',
      };
      if (encoding !== 'identity') headers['Content-Encoding'] = encoding;
      return c.body(new Uint8Array(encode(body, encoding, key)).buffer, 200, headers);
    });
  script('model-viewer.min.js', modelViewerJs);
  script('mv-timing.js', timingJs);
  script('meshopt_decoder.js', new Uint8Array(readFileSync(MESHOPT_DECODER_JS)));

  const app = new Hono();
  app.route('/bench', bench);
  app.all('*', (c) => kiln.fetch(c.req.raw, c.env));

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  cleanups.push(
    () => new Promise<void>((resolve) => server.close(() => resolve())),
    () => (server as Server).closeAllConnections(),
  );
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return { origin, files, fixtures, buildSeconds, seenEncodings, entryJs, kilnServer };
}

// ---------------------------------------------------------------------------------------------
// One measurement.

interface Sample {
  /** ms from navigation start to the first frame; undefined on timeout or error. */
  firstFrame?: number;
  /** JS bytes transferred by the first frame (by the end of the wait, on timeout). */
  jsBytes: number;
  /** 'timeout', 'error: …', or undefined when the first frame came. */
  failure?: string;
  offOrigin: string[];
  /** Uncaught exceptions and console errors on the page. */
  errors: string[];
  /** <model-viewer> gave up waiting for a frame (500 ms) and dispatched `load` regardless. */
  rafTimedOut?: boolean;
  /** With BENCH_VERBOSE: the page's marks and console warnings, in order. */
  timeline: string[];
  /** ms from navigation start to the page's largest contentful paint (its last candidate). */
  lcp?: number;
}

/** The page each viewer is measured on for a file. */
function pageUrl(origin: string, viewer: ViewerName, file: string, shared?: SharedFile): string {
  if (shared && SHARE) {
    const poster = shared.poster ? `&poster=${encodeURIComponent(shared.poster)}` : '';
    return viewer === 'Kiln'
      ? `${origin}${shared.page}`
      : `${origin}/bench/model-viewer.html?src=${encodeURIComponent(shared.model)}${poster}`;
  }
  const src = shared?.model ?? `/bench/files/${file}`;
  return viewer === 'Kiln'
    ? `${origin}/viewer?src=${encodeURIComponent(src)}`
    : `${origin}/bench/model-viewer.html?src=${encodeURIComponent(src)}`;
}

/**
 * Keeps the page's largest contentful paint as the browser reports it (window.__benchLcp), and
 * its paints with each largest-paint candidate (window.__benchPaints, for BENCH_VERBOSE).
 */
const LCP_OBSERVER = () => {
  const paints: string[] = [];
  const bench = window as unknown as { __benchLcp?: number; __benchPaints?: string[] };
  bench.__benchPaints = paints;
  new PerformanceObserver((list) => {
    const entries = list.getEntries() as (PerformanceEntry & { element?: Element; url?: string })[];
    for (const entry of entries) {
      const what = entry.element
        ? `${entry.element.tagName.toLowerCase()}.${entry.element.className}`
        : '(removed)';
      const url = entry.url ? ` ${new URL(entry.url).pathname}` : '';
      const size = (entry as unknown as { size: number }).size;
      paints.push(
        `largest paint candidate ${what}${url} (${size} px²) @ ${entry.startTime.toFixed(0)} ms`,
      );
    }
    const last = entries.at(-1);
    if (last) bench.__benchLcp = last.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      paints.push(`${entry.name} @ ${entry.startTime.toFixed(0)} ms`);
  }).observe({ type: 'paint', buffered: true });
};

async function measure(
  browser: Browser,
  origin: string,
  viewer: ViewerName,
  file: string,
  shared?: SharedFile,
): Promise<Sample> {
  const url = pageUrl(origin, viewer, file, shared);
  const mark = MARKS[viewer];
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  await context.addInitScript(LCP_OBSERVER);
  const offOrigin: string[] = [];
  const errors: string[] = [];
  const timeline: string[] = [];
  let rafTimedOut = false;
  try {
    await context.route(
      (u) => /^(https?|wss?):$/.test(u.protocol) && u.origin !== origin,
      (route) => {
        offOrigin.push(route.request().url());
        return route.abort('blockedbyclient');
      },
    );
    const page = await openPage(context);
    page.on('pageerror', (error) => errors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
      if (message.text().includes('rAF timed out in updateSource')) rafTimedOut = true;
      if (VERBOSE && (message.type() === 'error' || message.type() === 'warning'))
        timeline.push(`console.${message.type()}: ${message.text().slice(0, 200)}`);
    });
    let failure: string | undefined;
    await page.goto(url, { waitUntil: 'commit', timeout: TIMEOUT_MS });
    try {
      const outcome = await page.waitForFunction(
        ({ mark, viewer }) => {
          if (performance.getEntriesByName(mark).length > 0) return 'frame';
          if (viewer === 'model-viewer') {
            const error = performance.getEntriesByName('mv:error')[0] as
              PerformanceMark | undefined;
            if (error) return `error: ${String(error.detail)}`;
          } else {
            const el = document.querySelector('[data-testid="model-viewer"]');
            if (el?.getAttribute('data-state') === 'error') return 'error: data-state="error"';
          }
          return false;
        },
        { mark, viewer },
        { timeout: TIMEOUT_MS, polling: 200 },
      );
      const value = await outcome.jsonValue();
      if (value !== 'frame') failure = String(value);
    } catch (error) {
      if (!(error instanceof Error) || error.name !== 'TimeoutError') throw error;
      failure = 'timeout';
    }
    const figures = await page.evaluate((mark) => {
      const at = performance.getEntriesByName(mark)[0]?.startTime;
      const limit = at ?? Infinity;
      let js = 0;
      const scripts: string[] = [];
      for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
        if (entry.responseEnd > limit) continue;
        const path = new URL(entry.name, location.href).pathname;
        const bytes = entry.transferSize || entry.encodedBodySize;
        const isJs = entry.initiatorType === 'script' || /\.m?js$/.test(path);
        if (isJs) js += bytes;
        scripts.push(
          `${isJs ? 'JS' : 'other'} ${path} ${(bytes / 1024).toFixed(1)} KB (${entry.initiatorType}) ${entry.startTime.toFixed(0)}–${entry.responseEnd.toFixed(0)} ms`,
        );
      }
      const marks = performance
        .getEntriesByType('mark')
        .map((m) => `${m.name} @ ${m.startTime.toFixed(0)} ms`);
      const bench = window as unknown as { __benchLcp?: number; __benchPaints?: string[] };
      return { at, js, marks, scripts, lcp: bench.__benchLcp, paints: bench.__benchPaints ?? [] };
    }, mark);
    if (VERBOSE) timeline.push(...figures.paints, ...figures.marks, ...figures.scripts);
    return {
      ...(failure === undefined && figures.at !== undefined ? { firstFrame: figures.at } : {}),
      jsBytes: figures.js,
      ...(figures.lcp !== undefined ? { lcp: figures.lcp } : {}),
      ...(failure !== undefined ? { failure } : {}),
      offOrigin,
      errors,
      timeline,
      ...(rafTimedOut ? { rafTimedOut } : {}),
    };
  } finally {
    await context.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Main.

const found = await findChromium();
if (!found) {
  console.error(NO_CHROMIUM_HELP);
  process.exit(1);
}

const onExit = async () => {
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch {
      // best effort
    }
  }
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
};

let browser: Browser | undefined;
try {
  const { origin, files, buildSeconds, seenEncodings, entryJs, kilnServer } = await setup();
  browser = await chromium.launch({
    headless: true,
    args: found.args,
    ...(found.executablePath ? { executablePath: found.executablePath } : {}),
  });
  console.log(
    `viewer bench — Chromium ${browser.version()} (${found.kind}, SwiftShader WebGL), ${VIEWPORT.width}×${VIEWPORT.height}${PHONE ? `, phone profile: CPU ${PHONE_THROTTLING.cpuRate}× slower, slow 4G (1.6 Mbit/s, 150 ms)` : ''}, ${RUNS} run${RUNS === 1 ? '' : 's'} per viewer and file, cold cache each; ${SHARE ? 'the share page (/s/{token}, a stranger) against <model-viewer> with the same picture as its poster' : `/viewer?src= against a <model-viewer> page, both given ${RAW ? 'a bench route sending the file as it is' : "the model's address on Kiln's server"}`}; vite build ${buildSeconds.toFixed(1)} s`,
  );
  console.log(
    `serving on ${origin}; files: ${[...files.keys()].join(', ')}; ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}\n`,
  );

  const names = [...files.keys()].filter((f) => ONLY.length === 0 || ONLY.includes(f));
  const shared = SHARE || !RAW ? await shareFiles(kilnServer, browser, origin, names) : undefined;
  for (const [file, link] of shared ?? [])
    if (!link.poster)
      console.log(`  (${file}: the gallery drew no picture; its page has no poster)`);
  const samples = new Map<string, Sample[]>();
  const key = (file: string, viewer: ViewerName) => `${file}|${viewer}`;
  for (let run = 0; run < RUNS; run++) {
    for (const [index, file] of names.entries()) {
      const order = (run + index) % 2 === 0 ? VIEWERS : [...VIEWERS].reverse();
      for (const viewer of order) {
        const list = samples.get(key(file, viewer)) ?? [];
        samples.set(key(file, viewer), list);
        // Once a viewer has timed out on a file, its later runs would only wait again.
        if (list.some((s) => s.failure === 'timeout')) {
          list.push({
            jsBytes: NaN,
            failure: 'timeout',
            offOrigin: [],
            errors: [],
            timeline: [],
          });
          continue;
        }
        let sample: Sample;
        try {
          sample = await measure(browser, origin, viewer, file, shared?.get(file));
        } catch (error) {
          sample = {
            jsBytes: NaN,
            failure: `error: ${String(error)}`,
            offOrigin: [],
            errors: [],
            timeline: [],
          };
        }
        list.push(sample);
        const shown =
          sample.firstFrame !== undefined ? `${sample.firstFrame.toFixed(0)} ms` : sample.failure;
        console.log(
          `  run ${run + 1}/${RUNS}  ${file.padEnd(12)} ${viewer.padEnd(12)} ${shown}, largest paint ${sample.lcp?.toFixed(0) ?? '—'} ms, JS ${(sample.jsBytes / 1024).toFixed(1)} KB${sample.offOrigin.length ? `, ${sample.offOrigin.length} off-origin request(s) blocked` : ''}`,
        );
        for (const line of sample.timeline) console.log(`      ${line}`);
        if (sample.failure && sample.errors.length)
          console.log(`      page errors: ${sample.errors.slice(0, 3).join(' | ').slice(0, 600)}`);
      }
    }
  }

  // The table: medians over runs (a failed run counts as slower than any success).
  interface Cell {
    ms: number;
    lcp: number;
    /** The fastest and slowest run's first frame and largest paint. */
    msSpread: string;
    lcpSpread: string;
    kb: number;
    failures: string[];
    offOrigin: string[];
  }
  const cell = (file: string, viewer: ViewerName): Cell => {
    const list = samples.get(key(file, viewer)) ?? [];
    const times = list.map((s) => s.firstFrame ?? Infinity);
    const bytes = list.map((s) => s.jsBytes).filter((b) => Number.isFinite(b));
    const lcps = list.map((s) => s.lcp ?? Infinity);
    return {
      ms: median(times),
      lcp: median(lcps),
      msSpread: spread(times),
      lcpSpread: spread(lcps),
      kb: median(bytes) / 1024,
      failures: list.flatMap((s) => (s.failure ? [s.failure] : [])),
      offOrigin: list.flatMap((s) => s.offOrigin),
    };
  };
  const rows: string[][] = [
    ['file', 'viewer', 'first frame ms', 'largest paint ms', 'JS KB', 'other-origin req.'],
  ];
  const ratios: { file: string; time: number; bytes: number }[] = [];
  for (const file of names) {
    const kilnCell = cell(file, 'Kiln');
    const mvCell = cell(file, 'model-viewer');
    for (const [viewer, c] of [
      ['Kiln', kilnCell],
      ['model-viewer', mvCell],
    ] as const) {
      const failed = c.failures.length;
      const ms = Number.isFinite(c.ms)
        ? `${c.ms.toFixed(0)}${c.msSpread}${failed ? ` (${failed}/${RUNS} failed)` : ''}`
        : (c.failures[0] ?? 'timeout');
      rows.push([
        file,
        viewer,
        ms,
        Number.isFinite(c.lcp) ? `${c.lcp.toFixed(0)}${c.lcpSpread}` : '—',
        Number.isFinite(c.kb) ? c.kb.toFixed(1) : '—',
        String(c.offOrigin.length),
      ]);
    }
    const finite = Number.isFinite(kilnCell.ms) && Number.isFinite(mvCell.ms);
    const time = finite ? kilnCell.ms / mvCell.ms : NaN;
    const bytes = kilnCell.kb / mvCell.kb;
    ratios.push({ file, time, bytes });
    const ratio = (r: number) => (Number.isFinite(r) ? r.toFixed(2) : '—');
    rows.push([
      file,
      'Kiln/model-viewer',
      ratio(time),
      // No largest paint on one side (a canvas is never one): no ratio.
      Number.isFinite(mvCell.lcp) ? ratio(kilnCell.lcp / mvCell.lcp) : '—',
      ratio(bytes),
      '',
    ]);
  }
  const widths = rows[0]!.map((_, k) => Math.max(...rows.map((row) => row[k]!.length)));
  const format = (row: string[]) =>
    row
      .map((c, k) => (k < 2 ? c.padEnd(widths[k]!) : c.padStart(widths[k]!)))
      .join('  ')
      .trimEnd();
  console.log(`\n${format(rows[0]!)}`);
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const [i, row] of rows.slice(1).entries()) {
    console.log(format(row));
    if (i % 3 === 2 && i < rows.length - 2) console.log('');
  }

  const blocked = [...samples.values()].flat().flatMap((s) => s.offOrigin);
  if (blocked.length) {
    console.log(`\nblocked requests to other origins (${blocked.length}):`);
    for (const u of new Set(blocked)) console.log(`  ${u}`);
  }
  const encodings = [...seenEncodings.entries()]
    .map(([accept, enc]) => `${enc} (Accept-Encoding: ${accept || 'none'})`)
    .join('; ');
  console.log(
    `\nJS = transferSize of script/.js resources finished by the first frame. Kiln's ${entryJs} went out as ${encodings || 'nothing requested'}; model-viewer.min.js the same way.`,
  );
  const mvSamples = names.flatMap((f) => samples.get(key(f, 'model-viewer')) ?? []);
  const rafTimeouts = mvSamples.filter((s) => s.rafTimedOut).length;
  if (rafTimeouts)
    console.log(
      `<model-viewer> logged "rAF timed out in updateSource" in ${rafTimeouts} of ${mvSamples.length} runs: it waits at most 500 ms for two frames before \`load\` and poster-dismissed, so there its mark may come before the frame is drawn.`,
    );
  // No file measured (BENCH_FILES named none of them) is no file below 1.
  const below = (pick: (r: (typeof ratios)[number]) => number) =>
    ratios.length > 0 && ratios.every((r) => Number.isFinite(pick(r)) && pick(r) < 1);
  console.log(
    `Kiln/model-viewer below 1 on every file: first frame ${below((r) => r.time) ? 'YES' : 'NO'}, JS bytes ${below((r) => r.bytes) ? 'YES' : 'NO'}.`,
  );
  if (PHONE) {
    // Issue 36's goals for a phone: a first frame at most 0.8 of <model-viewer>'s on every file;
    // on the share page, the largest paint under 1.5 s.
    const yes = (ok: boolean) => (ok ? 'YES' : 'NO');
    const frames = ratios.length > 0 && ratios.every((r) => r.time <= 0.8);
    const paints = names.length > 0 && names.every((f) => cell(f, 'Kiln').lcp < 1500);
    console.log(
      `Phone goals: first frame ≤ 0.8 of model-viewer's on every file ${yes(frames)}${SHARE ? `; largest paint under 1.5 s on every file ${yes(paints)}` : ''}.`,
    );
  }
} finally {
  await browser?.close();
  await onExit();
}
process.exit(0);
