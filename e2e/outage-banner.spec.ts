// The outage banner over the studio while Kiln's server is really stopped (issue 32, items 5 and
// 6; decision 0100): a Kiln of its own for this file, stopped mid-task, then started again on the
// same port and data. The banner stays in the viewport, under the header (not behind it),
// however far the page is scrolled, at 1440 × 900 and 390 × 844, and says what happens to tasks
// in its mode: the built-in mock restarts them, a real upstream keeps them. With a real upstream
// and no task yet, the header says when the balance appears (item 10).
import { type Page, type TestInfo } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnEntry, type Spawned } from '../src/testing/spawn-server.ts';
import { DEMO_KEY, expectAccessible, generate, overflowing, pickModel, useKey } from './helpers.ts';

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A picture of what the window shows (not the whole page: the point is what is in view). */
async function viewShot(page: Page, info: TestInfo, name: string) {
  await page.screenshot({ path: info.outputPath(`${name}.png`) });
}

/**
 * The banner is in the viewport, below the header's bottom edge, and is what the browser finds
 * at its own centre (nothing covers it), with the page scrolled to its end.
 */
async function expectBannerInView(page: Page) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const banner = page.getByTestId('connection-banner');
  await expect(banner).toBeVisible();
  const seen = await page.evaluate(() => {
    const b = document.querySelector('[data-testid="connection-banner"]')!.getBoundingClientRect();
    const h = document.querySelector('.app-header')!.getBoundingClientRect();
    const atCentre = document.elementFromPoint(b.left + b.width / 2, b.top + b.height / 2);
    return {
      scrolled: window.scrollY,
      top: b.top,
      bottom: b.bottom,
      headerBottom: h.bottom,
      viewport: window.innerHeight,
      onTop: Boolean(atCentre?.closest('[data-testid="connection-banner"]')),
    };
  });
  expect(seen.top, JSON.stringify(seen)).toBeGreaterThanOrEqual(seen.headerBottom - 0.5);
  expect(seen.bottom, JSON.stringify(seen)).toBeLessThanOrEqual(seen.viewport);
  expect(seen.onTop, JSON.stringify(seen)).toBe(true);
  return seen;
}

test.describe('Kiln’s server stopped in mock mode', () => {
  let kiln: Spawned | undefined;
  let dataDir: string | undefined;
  const env = () => ({
    DATA_DIR: dataDir!,
    // A task long enough to be under way when the server stops.
    MOCK_SPEED: 'realistic',
    LOG_LEVEL: 'warn',
    MOCK_KEYS: `${DEMO_KEY}:1000`,
    SHUTDOWN_GRACE: '2s',
  });
  test.beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'kiln-e2e-banner-'));
    kiln = await spawnEntry('src/server/main.ts', env());
  });
  test.afterAll(async () => {
    await kiln?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('the banner stays in view over the studio, says the mock restarts its tasks, and goes once Kiln is back', async ({
    page,
  }, info) => {
    test.setTimeout(180_000);
    const base = kiln!.url;
    await page.setViewportSize(WIDE);
    await useKey(page);
    await page.goto(`${base}/`);
    await pickModel(page, 'beta-text');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('a clay owl while Kiln stops');
    const { detail } = await generate(page);
    await expect(detail).toHaveAttribute('data-status', 'pending');

    await kiln!.stop();
    const banner = page.getByTestId('connection-banner');
    await expect(banner).toHaveText(
      '⚠ Kiln’s server cannot be reached. Its built-in mock upstream stopped with it: tasks under way start again from the beginning when Kiln is back (charged once). This page reconnects by itself.',
      { timeout: 30_000 },
    );
    await expect(banner).not.toContainText('keep running upstream');
    await expectBannerInView(page);
    await viewShot(page, info, 'banner-mock-1440');
    await expectAccessible(page);

    await page.setViewportSize(PHONE);
    const phone = await expectBannerInView(page);
    // The page really scrolled on a phone, and the banner came along.
    expect(phone.scrolled).toBeGreaterThan(0);
    expect(await overflowing(page)).toEqual([]);
    await viewShot(page, info, 'banner-mock-390');

    // Kiln again, on the same address and data: the banner goes by itself, the task resumes.
    kiln = await spawnEntry('src/server/main.ts', { ...env(), PORT: new URL(base).port });
    await expect(banner).toHaveCount(0, { timeout: 30_000 });
    await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  });
});

test.describe('Kiln’s server stopped with a real upstream', () => {
  let upstream: Spawned | undefined;
  let kiln: Spawned | undefined;
  const dirs: string[] = [];
  test.beforeAll(async () => {
    const dir = () => {
      const d = mkdtempSync(join(tmpdir(), 'kiln-e2e-banner-up-'));
      dirs.push(d);
      return d;
    };
    // Another Kiln's built-in mock stands in for the real API: this Kiln only knows its URL.
    upstream = await spawnEntry('src/server/main.ts', {
      DATA_DIR: dir(),
      MOCK_SPEED: 'realistic',
      LOG_LEVEL: 'warn',
      MOCK_KEYS: `${DEMO_KEY}:1000`,
    });
    kiln = await spawnEntry('src/server/main.ts', {
      DATA_DIR: dir(),
      UPSTREAM_URL: `${upstream.url}/mock/v1`,
      LOG_LEVEL: 'warn',
      SHUTDOWN_GRACE: '2s',
    });
  });
  test.afterAll(async () => {
    await kiln?.stop();
    await upstream?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test('before any task the header says when the balance appears; stopped, the banner says tasks keep running upstream', async ({
    page,
  }, info) => {
    test.setTimeout(120_000);
    await page.setViewportSize(WIDE);
    await useKey(page);
    await page.goto(`${kiln!.url}/`);
    // No balance call in the API, no task yet: words, not a dash.
    const chip = page.getByTestId('balance');
    await expect(chip).toHaveText('◆ Balance · after your first task');
    await expect(chip).toHaveAttribute('title', /appears after your first task finishes/);
    await pickModel(page, 'beta-text');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('a glass buoy sent upstream');
    const { detail } = await generate(page);
    await expect(detail).toHaveAttribute('data-status', 'pending');

    await kiln!.stop();
    const banner = page.getByTestId('connection-banner');
    await expect(banner).toHaveText(
      '⚠ Kiln’s server cannot be reached. Tasks already sent keep running upstream; this page reconnects by itself and catches up.',
      { timeout: 30_000 },
    );
    await expectBannerInView(page);
    await viewShot(page, info, 'banner-upstream-1440');
    await page.setViewportSize(PHONE);
    await expectBannerInView(page);
    await viewShot(page, info, 'banner-upstream-390');
  });
});
