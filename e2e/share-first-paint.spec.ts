// A share link's first paint (issue 36): a stranger on a phone sees the model's kept picture at
// once, as the page's largest paint, while the GLB is still on its way; the GLB is asked for with
// the page (one request, used by the viewer), and the model is drawn over the picture.
import { expect, test } from './fixtures.ts';
import { DEMO_KEY, expectRenderedModel, pictureKeptModel, shot, useKey } from './helpers.ts';

test('a share link on a phone: the kept picture first as the largest paint, the GLB asked for once with the page, then the model over it', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(180_000);
  await useKey(page);
  const { id } = await pictureKeptModel(page, 'a small blue teapot');
  const made = await page.request.post(`/api/library/${id}/share`, {
    headers: { authorization: `Bearer ${DEMO_KEY}` },
  });
  const { url, token } = (await made.json()) as { url: string; token: string };

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
  // One download of the GLB, shared by the preload and the viewer.
  expect(asked).toHaveLength(1);
  await visitor.close();
});
