import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import sharp from 'sharp';
import {
  checkPublicPage,
  embeddingSite,
  expectAccessible,
  expectLinkGone,
  expectRenderedModel,
  pictureKeptModel,
  overflowing,
  shot,
  useKey,
} from './helpers.ts';

const PROMPT = 'a small green teapot';

/** A finished prompt model in the studio, shown (so its picture is kept): its task id. */
const finishedModel = async (page: Page) => (await pictureKeptModel(page, PROMPT)).id;

test('share a model: a public page without a key, a link preview, an embed, revoked at once', async ({
  page,
  browser,
  context,
}, info) => {
  // A generation, two browsers and an embedding page: longer than one screen's test.
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await useKey(page);
  const id = await finishedModel(page);
  const detail = page.locator(`[data-testid="task-detail"][data-task-id="${id}"]`);

  // The dialog: modal, titled, focus inside; Escape closes it and focus returns to Share.
  const shareButton = detail.getByRole('button', { name: 'Share', exact: true });
  await shareButton.click();
  const dialog = page.getByRole('dialog', { name: `Share “${PROMPT}”` });
  await expect(dialog).toBeVisible();
  const create = dialog.getByRole('button', { name: 'Create link' });
  await expect(create).toBeFocused();
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(shareButton).toBeFocused();

  // Create the link, copy it and the embed snippet.
  await shareButton.click();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const copyLink = dialog.getByRole('button', { name: 'Copy link' });
  await expect(copyLink).toBeFocused();
  await copyLink.click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Link copied.' })).toBeVisible();
  const url = await page.evaluate(() => navigator.clipboard.readText());
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9_-]{24}$/);
  await expect(dialog.getByLabel('Public link')).toHaveValue(url);
  await dialog.getByRole('button', { name: 'Copy embed code' }).click();
  await expect(dialog.getByText('Embed code copied.')).toBeVisible();
  const embedHtml = await page.evaluate(() => navigator.clipboard.readText());
  expect(embedHtml).toMatch(/^<iframe src="http:\/\/127\.0\.0\.1:\d+\/s\/[^"]+\/embed" /);
  await expectAccessible(page);
  await shot(page, info, 'share-dialog');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  await expect(detail.getByRole('button', { name: 'Shared', exact: true })).toBeFocused();

  // Another key cannot see, make or revoke this task's link.
  for (const method of ['get', 'post', 'delete'] as const) {
    const res = await page.request[method](`/api/library/${id}/share`, {
      headers: { authorization: 'Bearer tr_e2e_poor' },
    });
    expect(res.status(), method).toBe(404);
  }

  // Someone else, in a new browser with no key: the model in Kiln's viewer, no nav, no balance.
  const visitor = await browser.newContext();
  const guest = await visitor.newPage();
  const opened = await guest.goto(url);
  expect(opened?.status()).toBe(200);
  await expect(guest.getByRole('heading', { level: 1, name: `“${PROMPT}”` })).toBeVisible();
  await expectRenderedModel(guest.getByTestId('model-viewer'));
  await expect(guest.getByRole('navigation')).toHaveCount(0);
  await expect(guest.getByText(/API key/i)).toHaveCount(0);
  await expect(guest.getByRole('link', { name: 'Kiln', exact: true }).last()).toBeVisible();
  await expect(guest.getByText(/Made with/)).toBeVisible();
  await expect(guest).toHaveTitle(`“${PROMPT}” · Kiln`);
  expect(await guest.evaluate(() => Object.keys(localStorage))).toEqual([]);
  // The studio's file opening is not here: no "Open…", no file input, no drop target.
  await expect(guest.getByRole('button', { name: 'Open…' })).toHaveCount(0);
  await expect(guest.getByTestId('viewer-file-input')).toHaveCount(0);
  await expect(guest.getByText('Drop a .glb file')).toHaveCount(0);
  await checkPublicPage(guest, info, 'share-page', 'share-page-390');

  // The link preview a chat app reads: Open Graph tags with an absolute picture that loads.
  const shell = await guest.request.get(url);
  expect(shell.headers()['x-robots-tag']).toBe('noindex, nofollow');
  const html = await shell.text();
  expect(html).toContain(`<meta property="og:title" content="“${PROMPT}”" />`);
  expect(html).toContain('<meta name="robots" content="noindex, nofollow" />');
  expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
  const image = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
  expect(image).toMatch(
    /^http:\/\/127\.0\.0\.1:\d+\/api\/shares\/[A-Za-z0-9_-]{24}\/preview\.jpg$/,
  );
  expect(html).toContain('<meta property="og:image:width" content="1200" />');
  expect(html).toContain('<meta property="og:image:height" content="630" />');
  expect(html).toContain('<meta property="og:image:type" content="image/jpeg" />');
  expect(html).toContain(`<meta name="twitter:image" content="${image}" />`);
  // The picture: the model on Kiln's stage with its name, opaque, the size previews show large.
  const picture = await guest.request.get(image!);
  expect(picture.status()).toBe(200);
  expect(picture.headers()['content-type']).toBe('image/jpeg');
  const previewBytes = await picture.body();
  const meta = await sharp(previewBytes).metadata();
  expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['jpeg', 1200, 630, false]);
  // Kept as PNG beside the screenshots, to be looked at.
  await sharp(previewBytes).png().toFile(info.outputPath('share-preview.png'));
  expect(html).not.toContain(id);

  // The embed snippet on another site (another origin on this machine): the model renders in
  // the frame, while the page itself refuses to be framed.
  const site = await embeddingSite(
    `<!doctype html><html lang="en"><title>A blog</title><body><h1>My teapot</h1>${embedHtml}` +
      `<iframe id="page" title="The page" src="${url}"></iframe></body></html>`,
  );
  const embedder = await visitor.newPage();
  const refusals: string[] = [];
  embedder.on('console', (m) => {
    if (/frame-ancestors/.test(m.text())) refusals.push(m.text());
  });
  await embedder.goto(site.url);
  const frame = embedder.frameLocator('iframe[title$="3D model on Kiln"]');
  await expectRenderedModel(frame.getByTestId('model-viewer'));
  await expect(frame.getByRole('link', { name: /Made with Kiln/ })).toBeVisible();
  await expect.poll(() => refusals.join('\n')).toContain("frame-ancestors 'none'");
  expect(refusals).toHaveLength(1); // the page's, not the embed's
  await shot(embedder, info, 'share-embed');

  // The gallery card says it is shared and opens the same link.
  await page.goto('/gallery');
  const shared = page.getByRole('button', {
    name: /^Shared: beta-text task “a small green teapot”/,
  });
  await shared.first().click();
  await expect(dialog.getByLabel('Public link')).toHaveValue(url);

  // Stop sharing: asked first (focus on the safe answer), then the page and its GLB 404 at once.
  await dialog.getByRole('button', { name: 'Stop sharing…' }).click();
  await expect(dialog.getByRole('button', { name: 'Keep sharing' })).toBeFocused();
  await shot(page, info, 'share-dialog-confirm');
  // On a phone, the dialog fits the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overflowing(page)).toEqual([]);
  await shot(page, info, 'share-dialog-390');
  await page.setViewportSize({ width: 1280, height: 720 });
  await dialog.getByRole('button', { name: 'Stop sharing', exact: true }).click();
  await expect(dialog.getByText(/Sharing stopped/)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Create link' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(
    page.getByRole('button', { name: /^Share: beta-text task “a small green teapot”/ }).first(),
  ).toBeFocused();

  await expectLinkGone(guest);
  await shot(guest, info, 'share-page-revoked');
  const token = new URL(url).pathname.split('/')[2];
  for (const path of [`/api/shares/${token}`, `/api/shares/${token}/model.glb`, image!])
    expect((await guest.request.get(path)).status(), path).toBe(404);
  await embedder.reload();
  await expect(
    embedder
      .frameLocator('iframe[title$="3D model on Kiln"]')
      .getByRole('heading', { name: 'This link does not work' }),
  ).toBeVisible();
  await visitor.close();
  await site.close();
});
