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
// The parts: generator-preview/models.ts (the models), browser.ts (the viewer in Chromium) and
// sheets.ts (the contact sheets).
import { chromium, type Browser } from '@playwright/test';
import { statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { buildWebIfStale } from './build-web.mjs';
import { findChromium, NO_CHROMIUM_HELP } from './chromium.mjs';
import {
  shoot,
  startServer,
  VIEWPORT,
  watchDraws,
  type Shots,
} from './generator-preview/browser.ts';
import { makeComposites, makeModels, type Model } from './generator-preview/models.ts';
import { failedCell, inputCell, writeSheet, type Group } from './generator-preview/sheets.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
const DOCS = join(ROOT, 'docs');
const PREVIEW_PNG = join(DOCS, 'generator-preview.png');
const PROMPTS_PNG = join(DOCS, 'generator-prompts.png');
const BACKDROPS_PNG = join(DOCS, 'generator-backdrops.png');
/** PREVIEW_ONLY=backdrops (or photos, prompts, comma-separated) writes only those sheets. */
const ONLY = new Set(
  (process.env.PREVIEW_ONLY ?? 'photos,prompts,backdrops')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

function ensureBuilt(): void {
  const status = buildWebIfStale();
  if (status !== 0) throw new Error(`the web app build failed (exit ${status})`);
}

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
const server = await startServer(DIST, files);
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
