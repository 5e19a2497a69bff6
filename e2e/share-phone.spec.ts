import { devices, type Browser, type Locator, type Page } from '@playwright/test';
import { expect, test as kilnTest } from './fixtures.ts';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { findChromium } from '../scripts/chromium.mjs';
import {
  DEMO_KEY,
  expectAccessible,
  expectRenderedModel,
  finishedPromptModel,
  overflowing,
  shot,
  useKey,
} from './helpers.ts';

const PROMPT = 'a small blue jug';

// Kiln by a name other than loopback, as a phone on the network reaches the computer: a loopback
// link says it opens on this computer only and offers no QR code (issue 32, item 9; see
// balance-as-of.spec.ts). Chromium resolves the name to the test server, and treats the origin
// as secure, as it would a real https:// PUBLIC_URL.
const lanOrigin = (port: number) => `http://kiln-lan.test:${port}`;
/** The same server for the test's own requests (Node does not know the name). */
const direct = (path: string) => `http://127.0.0.1:${process.env.KILN_E2E_PORT}${path}`;
const chromium = await findChromium();
// The name and the secure origin need this worker's port, known once its Kiln has started.
const test = kilnTest.extend({
  launchOptions: [
    async ({ kiln }, use) =>
      use({
        ...(chromium?.executablePath ? { executablePath: chromium.executablePath } : {}),
        args: [
          ...(chromium?.args ?? []),
          '--host-resolver-rules=MAP kiln-lan.test 127.0.0.1',
          `--unsafely-treat-insecure-origin-as-secure=${lanOrigin(kiln.port)}`,
        ],
      }),
    { scope: 'worker' },
  ],
  baseURL: async ({ kiln }, use) => use(lanOrigin(kiln.port)),
});

/** What a QR code image says: its pixels (from its PNG data URL) read back with jsQR. */
async function qrText(img: Locator): Promise<string | null> {
  const src = await img.getAttribute('src');
  expect(src).toMatch(/^data:image\/png;base64,/);
  const png = Buffer.from(src!.slice(src!.indexOf(',') + 1), 'base64');
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data ?? null;
}

/** A visitor's browser on a phone (Chromium with the phone's screen and user agent). */
async function phone(browser: Browser, name: 'iPhone 13' | 'Pixel 7') {
  const { defaultBrowserType: _ignored, ...device } = devices[name];
  const context = await browser.newContext(device);
  return { context, page: await context.newPage() };
}

/** The public page has the viewer and none of the studio's file opening. */
async function expectPublicPage(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: `“${PROMPT}”` })).toBeVisible();
  await expectRenderedModel(page.getByTestId('model-viewer'));
  await expect(page.getByRole('button', { name: /^Open…/ })).toHaveCount(0);
  await expect(page.getByTestId('viewer-file-input')).toHaveCount(0);
  await expect(page.getByText(/Drop a \.glb/i)).toHaveCount(0);
  await expect(page.locator('input[type="file"]')).toHaveCount(0);
}

test('on a phone: the link as a QR code, and View in AR with Quick Look and Scene Viewer', async ({
  page,
  browser,
}, info) => {
  // A generation, the USDZ made in the browser and three visitors' browsers.
  test.setTimeout(240_000);
  await useKey(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  const { id, detail } = await finishedPromptModel(page, PROMPT);
  await expectRenderedModel(detail.getByTestId('model-viewer'));

  // The owner shares it: the dialog shows the link's QR code, which reads back to the link.
  await detail.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Share “${PROMPT}”` });
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const url = await dialog.getByLabel('Public link').inputValue();
  expect(url).toMatch(/^http:\/\/kiln-lan\.test:\d+\/s\/[A-Za-z0-9_-]{24}$/);
  await expect(dialog.getByTestId('this-computer-only')).toHaveCount(0);
  const qr = dialog.getByRole('img', { name: `QR code of the link to “${PROMPT}”` });
  await expect(qr).toBeVisible();
  expect(await qrText(qr)).toBe(url);

  // Meanwhile the owner's browser made the model's USDZ and sent it with the link.
  await expect(dialog.getByTestId('share-ar-status')).toHaveText(
    'Its page offers “View in AR” on iPhone, iPad and Android.',
    { timeout: 60_000 },
  );
  const token = new URL(url).pathname.split('/')[2]!;
  const usdzUrl = `/api/shares/${token}/model.usdz`;
  const usdz = await page.request.get(direct(usdzUrl));
  expect(usdz.status()).toBe(200);
  expect(usdz.headers()['content-type']).toBe('model/vnd.usdz+zip');
  const zip = await usdz.body();
  expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
  const firstName = zip.subarray(30, 30 + zip.readUInt16LE(26)).toString('utf8');
  expect(firstName).toMatch(/\.usd[ac]$/);
  const owners = await page.request.get(direct(`/api/library/${id}/share`), {
    headers: { authorization: `Bearer ${DEMO_KEY}` },
  });
  expect(((await owners.json()) as { usdz_url: string }).usdz_url).toBe(usdzUrl);

  await expectAccessible(page);
  await shot(page, info, 'share-phone-dialog-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(qr).toBeVisible();
  // The studio's viewer behind the dialog follows the new width on its next frame.
  await expect.poll(() => overflowing(page)).toEqual([]);
  await shot(page, info, 'share-phone-dialog-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await dialog.getByRole('button', { name: 'Done' }).click();

  // On an iPhone: "View in AR" is a Quick Look link (rel="ar", one image inside) to the USDZ.
  const iphone = await phone(browser, 'iPhone 13');
  expect((await iphone.page.goto(url))?.status()).toBe(200);
  await expectPublicPage(iphone.page);
  const quickLook = iphone.page.getByRole('link', { name: 'View in AR' });
  await expect(quickLook).toBeVisible();
  await expect(quickLook).toHaveAttribute('rel', 'ar');
  expect(new URL((await quickLook.getAttribute('href'))!, url).pathname).toBe(usdzUrl);
  expect(
    await quickLook.evaluate((a) => [...a.children].map((c) => c.tagName.toLowerCase())),
  ).toEqual(['img']);
  expect(await overflowing(iphone.page)).toEqual([]);
  await expectAccessible(iphone.page);
  await shot(iphone.page, info, 'share-phone-iphone-390');

  // On Android: a Scene Viewer intent with the link's GLB (absolute) and the page to fall back to.
  const android = await phone(browser, 'Pixel 7');
  await android.page.goto(url);
  await expectPublicPage(android.page);
  const sceneViewer = android.page.getByRole('link', { name: 'View in AR' });
  await expect(sceneViewer).toBeVisible();
  const intent = (await sceneViewer.getAttribute('href'))!;
  const glbUrl = new URL(`/api/shares/${token}/model.glb`, url).href;
  expect(intent).toBe(
    `intent://arvr.google.com/scene-viewer/1.2?file=${encodeURIComponent(glbUrl)}` +
      `&mode=ar_preferred&title=${new URLSearchParams({ t: `“${PROMPT}”` }).toString().slice(2)}` +
      '#Intent;scheme=https;package=com.google.android.googlequicksearchbox;' +
      `action=android.intent.action.VIEW;S.browser_fallback_url=${encodeURIComponent(url)};end;`,
  );
  await expectAccessible(android.page);
  await shot(android.page, info, 'share-phone-android');

  // On a computer: no AR link, but the page's QR code for a phone, on request.
  const visitor = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const desk = await visitor.newPage();
  await desk.goto(url);
  await expectPublicPage(desk);
  await expect(desk.getByRole('link', { name: 'View in AR' })).toHaveCount(0);
  const onPhone = desk.getByRole('button', { name: 'View on a phone' });
  await expect(onPhone).toHaveAttribute('aria-expanded', 'false');
  await onPhone.click();
  await expect(onPhone).toHaveAttribute('aria-expanded', 'true');
  const pageQr = desk.getByRole('img', { name: `QR code of the link to “${PROMPT}”` });
  await expect(pageQr).toBeVisible();
  expect(await qrText(pageQr)).toBe(url);
  await expectAccessible(desk);
  await shot(desk, info, 'share-phone-page-1440');
  await desk.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => overflowing(desk)).toEqual([]);
  await shot(desk, info, 'share-phone-page-390');

  // Revoked: the USDZ and the GLB the AR links point at answer 404 at once.
  const revoked = await page.request.delete(direct(`/api/library/${id}/share`), {
    headers: { authorization: `Bearer ${DEMO_KEY}` },
  });
  expect(revoked.status()).toBe(204);
  for (const path of [usdzUrl, new URL(glbUrl).pathname, `/api/shares/${token}/preview.jpg`])
    expect((await desk.request.get(direct(path))).status(), path).toBe(404);
  await iphone.page.reload();
  await expect(iphone.page.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
  await expect(iphone.page.getByRole('link', { name: 'View in AR' })).toHaveCount(0);

  await Promise.all([iphone.context.close(), android.context.close(), visitor.close()]);
});
