// A share link's first paint (issue 36): a stranger on a phone sees the model's kept picture at
// once, as the page's largest paint, while the GLB is still on its way; the GLB is asked for with
// the page (one request, used by the viewer), and the model is drawn over the picture.
import { expect, test } from './fixtures.ts';
import type { Page } from '@playwright/test';
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
  await expect(guest.getByTestId('model-viewer')).not.toHaveAttribute('data-state', 'ready');
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

test('a share page is drawn by the server before any script runs, and the SPA draws it again in the same place', async ({
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

  // The SPA draws the page in the same place, up to the viewer with its poster, and the
  // server's drawing is gone.
  release();
  const spa = guest.getByTestId('share-page');
  await expect(spa.locator('.model-viewer__poster')).toBeVisible();
  await expect(first).toHaveCount(0);
  const drawn = await boxes(spa);
  // Drawn again, the picture makes no later largest paint: the server's stays the page's.
  expect((await largestPaints()).map((u) => new URL(u).pathname)).toEqual([thumbnail]);
  for (const part of ['title', 'picture'] as const) {
    for (const side of ['x', 'y', 'width', 'height'] as const)
      expect(drawn[part]![side], `${part} ${side}`).toBeCloseTo(server[part]![side], 2);
  }
  releaseGlb();
  await expectRenderedModel(guest.getByTestId('model-viewer'));
  await visitor.close();
});
