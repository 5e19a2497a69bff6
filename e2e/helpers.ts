import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page, type Route, type TestInfo } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { photoPath } from '../src/testing/fixtures.ts';
import sharp from 'sharp';

export const photo = (name: string) => photoPath(name);
export const DEMO_KEY = 'tr_demo_kiln';

/** Signs in by storing the key as the key screen would ("remember on this device"). */
export async function useKey(page: Page, key = DEMO_KEY) {
  await page.addInitScript((k) => {
    if (!sessionStorage.getItem('kiln.e2e.keySet')) {
      localStorage.setItem('kiln.apiKey', k);
      sessionStorage.setItem('kiln.e2e.keySet', '1');
    }
  }, key);
}

/**
 * Screenshots for people to open and look at (test-results/e2e/…). A CI run is a clean clone that
 * nobody looks into, so there they are not taken (a failure still keeps its own, by
 * playwright.config.ts) unless KILN_SHOTS=1; each is a full-page capture, drawn again.
 */
const TAKE_SHOTS = !process.env.CI || process.env.KILN_SHOTS === '1';

export async function shot(
  page: Page,
  info: TestInfo,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
) {
  if (TAKE_SHOTS) await page.screenshot({ path: info.outputPath(`${name}.png`), fullPage });
}

/**
 * No serious or critical axe violation on the current screen; with `rules`, no violation at all
 * of those rules whatever their impact (axe calls `heading-order` moderate).
 */
export async function expectAccessible(page: Page, rules?: string[]) {
  const builder = new AxeBuilder({ page });
  const results = await (rules ? builder.withRules(rules) : builder).analyze();
  const bad = results.violations.filter(
    (v) => rules !== undefined || v.impact === 'serious' || v.impact === 'critical',
  );
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

/** The canvas shows something: its pixels are not one flat colour. */
export async function expectRenderedModel(viewer: Locator) {
  await expect(viewer).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  // A page screenshot clipped to the canvas: no waiting for "stable", which a live canvas never is.
  // The viewer starts a fresh canvas when WebGL gives a lost context back (use-viewer-lifecycle),
  // which a loaded machine's software renderer sometimes does: the check then reads the new one.
  await expect(async () => {
    await expect(viewer).toHaveAttribute('data-state', 'ready', { timeout: 5_000 });
    const canvas = viewer.locator('canvas');
    await canvas.scrollIntoViewIfNeeded({ timeout: 5_000 });
    const box = await canvas.boundingBox();
    expect(box, 'the canvas has a size').not.toBeNull();
    const png = await viewer
      .page()
      .screenshot({ clip: box ?? { x: 0, y: 0, width: 1, height: 1 } });
    const stats = await sharp(png).stats();
    const spread = stats.channels.slice(0, 3).reduce((s, c) => s + c.stdev, 0);
    expect(spread, 'canvas pixels vary (a model is drawn)').toBeGreaterThan(15);
  }).toPass({ timeout: 30_000 });
}

/** Downloads the GLB from the result and checks it parses as a GLB. */
export async function downloadGlb(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download GLB' }).click(),
  ]);
  const path = await download.path();
  const bytes = new Uint8Array(readFileSync(path));
  expect(new TextDecoder().decode(bytes.slice(0, 4))).toBe('glTF');
  const { validateBytes } = await import('gltf-validator');
  const report = await validateBytes(bytes);
  expect(report.issues.numErrors).toBe(0);
  return { name: download.suggestedFilename(), bytes };
}

export async function balanceOf(page: Page): Promise<number> {
  const res = await page.request.get('/api/credits', {
    headers: { authorization: `Bearer ${DEMO_KEY}` },
  });
  return ((await res.json()) as { balance: number }).balance;
}

/**
 * The balance the mock upstream's own ledger holds for a key, read from its database file (the
 * real thing a shown balance is checked against).
 */
export function mockLedgerBalance(key = DEMO_KEY): number {
  const dir = process.env.KILN_E2E_DATA_DIR;
  if (!dir) throw new Error('KILN_E2E_DATA_DIR is not set');
  const db = new Database(join(dir, 'mock', 'mock.sqlite'), { readonly: true });
  try {
    const hash = createHash('sha256').update(key).digest('hex');
    const row = db.prepare('select balance from accounts where key_hash = ?').get(hash) as
      { balance: number } | undefined;
    if (!row) throw new Error(`the mock has no account for ${key.slice(0, 7)}…`);
    return row.balance;
  } finally {
    db.close();
  }
}

export async function libraryCount(page: Page, key = DEMO_KEY): Promise<number> {
  const res = await page.request.get('/api/library?limit=100', {
    headers: { authorization: `Bearer ${key}` },
  });
  return ((await res.json()) as { data: unknown[] }).data.length;
}

export async function pickModel(page: Page, id: string) {
  await page.locator(`input[name="model"][value="${id}"]`).check();
}

/** Clicks Generate and returns the new task's detail panel (found by the id the create answered). */
export async function generate(
  page: Page,
  click: (b: Locator) => Promise<void> = (b) => b.click(),
) {
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/3d/generations') && r.request().method() === 'POST' && r.ok(),
  );
  await click(page.getByRole('button', { name: 'Generate' }));
  const { id } = (await (await created).json()) as { id: string };
  const detail = page.locator(`[data-testid="task-detail"][data-task-id="${id}"]`);
  await expect(detail).toBeVisible();
  return { id, detail };
}

/** A prompt model made in the studio with beta-text and finished: its task id and detail panel. */
export async function finishedPromptModel(page: Page, prompt: string) {
  await page.goto('/');
  await pickModel(page, 'beta-text');
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  const { id, detail } = await generate(page);
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  return { id, detail };
}

/**
 * A finished prompt model in the studio, shown until the viewer has kept its picture (the
 * gallery's, a share page's poster): its task id and detail panel.
 */
export async function pictureKeptModel(page: Page, prompt: string) {
  const made = await finishedPromptModel(page, prompt);
  await expectRenderedModel(made.detail.getByTestId('model-viewer'));
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/library/${made.id}`, {
          headers: { authorization: `Bearer ${DEMO_KEY}` },
        });
        return ((await res.json()) as { thumbnail_url: string | null }).thumbnail_url;
      },
      { timeout: 20_000 },
    )
    .not.toBeNull();
  return made;
}

/**
 * A prompt model made through Kiln's proxy with the demo key, read until Kiln keeps it; its
 * task id is pushed onto `madeHere` (a `hiddenAfterEach()` list) and returned.
 */
export async function keptPromptModel(
  page: Page,
  prompt: string,
  madeHere: string[],
): Promise<string> {
  const auth = { authorization: `Bearer ${DEMO_KEY}` };
  const res = await page.request.post('/api/v1/3d/generations', {
    headers: auth,
    data: { model: 'beta-text', prompt },
  });
  expect(res.status(), await res.text()).toBe(202);
  const { id } = (await res.json()) as { id: string };
  madeHere.push(id);
  await expect
    .poll(
      async () => {
        const entry = await page.request.get(`/api/library/${id}`, { headers: auth });
        return ((await entry.json()) as { archived: boolean }).archived;
      },
      { timeout: 40_000 },
    )
    .toBe(true);
  return id;
}

/** Elements that run past the window's right edge (the first six), for "nothing sticks out". */
export async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.width > 0 && box.right > window.innerWidth + 0.5;
      })
      .slice(0, 6)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${String(el.className)} (${Math.round(el.getBoundingClientRect().right)} px)`,
      ),
  );
}

/** The canvas as raw RGB pixels (a page screenshot clipped to it). */
export async function pixels(viewer: Locator): Promise<Buffer> {
  await viewer.locator('canvas').scrollIntoViewIfNeeded();
  const box = await viewer.locator('canvas').boundingBox();
  if (!box) throw new Error('no canvas');
  const png = await viewer.page().screenshot({ clip: box });
  return sharp(png).removeAlpha().resize(160, 120, { fit: 'fill' }).raw().toBuffer();
}

/** Mean absolute difference per channel (0–255) between two pictures of the canvas. */
export function difference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}

/** Lets the on-demand canvas draw the change (a few animation frames). */
export async function settle(page: Page) {
  await page.evaluate(
    () =>
      new Promise((r) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 150))),
      ),
  );
}

export async function press(viewer: Locator, key: string) {
  await viewer.focus();
  await viewer.page().keyboard.press(key);
  await settle(viewer.page());
}

/**
 * The tasks a spec makes, hidden once each test is done: other specs share the demo key and count
 * what the gallery shows. Push each task's id onto the list this returns.
 */
export function hiddenAfterEach(): string[] {
  const madeHere: string[] = [];
  test.afterEach(async ({ request }) => {
    if (madeHere.length === 0) return;
    const res = await request.post('/api/library/bulk', {
      headers: { authorization: `Bearer ${DEMO_KEY}` },
      data: { ids: madeHere.splice(0), action: 'hide' },
    });
    expect(res.status()).toBe(200);
  });
  return madeHere;
}

/**
 * A public page (a shared model's, a shared collection's) as it is, then at 390 × 844 (the model
 * drawn, nothing overflowing), then dark, each checked with axe and shot: `wide`, `${narrow}` and
 * `${narrow}-dark`. It ends at 390 × 844, light.
 */
export async function checkPublicPage(page: Page, info: TestInfo, wide: string, narrow: string) {
  await expectAccessible(page);
  await shot(page, info, wide);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectRenderedModel(page.getByTestId('model-viewer'));
  expect(await overflowing(page)).toEqual([]);
  await shot(page, info, narrow);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page);
  await shot(page, info, `${narrow}-dark`);
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A public link that no longer works: reloaded, a 404 saying so, no viewer, its own title. */
export async function expectLinkGone(page: Page) {
  const res = await page.reload();
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
  await expect(page.getByTestId('model-viewer')).toHaveCount(0);
  await expect(page).toHaveTitle('Link not found · Kiln');
}

// ---- Providers (issue 34): Connections, balance chips --------------------------------------

/** The card of a provider on /connections. */
export const card = (page: Page, provider: string) => page.locator(`[data-provider="${provider}"]`);

/** Connects a provider with its mock's demo key: filled, tested, kept. */
export async function connectDemo(page: Page, provider: string, label: string) {
  const c = card(page, provider);
  await c.getByRole('button', { name: 'Use the demo key' }).click();
  await c.getByRole('button', { name: 'Save' }).click();
  await expect(c.getByText(/^Connected with /)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: `Remove ${label} key` })).toBeVisible();
}

/** Screenshots at 1440 × 900 and 390 × 844, with no sideways overflow on the phone. */
export async function shoot(page: Page, info: TestInfo, name: string) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await shot(page, info, `${name}-1440`);
  await page.setViewportSize({ width: 390, height: 844 });
  // A canvas takes its new size on the next frame after the resize: asked until it has.
  await expect.poll(() => overflowing(page), { message: `${name} at 390 px` }).toEqual([]);
  await shot(page, info, `${name}-390`);
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** The figure in a header chip ("Meshy 970 credits" → 970). */
export async function chipFigure(page: Page, provider: string): Promise<number> {
  const text = (await page.getByTestId(`balance-${provider}`).textContent()) ?? '';
  const m = /([\d,.]+)/.exec(text.replace(/\$/g, ''));
  if (!m) throw new Error(`no figure in "${text}"`);
  return Number(m[1]!.replace(/,/g, ''));
}

/** Makes a photo task with a provider's model through the form; its id once it completes. */
export async function photoTask(page: Page, info: TestInfo, model: string, queueShot?: string) {
  await page.goto('/');
  await expect(page.locator(`input[name="model"][value="${model}"]`)).toBeAttached({
    timeout: 30_000,
  });
  await pickModel(page, model);
  await page.getByTestId('file-input').first().setInputFiles(photo('chair.png'));
  await expect(page.getByText('Ready')).toBeVisible({ timeout: 30_000 });
  // The fast mock may finish before a person could read the queue line: the page's polls of the
  // new task wait until it has been read, so what is on screen is the create's own answer.
  let release = () => {};
  const read = new Promise<void>((resolve) => (release = resolve));
  const hold = async (route: Route) => {
    if (route.request().method() !== 'GET') return route.fallback();
    await read;
    return route.fallback();
  };
  const polls = '**/api/v1/3d/generations/*';
  if (queueShot) await page.route(polls, hold);
  const { id, detail } = await generate(page);
  if (queueShot) {
    // fal states no percentage: its queue place or "Running", and the time elapsed.
    const stage = detail.getByTestId('vendor-stage');
    await expect(stage).toBeVisible();
    await expect(stage).toContainText(/In queue|Running/);
    await expect(stage).toContainText('no percentage from the provider');
    await expect(stage).not.toContainText(/\d+%/);
    await shoot(page, info, queueShot);
    release();
    await page.unroute(polls, hold);
  }
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  return id;
}

/** Another site on this machine (a loopback port of its own) that serves one page. */
export async function embeddingSite(html: string) {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
