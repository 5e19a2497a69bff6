// Collections (issue 26 item 2, decision 0087): models grouped by name, a model in several;
// made from the gallery's selection and from a result, the gallery shown by collection (in the
// address), renamed, a model taken out, downloaded as one zip, shared as one public page with
// every model's picture and a viewer for the one chosen, revoked, deleted.
import { type Browser, type Locator, type Page, type TestInfo } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import {
  DEMO_KEY,
  checkPublicPage,
  embeddingSite,
  expectAccessible,
  expectLinkGone,
  expectRenderedModel,
  finishedPromptModel,
  hiddenAfterEach,
  keptPromptModel,
  overflowing,
  shot,
  useKey,
} from './helpers.ts';

const auth = { authorization: `Bearer ${DEMO_KEY}` };
const madeHere = hiddenAfterEach();

/** A prompt model made through Kiln's proxy, read until it is kept: its task id. */
const made = (page: Page, prompt: string) => keptPromptModel(page, prompt, madeHere);

const card = (page: Page, id: string) => page.locator(`[data-card][data-task-id="${id}"]`);

/**
 * The share dialog's embed code (issue 32): copied whole, an `<iframe>` of the collection's
 * frameable page titled with its name; pasted into another site's page, it shows the collection.
 */
async function embedCodeStep(page: Page, share: Locator, browser: Browser, url: string) {
  const code = share.getByRole('textbox', { name: 'Embed on a web page' });
  await expect(code).toBeVisible();
  await share.getByRole('button', { name: 'Copy embed code' }).click();
  await expect(share.getByRole('status')).toHaveText('Embed code copied.');
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  await expect(code).toHaveValue(snippet);
  const title = 'Den — a collection of 3D models on Kiln';
  expect(snippet).toBe(
    `<iframe src="${url}/embed" title="${title}" width="640" height="480" ` +
      'style="border:0;max-width:100%" loading="lazy"></iframe>',
  );
  // "Open the page" sits beside it, as in a model's dialog.
  await expect(share.getByRole('link', { name: /Open the page/ })).toHaveAttribute('href', url);

  const site = await embeddingSite(
    `<!doctype html><html lang="en"><title>A blog</title><body><h1>My den</h1>${snippet}</body></html>`,
  );
  const visitor = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const host = await visitor.newPage();
  await host.goto(site.url);
  await expect(host.locator('iframe')).toHaveAttribute('title', title);
  const frame = host.frameLocator(`iframe[title="${title}"]`);
  await expect(frame.getByRole('heading', { level: 1, name: 'Den' })).toBeVisible();
  await expect(frame.getByRole('link', { name: /Made with Kiln/ })).toHaveAttribute('href', url);
  await visitor.close();
  await site.close();
}

/**
 * Share the collection shown ("Den"): make the link, copy it and its embed code, the dialog
 * looked at on a desktop and a phone, then closed. Its dialog and the link.
 */
async function shareStep(page: Page, browser: Browser, info: TestInfo) {
  await page.getByRole('button', { name: 'Share collection' }).click();
  const share = page.getByRole('dialog', { name: 'Share “Den”' });
  await share.getByRole('button', { name: 'Create link' }).click();
  const copy = share.getByRole('button', { name: 'Copy link' });
  await expect(copy).toBeFocused();
  await copy.click();
  await expect(share.getByRole('status')).toHaveText('Link copied.');
  const url = await page.evaluate(() => navigator.clipboard.readText());
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/c\/[A-Za-z0-9_-]{24}$/);
  await expect(share.getByLabel('Public link')).toHaveValue(url);
  await embedCodeStep(page, share, browser, url);
  await expectAccessible(page);
  await shot(page, info, 'collections-share-dialog-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overflowing(page)).toEqual([]);
  await shot(page, info, 'collections-share-dialog-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await share.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('button', { name: /^Shared collection/ })).toBeFocused();
  return { share, url };
}

test('collections: made from the selection and a result, shown by address, renamed, emptied a little, zipped, shared, revoked, deleted', async ({
  page,
  browser,
  context,
}, info) => {
  test.setTimeout(300_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1440, height: 900 });
  await useKey(page);
  const chair = await made(page, 'a small red chair for collections');
  const lamp = await made(page, 'a tall green lamp for collections');

  // The gallery: select two cards, "Add to collection…", a new collection by name.
  await page.goto('/gallery');
  await card(page, chair).getByRole('checkbox').check();
  await card(page, lamp).getByRole('checkbox').check();
  const bar = page.getByRole('region', { name: 'Selected tasks' });
  await bar.getByRole('button', { name: 'Add to collection…' }).click();
  const add = page.getByRole('dialog', { name: 'Add 2 models to a collection' });
  await expect(add).toBeVisible();
  const newName = add.getByRole('textbox', { name: 'New collection' });
  // A name is needed: said at the field, nothing sent.
  await add.getByRole('button', { name: 'Create and add' }).click();
  await expect(add.getByRole('alert')).toHaveText('Give the collection a name.');
  await expect(newName).toHaveAttribute('aria-invalid', 'true');
  await newName.fill('Living room');
  await expectAccessible(page);
  await shot(page, info, 'collections-add-dialog-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overflowing(page)).toEqual([]);
  await shot(page, info, 'collections-add-dialog-390');
  await page.setViewportSize({ width: 1440, height: 900 });
  await add.getByRole('button', { name: 'Create and add' }).click();
  await expect(add).toBeHidden();
  const notice = page.getByRole('status').filter({ hasText: '2 models added to “Living room”.' });
  await expect(notice).toBeVisible();

  // The server refuses what the field refuses, naming `name`: empty, and taken in any case.
  const collections = async () =>
    (
      (await (await page.request.get('/api/collections', { headers: auth })).json()) as {
        data: { id: string; name: string; count: number }[];
      }
    ).data;
  const living = (await collections()).find((c) => c.name === 'Living room');
  expect(living?.count).toBe(2);
  for (const [name, status] of [
    ['', 400],
    ['LIVING ROOM', 409],
  ] as const) {
    const res = await page.request.post('/api/collections', { headers: auth, data: { name } });
    expect(res.status(), name).toBe(status);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('name');
  }

  // A result: "Collections", a checkbox per collection; a taken name is said at the field.
  const { id: mug, detail } = await finishedPromptModel(page, 'a blue mug for collections');
  madeHere.push(mug);
  await detail.getByRole('button', { name: 'Collections', exact: true }).click();
  const mine = page.getByRole('dialog', { name: /^Collections of “a blue mug/ });
  const livingBox = mine.getByRole('checkbox', { name: /Living room/ });
  await expect(livingBox).not.toBeChecked();
  await mine.getByRole('textbox', { name: 'New collection' }).fill('living ROOM');
  await mine.getByRole('button', { name: 'Create and add' }).click();
  await expect(mine.getByRole('alert')).toHaveText(
    'You already have a collection called “Living room”.',
  );
  await livingBox.check();
  await expect(mine.getByRole('status')).toHaveText('Added to “Living room”.');
  await expect(livingBox).toBeChecked();
  await expectAccessible(page);
  await shot(page, info, 'collections-entry-dialog-1440');
  await mine.getByRole('button', { name: 'Done' }).click();
  await expect(mine).toBeHidden();
  await expect(detail.getByRole('button', { name: /^Collections\s*, in 1$/ })).toBeFocused();

  // The gallery by address: only that collection, its heading says which.
  await page.goto(`/gallery?collection=${living!.id}`);
  const heading = page.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Living room');
  await expect(page.locator('[data-card]')).toHaveCount(3);
  await expect(page.getByRole('combobox', { name: 'Collection' })).toHaveValue(living!.id);
  await expect(page).toHaveTitle('Living room · Gallery · Kiln');
  // The pictures are drawn (here, in the background) before the page is shared.
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/library?collection=${living!.id}`, {
          headers: auth,
        });
        const { data } = (await res.json()) as { data: { thumbnail_url: string | null }[] };
        return data.filter((e) => e.thumbnail_url).length;
      },
      { timeout: 60_000 },
    )
    .toBe(3);
  await expectAccessible(page);
  await shot(page, info, 'collections-gallery-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overflowing(page)).toEqual([]);
  await shot(page, info, 'collections-gallery-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  // "All models" leaves it; back returns to it.
  await page.getByRole('button', { name: 'All models' }).click();
  await expect(heading).toHaveText('Gallery');
  await expect(page).not.toHaveURL(/collection=/);
  await page.goBack();
  await expect(heading).toHaveText('Living room');

  // Rename: the heading becomes a field; Enter saves.
  await page.getByRole('button', { name: 'Rename collection' }).click();
  const nameField = page.getByRole('textbox', { name: 'Collection name' });
  await expect(nameField).toHaveValue('Living room');
  await nameField.fill('Den');
  await nameField.press('Enter');
  await expect(heading).toHaveText('Den');
  await expect(page.getByRole('button', { name: 'Rename collection' })).toBeFocused();

  // Remove one from it: the lamp leaves the collection, not the gallery.
  await card(page, lamp).getByRole('checkbox').check();
  await bar.getByRole('button', { name: 'Remove from collection' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: '1 model removed from “Den”.' }),
  ).toBeVisible();
  await expect(page.locator('[data-card]')).toHaveCount(2);
  await expect(card(page, lamp)).toHaveCount(0);
  const lampEntry = (await (
    await page.request.get(`/api/library/${lamp}`, { headers: auth })
  ).json()) as { hidden?: boolean; collections?: string[] };
  expect(lampEntry.hidden ?? false).toBe(false);
  expect(lampEntry.collections ?? []).toEqual([]);

  // One zip of the collection, named after it, with both models.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download as zip' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^kiln-den-\d{4}-\d{2}-\d{2}\.zip$/);
  const entries = unzipSync(new Uint8Array(readFileSync(await download.path())));
  const glbs = Object.keys(entries).filter((name) => name.endsWith('.glb'));
  expect(glbs).toHaveLength(2);
  for (const name of glbs)
    expect(new TextDecoder().decode(entries[name]!.subarray(0, 4)), name).toBe('glTF');

  // Share it: make the link, copy it and its embed code.
  const { share, url } = await shareStep(page, browser, info);

  // Someone else, with no key: the name, every model's picture, the chosen one in the viewer.
  const visitor = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const guest = await visitor.newPage();
  const opened = await guest.goto(url);
  expect(opened?.status()).toBe(200);
  await expect(guest.getByRole('heading', { level: 1, name: 'Den' })).toBeVisible();
  await expect(guest).toHaveTitle('Den · Kiln');
  await expect(guest.getByRole('navigation')).toHaveCount(0);
  await expect(guest.getByText(/API key/i)).toHaveCount(0);
  await expect(guest.getByRole('button', { name: 'Open…' })).toHaveCount(0);
  const picks = guest.getByRole('list').getByRole('link');
  await expect(picks).toHaveCount(2);
  for (const img of await guest.locator('.collection-page__grid img').all())
    await expect
      .poll(() => img.evaluate((i: HTMLImageElement) => i.complete && i.naturalWidth > 0))
      .toBe(true);
  await expect(picks.first()).toHaveAttribute('aria-current', 'true');
  await expectRenderedModel(guest.getByTestId('model-viewer'));
  // The other one: chosen in the address, shown in the viewer.
  const second = picks.nth(1);
  const secondTitle = (await second.innerText()).trim();
  await second.click();
  await expect(guest).toHaveURL(/\?m=1$/);
  await expect(second).toHaveAttribute('aria-current', 'true');
  await expect(guest.getByRole('heading', { level: 2, name: secondTitle })).toBeVisible();
  await expectRenderedModel(guest.getByTestId('model-viewer'));
  expect(await guest.evaluate(() => Object.keys(localStorage))).toEqual([]);
  await checkPublicPage(guest, info, 'collections-public-1440', 'collections-public-390');
  // A reload keeps the choice.
  await guest.reload();
  await expect(guest.getByRole('heading', { level: 2, name: secondTitle })).toBeVisible();

  // The frameable variant: the same page without the top bar, the choice kept.
  await guest.goto(`${url}/embed?m=1`);
  await expect(guest.getByRole('heading', { level: 2, name: secondTitle })).toBeVisible();
  await expect(guest.getByText('Shared collection')).toHaveCount(0);
  await expect(guest.getByRole('link', { name: /Made with Kiln/ })).toHaveAttribute('href', url);
  await guest.goto(url);

  // Stop sharing: asked first; the page says the link is gone at once.
  await page.getByRole('button', { name: /^Shared collection/ }).click();
  await share.getByRole('button', { name: 'Stop sharing…' }).click();
  await expect(share.getByRole('button', { name: 'Keep sharing' })).toBeFocused();
  await share.getByRole('button', { name: 'Stop sharing', exact: true }).click();
  await expect(share.getByRole('status')).toHaveText(
    'Sharing stopped: the link and its embeds no longer work.',
  );
  await expect(share.getByRole('button', { name: 'Create link' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expectLinkGone(guest);
  await shot(guest, info, 'collections-public-gone-390');
  await visitor.close();

  // Delete it (asked first): the gallery shows every model again, and they are all still there.
  await page.getByRole('button', { name: 'Delete…' }).click();
  await expect(page.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await page.getByRole('button', { name: 'Delete collection' }).click();
  await expect(heading).toHaveText('Gallery');
  await expect(page).not.toHaveURL(/collection=/);
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Collection “Den” deleted. Its models are still here.' }),
  ).toBeVisible();
  for (const id of [chair, lamp, mug]) await expect(card(page, id)).toBeVisible();
  expect((await collections()).some((c) => c.id === living!.id)).toBe(false);
  // Its old address says so, and offers every model.
  await page.goto(`/gallery?collection=${living!.id}`);
  await expect(heading).toHaveText('Collection not found');
  await expectAccessible(page);
});
