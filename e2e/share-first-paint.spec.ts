// A share link's first paint (issue 36): a stranger on a phone sees the model's kept picture at
// once, as the page's largest paint, while the GLB is still on its way; the GLB is asked for with
// the page (one request, used by the viewer), and the model is drawn over the picture.
import { expect, test } from './fixtures.ts';
import type { Locator, Page } from '@playwright/test';
import { DEMO_KEY, expectRenderedModel, pictureKeptModel, shot, useKey } from './helpers.ts';

/** A model made from `prompt` with its picture kept, shared: its link's address and token. */
async function sharedPictureModel(page: Page, prompt: string) {
  await useKey(page);
  const { id } = await pictureKeptModel(page, prompt);
  const made = await page.request.post(`/api/library/${id}/share`, {
    headers: { authorization: `Bearer ${DEMO_KEY}` },
  });
  return (await made.json()) as { url: string; token: string };
}

/**
 * The page's code comes: the model's first frame is drawn with three.js alone, and the app's code
 * (React, the page, react-three-fiber) is not asked for until it is (decision 0132).
 */
async function firstFrameBeforeTheApp(
  guest: Page,
  first: Locator,
  release: () => void,
  releaseGlb: () => void,
) {
  const appAsked: string[] = [];
  guest.on('request', (r) => {
    if (/\/assets\/(?:boot|react-dom|share-page|model-viewer)-[^/]+\.js$/.test(r.url()))
      appAsked.push(r.url());
  });
  release();
  await expect(first.locator('.share-page__progress')).toHaveText(/^Loading model…/);
  expect(appAsked).toEqual([]);
  releaseGlb();
  await expect(first.locator('canvas.share-page__first-frame')).toBeVisible();
  const drawnAt = await guest.evaluate(
    () => performance.getEntriesByName('kiln:viewer:first-frame')[0]?.startTime ?? null,
  );
  expect(drawnAt).not.toBeNull();
  const askedBefore = await guest.evaluate(
    (at) =>
      performance
        .getEntriesByType('resource')
        .filter((e) => /\/assets\/(?:boot|react-dom|share-page|model-viewer)-/.test(e.name))
        .filter((e) => e.startTime < at).length,
    drawnAt!,
  );
  expect(askedBefore, 'app chunks asked for before the first frame').toBe(0);
  await expect(first.locator('.share-page__poster')).toBeHidden();
}

test('a share link on a phone: the kept picture first as the largest paint, the GLB asked for once with the page, then the model over it', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(180_000);
  const { url, token } = await sharedPictureModel(page, 'a small blue teapot');

  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const guest = await visitor.newPage();
  // The GLB held back until the picture has been seen: what a slow network does to a big model.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const glbPath = `/api/shares/${token}/model.glb`;
  const asked: string[] = [];
  guest.on('request', (r) => {
    if (new URL(r.url()).pathname === glbPath) asked.push(r.url());
  });
  const encodings: (string | undefined)[] = [];
  guest.on('response', async (r) => {
    if (new URL(r.url()).pathname === glbPath)
      encodings.push((await r.allHeaders())['content-encoding']);
  });
  await guest.route(`**${glbPath}`, async (route) => {
    await held;
    await route.continue();
  });
  await guest.goto(url);

  // The poster: the kept picture, loaded, where the viewer will be; the model not drawn yet.
  const poster = guest.locator('.share-page__poster, .model-viewer__poster');
  await expect(poster).toBeVisible();
  await expect(poster).toHaveAttribute('src', `/api/shares/${token}/thumbnail.webp`);
  await expect
    .poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  // Not drawn yet: the download's progress on the picture.
  await expect(guest.locator('.share-page__poster-frame--drawn')).toHaveCount(0);
  await expect(guest.locator('.share-page__progress')).toHaveText(/^Loading model…/);
  await shot(guest, info, 'share-first-paint-poster-390');
  // The page's largest paint is that picture.
  const largest = await guest.evaluate(
    () =>
      new Promise<string>((resolve) => {
        new PerformanceObserver((list) => {
          const last = list.getEntries().at(-1) as PerformanceEntry & { url?: string };
          resolve(last.url ?? '');
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
  expect(new URL(largest).pathname).toBe(`/api/shares/${token}/thumbnail.webp`);
  // The GLB was asked for with the page, before any of the page's code ran.
  expect(asked).toHaveLength(1);

  release();
  const viewer = guest.getByTestId('model-viewer');
  await expectRenderedModel(viewer);
  await expect(poster).toHaveCount(0);
  await shot(guest, info, 'share-first-paint-drawn-390');
  // One download of the GLB, shared by the preload and the viewer, compressed on the way.
  expect(asked).toHaveLength(1);
  expect(encodings).toEqual(['br']);
  await visitor.close();
});

test('a share page is drawn by the server before any script runs, its model’s first frame before the app’s code, and the SPA takes over in the same place', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(180_000);
  const { url, token } = await sharedPictureModel(page, 'a small green teapot');

  // No script at all: the page's top, its title and facts, and the kept picture.
  const still = await browser.newContext({
    viewport: { width: 390, height: 844 },
    javaScriptEnabled: false,
  });
  const reader = await still.newPage();
  await reader.goto(url);
  await expect(reader.getByRole('heading', { name: '“a small green teapot”' })).toBeVisible();
  await expect(reader.getByText(/^From a text prompt · /)).toBeVisible();
  const kept = reader.locator('.share-page__poster');
  await expect(kept).toHaveAttribute('src', `/api/shares/${token}/thumbnail.webp`);
  await expect
    .poll(() => kept.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  await shot(reader, info, 'share-first-paint-no-script-390');
  // The embed: the picture fills the frame, with the credit.
  await reader.goto(`${url}/embed`);
  await expect(reader.locator('.share-page__poster')).toBeVisible();
  await expect(reader.getByRole('link', { name: 'Made with Kiln' })).toBeVisible();
  await shot(reader, info, 'share-first-paint-embed-no-script-390');
  await still.close();

  // The page's code (and the GLB) held back: the picture is already the largest paint.
  const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const guest = await visitor.newPage();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await guest.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  let releaseGlb!: () => void;
  const glbHeld = new Promise<void>((resolve) => (releaseGlb = resolve));
  await guest.route(`**/api/shares/${token}/model.glb`, async (route) => {
    await glbHeld;
    await route.continue();
  });
  await guest.goto(url, { waitUntil: 'commit' });
  const first = guest.locator('#kiln-first-paint');
  const poster = first.locator('.share-page__poster');
  await expect
    .poll(() => poster.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  const largestPaints = () =>
    guest.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          new PerformanceObserver((list) => {
            resolve(list.getEntries().map((e) => (e as PerformanceEntry & { url: string }).url));
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
  const thumbnail = `/api/shares/${token}/thumbnail.webp`;
  expect((await largestPaints()).map((u) => new URL(u).pathname)).toEqual([thumbnail]);
  const boxes = async (root: ReturnType<typeof guest.locator>) => ({
    title: await root.getByRole('heading').first().boundingBox(),
    picture: await root.locator('.share-page__poster, .model-viewer__poster').boundingBox(),
  });
  const server = await boxes(first);

  await firstFrameBeforeTheApp(guest, first, release, releaseGlb);
  await shot(guest, info, 'share-first-paint-first-frame-390');

  // The SPA draws the page in the same place behind it, and shows it once its viewer has drawn
  // the model: the server's drawing is gone.
  const spa = guest.getByTestId('share-page');
  await expectRenderedModel(guest.getByTestId('model-viewer'));
  await expect(first).toHaveCount(0);
  await expect(spa).toBeVisible();
  const drawn = { title: await spa.getByRole('heading').first().boundingBox() };
  // The picture, and the SPA's page, make no later largest paint: the server's stays the page's.
  expect((await largestPaints()).map((u) => new URL(u).pathname)).toEqual([thumbnail]);
  expect(drawn.title).not.toBeNull();
  for (const side of ['x', 'y', 'width', 'height'] as const)
    expect(drawn.title![side], `title ${side}`).toBeCloseTo(server.title![side], 2);
  const stage = await spa.locator('.model-viewer__stage').boundingBox();
  for (const side of ['x', 'y', 'width', 'height'] as const)
    expect(stage![side], `stage ${side}`).toBeCloseTo(server.picture![side], 0);
  await shot(guest, info, 'share-first-paint-handed-over-390');
  await visitor.close();
});
