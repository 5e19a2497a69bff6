// `npm run generator:preview`: contact sheets of what Kiln's local generator makes, for a person
// to judge at a glance. Writes
//   docs/generator-preview.png   each fixture photo (fixtures/photos/*.png) through
//                                imageToGlb, and the synthetic 4-view chair through viewsToGlb:
//                                one row per model, the input then four angles;
//   docs/generator-prompts.png   eighteen prompts through promptToGlb, two angles each;
//   docs/generator-backdrops.png the alpha photos composited over the backdrops artists shoot on
//                                (src/testing/backdrops.ts): input, the mask the generator found
//                                (the object cut out over dark grey), the model from two angles.
// The models are shown by the app's own viewer: the built SPA (dist/, rebuilt with `npm run build`
// when missing or older than its sources, as `npm start` does) served by Kiln's real server app
// (startTestServer, as bench/viewer does) with the GLBs on /preview/<name>.glb, opened at
// /viewer?src=/preview/<name>.glb in headless Chromium (scripts/chromium.mjs: SwiftShader WebGL).
// The viewer's defaults: lit look, ground shadow, no grid, no auto-rotate. Its first view
// (front, a little right and above) is the first angle; the others are the viewer's own orbit,
// a mouse drag of a quarter of the canvas height = 90° about the vertical axis (OrbitControls
// turns 2π × dx / height), each shot taken once WebGL has stopped drawing (the camera settled).
// Usage: npm run generator:preview   (PREVIEW_TIMEOUT_MS bounds each model's load, default 60000;
// PREVIEW_ONLY=backdrops, or photos or prompts, comma-separated, writes only those sheets)
// Takes 5–7 minutes on 2 busy cores: SwiftShader draws a few frames a second, and each damped
// turn takes some 50 frames to come to rest.
import { PHOTOS_DIR } from '../src/testing/fixtures.ts';
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { serve } from '@hono/node-server';
import { chromium, type Browser, type Page } from '@playwright/test';
import { Hono } from 'hono';
import { MeshoptDecoder } from 'meshoptimizer';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp, { type OverlayOptions } from 'sharp';
import { imageToGlb, promptToGlb, viewsToGlb } from '../src/generator/index.ts';
import { syntheticViews } from '../src/generator/views/synthetic-views.ts';
import { startTestServer } from '../src/testing/server.ts';
import { composite, type BackdropName } from '../src/testing/backdrops.ts';
import { loadSubject } from '../src/generator/photo/subject.ts';
import { buildWebIfStale } from './build-web.mjs';
import { findChromium, NO_CHROMIUM_HELP } from './chromium.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const DOCS = join(ROOT, 'docs');
const PREVIEW_PNG = join(DOCS, 'generator-preview.png');
const PROMPTS_PNG = join(DOCS, 'generator-prompts.png');
const BACKDROPS_PNG = join(DOCS, 'generator-backdrops.png');
/** One composite per backdrop, the photos in turn. */
const COMPOSITES: [string, BackdropName][] = [
  ['chair', 'vertical-gradient'],
  ['robot', 'radial-vignette'],
  ['horse', 'two-tone-horizon'],
  ['hamburger', 'wall-with-shadow'],
  ['chair', 'wood-grain'],
  ['flamingo', 'jpeg-70'],
  ['robot', 'darker-than-object'],
  ['hamburger', 'close-hue'],
];
const PROMPTS = [
  'a ceramic teapot',
  'a red robot with wheels',
  'a guitar',
  'a bicycle',
  'a pineapple',
  'a cat',
  'a rubber duck',
  'a pumpkin',
  'a sailing ship',
  'a green dragon',
  'a fire extinguisher',
  'a treasure chest',
  'an ancient stone bridge',
  'a wooden chair',
  'a mug',
  'a car',
  'a tree',
  'a house',
];
/** PREVIEW_ONLY=backdrops (or photos, prompts, comma-separated) writes only those sheets. */
const ONLY = new Set(
  (process.env.PREVIEW_ONLY ?? 'photos,prompts,backdrops')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);
const TIMEOUT_MS = Math.max(5000, Number(process.env.PREVIEW_TIMEOUT_MS ?? 60_000) || 60_000);
/**
 * The page's stage is min(68vh, 760px) tall and the page's width less 2 × 21 px wide: a 374 px
 * square here (the viewer fits the model to a square, the cells are 280 px). A larger canvas costs
 * SwiftShader time on every frame of the damped turns.
 */
const VIEWPORT = { width: 416, height: 550 };
/** Side of one picture on the sheets. */
const CELL = 280;
const GAP = 8;
const PAD = 16;
const FONT = 'DejaVu Sans, Liberation Sans, Arial, sans-serif';
/** Quiet time (no WebGL draw call) after which the view counts as settled. */
const QUIET_MS = 400;

// ---------------------------------------------------------------------------------------------
// The SPA: rebuilt when missing or older than its sources (the rule of scripts/start.mjs).

function ensureBuilt(): void {
  const status = buildWebIfStale();
  if (status !== 0) throw new Error(`the web app build failed (exit ${status})`);
}

// ---------------------------------------------------------------------------------------------
// The models.

interface Model {
  /** File name on /preview/ (without .glb) and the model's key. */
  id: string;
  title: string;
  detail: string;
  /** The input pictures, for the sheet's first column (none for prompts). */
  inputs: Uint8Array[];
  /** The object as the generator cut it out (composites only). */
  cutOut?: Buffer;
  glb: Uint8Array;
}

const io = new NodeIO()
  .registerExtensions(ALL_EXTENSIONS)
  .registerDependencies({ 'meshopt.decoder': MeshoptDecoder });

async function triangles(glb: Uint8Array): Promise<number> {
  await MeshoptDecoder.ready;
  const doc = await io.readBinary(glb);
  let count = 0;
  for (const mesh of doc.getRoot().listMeshes())
    for (const prim of mesh.listPrimitives())
      if (prim.getMode() === 4)
        count += Math.floor(
          (prim.getIndices()?.getCount() ?? prim.getAttribute('POSITION')?.getCount() ?? 0) / 3,
        );
  return count;
}

async function make(
  id: string,
  title: string,
  what: string,
  inputs: Uint8Array[],
  run: () => Promise<Uint8Array>,
): Promise<Model> {
  const started = performance.now();
  const glb = await run();
  const ms = performance.now() - started;
  const took = ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`;
  const detail = `${what} · ${(await triangles(glb)).toLocaleString('en-US')} triangles · ${(glb.byteLength / 1024).toFixed(0)} KB · made in ${took}`;
  console.log(`  ${title.padEnd(22)} ${detail}`);
  return { id, title, detail, inputs, glb };
}

/** The input with everything outside the generator's mask replaced by dark grey. */
async function cutOutCell(input: Uint8Array): Promise<Buffer> {
  const { mask } = await loadSubject(input);
  const alpha = Buffer.from(mask.inside.map((v) => (v ? 255 : 0)));
  const raw = { width: CELL, height: CELL };
  // One step at a time: within one pipeline sharp resizes a one-channel picture to sRGB, and
  // removes the alpha after joining one.
  const matte = await sharp(alpha, { raw: { width: mask.width, height: mask.height, channels: 1 } })
    .resize(CELL, CELL, { fit: 'fill', kernel: 'nearest' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const rgb = await sharp(input).resize(CELL, CELL, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const cut = await sharp(rgb, { raw: { ...raw, channels: 3 } })
    .joinChannel(matte, { raw: { ...raw, channels: 1 } })
    .png()
    .toBuffer();
  return sharp(cut).flatten({ background: '#3f3f46' }).png().toBuffer();
}

async function makeComposites(): Promise<Model[]> {
  const models: Model[] = [];
  for (const [name, backdrop] of COMPOSITES) {
    const bytes = await composite(
      new Uint8Array(readFileSync(join(PHOTOS_DIR, `${name}.png`))),
      backdrop,
    );
    const model = await make(
      `backdrop-${name}-${backdrop}`,
      `${name} on ${backdrop}`,
      'imageToGlb',
      [bytes],
      () => imageToGlb(bytes),
    );
    models.push({ ...model, cutOut: await cutOutCell(bytes) });
  }
  return models;
}

async function makeModels(): Promise<{ photos: Model[]; prompts: Model[] }> {
  if (!existsSync(PHOTOS_DIR)) throw new Error(`no fixture photos at ${PHOTOS_DIR} `);
  const photos: Model[] = [];
  for (const file of readdirSync(PHOTOS_DIR)
    .filter((f) => f.toLowerCase().endsWith('.png'))
    .sort()) {
    const bytes = new Uint8Array(readFileSync(join(PHOTOS_DIR, file)));
    const { width, height } = await sharp(bytes).metadata();
    const name = file.replace(/\.png$/i, '');
    photos.push(
      await make(name, name, `imageToGlb, ${width}×${height} photo`, [bytes], () =>
        imageToGlb(bytes),
      ),
    );
  }
  const views = await syntheticViews('chair');
  const { width, height } = await sharp(views[0]!).metadata();
  photos.push(
    await make(
      'views-chair',
      'chair, 4 views',
      `viewsToGlb, 4 synthetic ${width}×${height} views`,
      views,
      () => viewsToGlb(views),
    ),
  );
  const prompts: Model[] = [];
  for (const [i, prompt] of PROMPTS.entries())
    prompts.push(
      await make(`prompt-${i + 1}`, `“${prompt}”`, 'promptToGlb', [], () => promptToGlb(prompt)),
    );
  return { photos, prompts };
}

// ---------------------------------------------------------------------------------------------
// The browser: Kiln's viewer, one page load per model, shots of the canvas.

/** Runs in the page before the app: notes the time of each WebGL draw call. */
function watchDraws() {
  const w = window as unknown as { __previewLastDraw: number };
  w.__previewLastDraw = 0;
  for (const proto of [WebGLRenderingContext.prototype, WebGL2RenderingContext.prototype]) {
    const p = proto as unknown as Record<string, unknown>;
    for (const name of [
      'drawArrays',
      'drawElements',
      'drawArraysInstanced',
      'drawElementsInstanced',
      'drawRangeElements',
    ]) {
      const original = p[name];
      if (typeof original !== 'function') continue;
      p[name] = function (this: unknown, ...args: unknown[]) {
        w.__previewLastDraw = performance.now();
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      };
    }
  }
}

/** Waits until nothing has been drawn for QUIET_MS (the camera has stopped); false on timeout. */
async function settled(page: Page): Promise<boolean> {
  try {
    await page.waitForFunction(
      (quiet) => {
        const last = (window as unknown as { __previewLastDraw?: number }).__previewLastDraw ?? 0;
        return last > 0 && performance.now() - last > quiet;
      },
      QUIET_MS,
      { timeout: 20_000, polling: 100 },
    );
    return true;
  } catch {
    return false;
  }
}

interface Shots {
  images: Buffer[];
  failure?: string;
}

async function shoot(page: Page, origin: string, model: Model, angles: number): Promise<Shots> {
  const images: Buffer[] = [];
  await page.goto(`${origin}/viewer?src=${encodeURIComponent(`/preview/${model.id}.glb`)}`);
  const viewer = page.getByTestId('model-viewer').first();
  const state = await page
    .waitForFunction(
      () => {
        const s = document
          .querySelector('[data-testid="model-viewer"]')
          ?.getAttribute('data-state');
        return s === 'ready' || s === 'error' ? s : false;
      },
      undefined,
      { timeout: TIMEOUT_MS, polling: 100 },
    )
    .then((h) => h.jsonValue())
    .catch(() => 'timeout');
  if (state !== 'ready') {
    const message =
      state === 'error'
        ? ((await viewer.locator('[role="alert"]').first().textContent()) ?? 'error')
        : `no model after ${TIMEOUT_MS / 1000} s`;
    return { images, failure: message.trim() };
  }
  const canvas = viewer.locator('canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) return { images, failure: 'no canvas' };
  const height = await canvas.evaluate((c) => c.clientHeight);
  const side = Math.min(box.width, box.height);
  const clip = { x: box.x + (box.width - side) / 2, y: box.y + (box.height - side) / 2 };
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const quarter = height / 4;
  for (let angle = 0; angle < angles; angle++) {
    if (angle > 0) {
      // A leftward drag turns the camera the way the ← key does: front → right → back → left.
      await page.mouse.move(cx + quarter / 2, cy);
      await page.mouse.down();
      await page.mouse.move(cx - quarter / 2, cy, { steps: 6 });
      await page.mouse.up();
      await page.mouse.move(1, 1);
    }
    if (!(await settled(page))) console.log(`    (${model.title}: the view did not settle)`);
    images.push(await page.screenshot({ clip: { ...clip, width: side, height: side } }));
  }
  return { images };
}

async function startServer(files: Map<string, Uint8Array>) {
  const kiln = await startTestServer({ staticDir: DIST });
  const app = new Hono();
  app.get('/preview/:file', (c) => {
    const bytes = files.get(c.req.param('file').replace(/\.glb$/, ''));
    if (!bytes) return c.notFound();
    return c.body(new Uint8Array(bytes).buffer, 200, {
      'Content-Type': 'model/gltf-binary',
      'Cache-Control': 'no-store',
    });
  });
  app.all('*', (c) => kiln.app.fetch(c.req.raw, c.env));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    (server as Server).closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await kiln.close();
  };
  return { origin, close };
}

// ---------------------------------------------------------------------------------------------
// The sheets.

const xml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

interface Line {
  text: string;
  size: number;
  bold?: boolean;
  color?: string;
}

/** Lines broken at spaces to fit `width` (a DejaVu Sans character is about 0.6 em wide). */
function wrap(lines: Line[], width: number): Line[] {
  return lines.flatMap((line) => {
    const max = Math.max(10, Math.floor(width / (line.size * 0.6)));
    const out: Line[] = [];
    let current = '';
    for (const word of line.text.split(' ')) {
      if (current && `${current} ${word}`.length > max) {
        out.push({ ...line, text: current });
        current = word;
      } else current = current ? `${current} ${word}` : word;
    }
    out.push({ ...line, text: current });
    return out;
  });
}

/** An SVG of text lines (top left), for sharp to composite. */
function text(width: number, height: number, lines: Line[]): OverlayOptions['input'] {
  let y = 0;
  const spans = lines.map((l) => {
    y += l.size * 1.3;
    return `<text x="0" y="${y.toFixed(1)}" font-family="${FONT}" font-size="${l.size}" font-weight="${l.bold ? 700 : 400}" fill="${l.color ?? '#1c1917'}">${xml(l.text)}</text>`;
  });
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${spans.join('')}</svg>`,
  );
}

/** The input pictures in one cell: one photo, or 2 × 2 views; on white. */
async function inputCell(inputs: Uint8Array[]): Promise<Buffer> {
  const n = Math.ceil(Math.sqrt(inputs.length));
  const side = Math.floor(CELL / n);
  const tiles = await Promise.all(
    inputs.map((bytes) =>
      sharp(bytes)
        .resize(side, side, { fit: 'contain', background: '#ffffff' })
        .flatten({ background: '#ffffff' })
        .png()
        .toBuffer(),
    ),
  );
  return sharp({ create: { width: CELL, height: CELL, channels: 3, background: '#ffffff' } })
    .composite(
      tiles.map((input, i) => ({ input, left: (i % n) * side, top: Math.floor(i / n) * side })),
    )
    .png()
    .toBuffer();
}

interface Group {
  title: string;
  detail: string;
  cells: Buffer[];
}

async function writeSheet(
  path: string,
  heading: string[],
  columns: string[],
  groups: Group[],
  perRow: number,
): Promise<void> {
  const cellsPerGroup = columns.length;
  const groupWidth = cellsPerGroup * CELL + (cellsPerGroup - 1) * GAP;
  const GROUP_GAP = perRow > 1 ? 3 * GAP : GAP;
  const width = 2 * PAD + perRow * groupWidth + (perRow - 1) * GROUP_GAP;
  const headingLines = wrap(
    heading.map((t, i) => ({
      text: t,
      size: i === 0 ? 17 : 13,
      bold: i === 0,
      color: i === 0 ? '#1c1917' : '#57534e',
    })),
    width - 2 * PAD,
  );
  const headingHeight = Math.ceil(headingLines.reduce((h, l) => h + l.size * 1.3, 0)) + 12;
  const columnsHeight = 22;
  const titleHeight = 40;
  const rowHeight = titleHeight + CELL + 2 * GAP;
  const rows = Math.ceil(groups.length / perRow);
  const height = PAD + headingHeight + columnsHeight + rows * rowHeight + PAD;
  const layers: OverlayOptions[] = [
    {
      input: text(width - 2 * PAD, headingHeight, headingLines),
      left: PAD,
      top: PAD,
    },
  ];
  const top0 = PAD + headingHeight;
  for (let g = 0; g < perRow; g++)
    for (const [c, label] of columns.entries())
      layers.push({
        input: text(CELL, columnsHeight, [{ text: label, size: 13, color: '#57534e' }]),
        left: PAD + g * (groupWidth + GROUP_GAP) + c * (CELL + GAP),
        top: top0,
      });
  for (const [i, group] of groups.entries()) {
    const left = PAD + (i % perRow) * (groupWidth + GROUP_GAP);
    const top = top0 + columnsHeight + Math.floor(i / perRow) * rowHeight;
    layers.push({
      input: text(groupWidth, titleHeight, [
        { text: group.title, size: 15, bold: true },
        // One line: the figures are short.
        { text: group.detail, size: 12, color: '#57534e' },
      ]),
      left,
      top: top + GAP,
    });
    for (const [c, cell] of group.cells.entries())
      layers.push({
        input: await sharp(cell).resize(CELL, CELL, { fit: 'cover' }).png().toBuffer(),
        left: left + c * (CELL + GAP),
        top: top + GAP + titleHeight,
      });
  }
  mkdirSync(DOCS, { recursive: true });
  await sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite(layers)
    .png({ compressionLevel: 9, palette: true, quality: 95, dither: 0.5 })
    .toFile(path);
}

/** A grey cell saying why there is no picture. */
async function failedCell(message: string): Promise<Buffer> {
  return sharp({ create: { width: CELL, height: CELL, channels: 3, background: '#e7e5e4' } })
    .composite([
      {
        input: text(
          CELL - 20,
          CELL - 20,
          wrap(
            [
              { text: 'not rendered:', size: 13, bold: true },
              { text: message.slice(0, 300), size: 12 },
            ],
            CELL - 20,
          ),
        ),
        left: 10,
        top: 10,
      },
    ])
    .png()
    .toBuffer();
}

// ---------------------------------------------------------------------------------------------
// Main.

const found = await findChromium();
if (!found) {
  console.error(NO_CHROMIUM_HELP);
  process.exit(1);
}
ensureBuilt();
console.log('generating…');
const { photos, prompts } =
  ONLY.has('photos') || ONLY.has('prompts')
    ? await makeModels()
    : { photos: [] as Model[], prompts: [] as Model[] };
const composites = ONLY.has('backdrops') ? await makeComposites() : [];
const files = new Map([...photos, ...prompts, ...composites].map((m) => [m.id, m.glb]));
const server = await startServer(files);
let browser: Browser | undefined;
let failures = 0;
try {
  browser = await chromium.launch({
    headless: true,
    args: found.args,
    ...(found.executablePath ? { executablePath: found.executablePath } : {}),
  });
  const context = await browser.newContext({
    viewport: VIEWPORT,
    deviceScaleFactor: 1,
    colorScheme: 'light',
  });
  const origin = server.origin;
  await context.route(
    (u) => /^(https?|wss?):$/.test(u.protocol) && u.origin !== origin,
    (route) => route.abort('blockedbyclient'),
  );
  await context.addInitScript(watchDraws);
  const page = await context.newPage();
  const started = new Date().toISOString().slice(0, 10);
  const how = `Kiln's /viewer (lit look, ground shadow, defaults) in headless Chromium ${browser.version()}, SwiftShader WebGL; ${started}`;

  const render = async (models: Model[], angles: number, withInput: boolean) => {
    const groups: Group[] = [];
    for (const model of models) {
      const t = performance.now();
      const shots = await shoot(page, origin, model, angles).catch((error: unknown): Shots => ({
        images: [],
        failure: error instanceof Error ? error.message.split('\n')[0]! : String(error),
      }));
      if (shots.failure) failures++;
      const cells = [...shots.images];
      while (cells.length < angles) cells.push(await failedCell(shots.failure ?? 'failed'));
      if (model.cutOut) cells.unshift(model.cutOut);
      if (withInput) cells.unshift(await inputCell(model.inputs));
      groups.push({ title: model.title, detail: model.detail, cells });
      console.log(
        `  ${model.title.padEnd(22)} ${shots.failure ? `FAILED: ${shots.failure}` : `${angles} views`} (${((performance.now() - t) / 1000).toFixed(1)} s)`,
      );
    }
    return groups;
  };

  console.log(`rendering in Chromium ${browser.version()} (${found.kind}) on ${origin}…`);
  if (ONLY.has('photos'))
    await writeSheet(
      PREVIEW_PNG,
      [
        "Kiln's local generator: the fixture photos (imageToGlb) and a synthetic 4-view chair (viewsToGlb)",
        `${how}.`,
        "Angles: the viewer's first view (front, a little right and above), then turned 90° about the vertical axis each time (a mouse drag).",
      ],
      ['input', 'first view (front ¾)', '+90° (right)', '+180° (back)', '+270° (left)'],
      await render(photos, 4, true),
      1,
    );
  if (ONLY.has('prompts'))
    await writeSheet(
      PROMPTS_PNG,
      [
        "Kiln's local generator: prompts (promptToGlb)",
        `${how}.`,
        "Angles: the viewer's first view (front, a little right and above), and turned 90° about the vertical axis (a mouse drag).",
      ],
      ['first view (front ¾)', '+90° (right)'],
      await render(prompts, 2, false),
      3,
    );
  if (ONLY.has('backdrops'))
    await writeSheet(
      BACKDROPS_PNG,
      [
        "Kiln's local generator: objects on real backdrops (the alpha photos composited; decisions 0049, 0064)",
        `${how}.`,
        'Columns: the input, the object as the generator found it (cut out over dark grey), the first view and +90°.',
      ],
      ['input', 'found object', 'first view (front ¾)', '+90° (right)'],
      await render(composites, 2, true),
      2,
    );
} finally {
  await browser?.close();
  await server.close();
}
for (const [sheet, path] of [
  ['photos', PREVIEW_PNG],
  ['prompts', PROMPTS_PNG],
  ['backdrops', BACKDROPS_PNG],
] as const) {
  if (!ONLY.has(sheet)) continue;
  const { width, height } = await sharp(path).metadata();
  console.log(
    `wrote ${relative(process.cwd(), path) || path} (${width}×${height}, ${(statSync(path).size / 1024).toFixed(0)} KB)`,
  );
}
if (failures) {
  console.error(`${failures} model(s) could not be rendered (see the grey cells).`);
  process.exit(1);
}
