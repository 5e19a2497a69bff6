import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { optimisePlanOf, type OptimiseJob } from '../src/contract/index.ts';
import { runnerGone } from '../src/server/optimise/job-failures.ts';
import { readStl, stlEdgeUse } from '../src/testing/stl.ts';
import {
  DEMO_KEY,
  difference,
  expectAccessible,
  expectRenderedModel,
  generate,
  overflowing,
  photo,
  pickModel,
  pixels,
  press,
  settle,
  shot,
  useKey,
} from './helpers.ts';

const auth = { authorization: `Bearer ${DEMO_KEY}` };

/** The glTF JSON chunk of a GLB. */
function gltfJson(glb: Uint8Array): { extensionsUsed?: string[]; extensionsRequired?: string[] } {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const length = view.getUint32(12, true);
  return JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length))) as {
    extensionsUsed?: string[];
  };
}

// <model-viewer>, served by the test itself on Kiln's origin (page.route, no network): its
// Draco and Basis decoders are Kiln's own (/decoders/), its Meshopt decoder meshoptimizer's.
const ROOT = join(import.meta.dirname, '..');
const MODEL_VIEWER_JS = join(ROOT, 'node_modules/@google/model-viewer/dist/model-viewer.min.js');
const MESHOPT_DECODER_JS = join(ROOT, 'node_modules/meshoptimizer/meshopt_decoder.cjs');
const MV_SETUP_JS = `self.ModelViewerElement = Object.assign(self.ModelViewerElement || {}, {
  dracoDecoderLocation: '/decoders/draco/',
  ktx2TranscoderLocation: '/decoders/basis/',
  meshoptDecoderLocation: '/e2e-model-viewer/meshopt_decoder.js',
});
const viewer = document.querySelector('model-viewer');
viewer.addEventListener('load', () => { window.mvState = 'loaded'; });
viewer.addEventListener('error', (e) => { window.mvState = 'error: ' + String(e.detail && e.detail.type); });
viewer.addEventListener('model-visibility', (e) => { if (e.detail && e.detail.visible) window.mvVisible = true; });
`;
const mvPage = (src: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>model-viewer</title>
<style>html,body{margin:0;height:100%;background:#fff}model-viewer{display:block;width:640px;height:480px}</style>
<script type="module" src="/e2e-model-viewer/setup.js"></script>
<script type="module" src="/e2e-model-viewer/model-viewer.min.js"></script>
</head><body><model-viewer src="${src}" camera-controls alt="optimised model"></model-viewer></body></html>`;

/** Opens `src` in Google's <model-viewer> and checks that it loads and draws something. */
async function expectModelViewerOpens(page: Page, src: string) {
  await page.route('**/e2e-model-viewer/**', async (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path.endsWith('/index.html'))
      return route.fulfill({ contentType: 'text/html', body: mvPage(src) });
    if (path.endsWith('/setup.js'))
      return route.fulfill({ contentType: 'text/javascript', body: MV_SETUP_JS });
    if (path.endsWith('/model-viewer.min.js'))
      return route.fulfill({ contentType: 'text/javascript', body: readFileSync(MODEL_VIEWER_JS) });
    if (path.endsWith('/meshopt_decoder.js'))
      return route.fulfill({
        contentType: 'text/javascript',
        body: readFileSync(MESHOPT_DECODER_JS),
      });
    return route.fulfill({ status: 404 });
  });
  await page.goto('/e2e-model-viewer/index.html');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { mvState?: string }).mvState), {
      timeout: 30_000,
    })
    .toBe('loaded');
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { mvVisible?: boolean }).mvVisible), {
      timeout: 30_000,
    })
    .toBe(true);
  const viewer = page.locator('model-viewer');
  // Drawn: the element's pixels are not one flat colour.
  await expect
    .poll(
      async () => {
        // A page screenshot clipped to the element: no waiting for "stable" (a live canvas).
        const box = (await viewer.boundingBox()) ?? { x: 0, y: 0, width: 1, height: 1 };
        const stats = await sharp(await page.screenshot({ clip: box })).stats();
        return stats.channels.slice(0, 3).reduce((s, c) => s + c.stdev, 0);
      },
      { timeout: 15_000 },
    )
    .toBeGreaterThan(15);
}

/**
 * Keeps every answer about an optimise job the page reads (a response the page navigated away
 * from has no body left to read: it is skipped).
 */
function recordJobs(page: Page, seen: { status: string; progress: number; stage: string }[]) {
  page.on('response', (res) => {
    if (/\/api\/optimise\/opt_/.test(res.url()) && res.ok())
      res.json().then(
        (job: (typeof seen)[number]) => seen.push(job),
        () => {},
      );
  });
}

/** A finished, archived prompt model made through the API (faster than the form). */
async function archivedPromptTask(page: Page, prompt: string): Promise<string> {
  const created = await page.request.post('/api/v1/3d/generations', {
    headers: { ...auth, 'content-type': 'application/json' },
    data: { model: 'beta-text', prompt },
  });
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(
      async () => {
        await page.request.get(`/api/v1/tasks/${id}`, { headers: auth });
        const entry = await page.request.get(`/api/library/${id}`, { headers: auth });
        return ((await entry.json()) as { archived: boolean }).archived;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return id;
}

test('optimise a result for Web / AR: progress, before and after side by side, then a GLB that validates and opens in <model-viewer>', async ({
  page,
}, info) => {
  test.setTimeout(180_000);
  await useKey(page);
  await page.goto('/');
  await pickModel(page, 'gamma');
  await page.getByTestId('file-input').first().setInputFiles(photo('chair.png'));
  await expect(page.getByText('Ready')).toBeVisible();
  const { id, detail } = await generate(page);
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });

  // From the result: Optimise…
  await detail.getByRole('link', { name: 'Optimise…' }).click();
  await expect(page).toHaveURL(`/tasks/${id}/optimise`);
  await expect(page.getByRole('heading', { level: 1, name: 'Optimise · chair.png' })).toBeVisible();
  const webAr = page.getByRole('radio', { name: /Web \/ AR/ });
  await expect(webAr).toBeChecked();
  await shot(page, info, 'optimise-form');
  await expectAccessible(page);

  // Every answer about the job, to see its progress even when the screen moves on quickly.
  const seen: { status: string; progress: number; stage: string }[] = [];
  recordJobs(page, seen);
  await webAr.check();
  await page.getByRole('button', { name: 'Optimise', exact: true }).click();
  const bar = page.getByRole('progressbar', { name: 'Optimising' });
  await expect(bar).toBeVisible();
  await expect(page).toHaveURL(/\?job=opt_[a-f0-9]+$/);
  await shot(page, info, 'optimise-progress');

  const result = page.getByTestId('optimise-result');
  await expect(result).toBeVisible({ timeout: 90_000 });
  await expect(bar).toBeHidden();
  // The progress went up through named stages while it ran.
  const running = seen.filter((j) => j.status === 'running');
  expect(running.length).toBeGreaterThan(0);
  expect(running.map((j) => j.progress)).toEqual(
    running.map((j) => j.progress).sort((a, b) => a - b),
  );
  expect(new Set(seen.map((j) => j.stage)).size).toBeGreaterThan(1);

  // Before and after: triangles, file size in words and in bytes, textures, what it needs.
  const table = result.getByRole('table');
  await expect(table.getByRole('row', { name: /^Triangles/ })).toContainText('30,000');
  await expect(table.getByRole('row', { name: /^File size/ })).toContainText(/kB .*bytes/);
  await expect(table.getByRole('row', { name: /^File size/ })).toContainText('−');
  await expect(table.getByRole('row', { name: /^Textures/ })).toContainText('WebP');
  await expect(table.getByRole('row', { name: /^Needs/ })).toContainText('Meshopt');

  // Side by side: the original and the optimised model, both drawn by Kiln's viewer.
  const viewers = result.getByTestId('model-viewer');
  await expect(viewers).toHaveCount(2);
  await expectRenderedModel(viewers.nth(0));
  await expectRenderedModel(viewers.nth(1));
  // Their cameras are linked: turning the original turns the optimised one; unlinked, it stays.
  await settle(page);
  const before = await pixels(viewers.nth(1));
  await press(viewers.nth(0), 'ArrowLeft');
  await press(viewers.nth(0), 'ArrowLeft');
  await page.waitForTimeout(600);
  expect(
    difference(before, await pixels(viewers.nth(1))),
    'the optimised turned too',
  ).toBeGreaterThan(1);
  await result.getByLabel('Link cameras').uncheck();
  await settle(page);
  const still = await pixels(viewers.nth(1));
  await press(viewers.nth(0), 'ArrowRight');
  await page.waitForTimeout(600);
  expect(difference(still, await pixels(viewers.nth(1))), 'unlinked, it stays').toBeLessThan(0.3);
  await result.getByLabel('Link cameras').check();
  await shot(page, info, 'optimise-result');
  await expectAccessible(page);

  // Download: a GLB named for its target, 0 errors from the Khronos validator, Meshopt + WebP.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    result.getByRole('link', { name: /^Download GLB/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^kiln-gamma-chair-.+-web\.glb$/);
  const bytes = new Uint8Array(readFileSync(await download.path()));
  const { validateBytes } = await import('gltf-validator');
  const report = await validateBytes(bytes);
  expect(report.issues.numErrors).toBe(0);
  expect(gltfJson(bytes).extensionsUsed).toEqual(
    expect.arrayContaining(['EXT_meshopt_compression', 'EXT_texture_webp']),
  );
  const fileUrl = await result.getByRole('link', { name: /^Download GLB/ }).getAttribute('href');
  expect(fileUrl).toMatch(/^\/api\/optimise\/files\/[a-f0-9]{64}\.glb\?exp=\d+&sig=[\w-]+$/);

  // A reload comes back to the same job and its result.
  await page.reload();
  await expect(page.getByTestId('optimise-result')).toBeVisible();

  // "Open both in the viewer": each side named for what it shows, the copy as optimised.
  await page.getByRole('link', { name: 'Open both in the viewer' }).click();
  const names = page.getByTestId('slot-name');
  await expect(names.nth(0)).toHaveText(/^3D model: gamma · chair\.png · /);
  await expect(names.nth(1)).toHaveText(
    /^3D model: gamma · chair\.png · .*, optimised for Web \/ AR$/,
  );
  const pickB = page.getByRole('region', { name: 'Model B' }).getByLabel('From your library');
  await expect(pickB.locator('option:checked')).toHaveText(
    /^Optimised for Web \/ AR: gamma · chair\.png/,
  );
  const pickA = page.getByRole('region', { name: 'Model A' }).getByLabel('From your library');
  await expect(pickA.locator('option:checked')).toHaveText(/^gamma · chair\.png · /);
  await page.goBack();
  await expect(page.getByTestId('optimise-result')).toBeVisible();

  // The same file in Google's <model-viewer>.
  await expectModelViewerOpens(page, fileUrl!);
  await shot(page, info, 'optimise-model-viewer');
});

test('optimise for a 3D printer on a phone: the height in mm, a bad value said at its field, a watertight STL', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  await useKey(page);
  await page.setViewportSize({ width: 390, height: 844 });
  const id = await archivedPromptTask(page, 'a red mug');
  await page.goto(`/tasks/${id}/optimise`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Optimise · “a red mug”' }),
  ).toBeVisible();

  // Custom, with too few triangles: refused at the field, before anything is sent.
  await page.getByRole('radio', { name: /Custom/ }).check();
  const triangles = page.getByRole('spinbutton', { name: 'Triangle target' });
  await triangles.fill('50');
  await page.getByRole('button', { name: 'Optimise', exact: true }).click();
  await expect(page.getByText('triangles must be at least 100.')).toBeVisible();
  await expect(triangles).toBeFocused();
  await expect(triangles).toHaveAttribute('aria-invalid', 'true');
  await shot(page, info, 'optimise-phone-error');

  // 3D print, 120 mm tall.
  await page.getByRole('radio', { name: /3D print/ }).check();
  await page.getByRole('spinbutton', { name: 'Height (mm)' }).fill('120');
  await page.getByRole('button', { name: 'Optimise', exact: true }).click();
  const result = page.getByTestId('optimise-result');
  await expect(result).toBeVisible({ timeout: 60_000 });
  await expect(result.getByRole('row', { name: /^Watertight/ })).toContainText('Yes');
  await expect(result.getByRole('row', { name: /^Size/ })).toContainText(/× 120 mm$/);
  await expectRenderedModel(result.getByTestId('model-viewer').nth(1));
  expect(await overflowing(page)).toEqual([]);
  await shot(page, info, 'optimise-phone-print');
  await expectAccessible(page);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    result.getByRole('link', { name: /^Download STL/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/-print-120mm\.stl$/);
  const stl = readStl(new Uint8Array(readFileSync(await download.path())));
  expect(stl.header).toContain('millimetres');
  expect(stl.max[2] - stl.min[2]).toBeCloseTo(120, 1);
  expect(stl.min[2]).toBeCloseTo(0, 3);
  expect(stlEdgeUse(stl)).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
});

test('a job its server could not finish (restarted or crashed) says so after a reload; Run it again asks for that job’s own options', async ({
  page,
}) => {
  await useKey(page);
  const id = await archivedPromptTask(page, 'a blue jug');
  // What any replica answers for a job whose replica died mid-run (replicas.scale.test.ts makes
  // one for real): failed, interrupted, with the server's own words.
  const lost: OptimiseJob = {
    object: 'optimise_job',
    id: 'opt_lost',
    task_id: id,
    status: 'failed',
    progress: 40,
    stage: 'Failed',
    plan: optimisePlanOf({ preset: 'print', height_mm: 87.5 }),
    created_ms: Date.now() - 60_000,
    finished_ms: Date.now() - 30_000,
    result: null,
    error: runnerGone(),
  };
  await page.route('**/api/optimise/opt_lost', (route) => route.fulfill({ json: lost }));
  // Come back to the job by its address: the form is fresh (Web / AR).
  await page.goto(`/tasks/${id}/optimise?job=opt_lost`);
  const failed = page.getByTestId('optimise-failed');
  await expect(failed.getByRole('heading', { name: 'Optimising was interrupted' })).toBeVisible();
  await expect(failed).toContainText(
    'stopped answering before it finished (it crashed or was restarted). Nothing is wrong with the model or the options: run it again.',
  );
  await expect(page.getByRole('radio', { name: /Web/ })).toBeChecked();

  const asked = page.waitForRequest(
    (r) => r.method() === 'POST' && r.url().endsWith(`/api/library/${id}/optimise`),
  );
  await failed.getByRole('button', { name: 'Run it again' }).click();
  expect((await asked).postDataJSON()).toEqual({ preset: 'print', height_mm: 87.5 });
  // The form shows what was asked again; the new job runs to its end.
  await expect(page.getByRole('radio', { name: /3D print/ })).toBeChecked();
  await expect(page.getByRole('spinbutton', { name: 'Height (mm)' })).toHaveValue('87.5');
  const result = page.getByTestId('optimise-result');
  await expect(result).toBeVisible({ timeout: 60_000 });
  await expect(result.getByRole('row', { name: /^Size/ })).toContainText(/× 87\.5 mm$/);
  await expect(page).toHaveURL(/\?job=opt_[a-f0-9]+$/);
});
