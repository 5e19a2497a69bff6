import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  DEMO_KEY,
  downloadGlb,
  expectAccessible,
  expectRenderedModel,
  finishedPromptModel,
  overflowing,
  shot,
  useKey,
} from './helpers.ts';

// Names (decision 0085): a model named from its result, renamed from its gallery card and the
// viewer; the name is what the card, the viewer, the download, the share page and the credits
// history say, the prompt beside it; the gallery's search finds it; bad names are refused at the
// field.
const PROMPT = 'a small blue teapot';

/** A finished prompt model in the studio: its id and its detail panel. */
const finishedModel = (page: Page) => finishedPromptModel(page, PROMPT);

test('name a model from its result, rename it from its card and the viewer, find it, download it, share it', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await useKey(page);
  const { id, detail } = await finishedModel(page);
  const heading = detail.getByRole('heading', { level: 2 }).first();
  await expect(heading).toHaveText(`beta-text · “${PROMPT}”`);

  // Rename turns the title into a field, focused; Escape puts it back as it was.
  const rename = detail.getByRole('button', { name: 'Rename', exact: true });
  await rename.click();
  const field = detail.getByRole('textbox', { name: 'Name' });
  await expect(field).toBeFocused();
  await field.fill('Not kept');
  await page.keyboard.press('Escape');
  await expect(field).toBeHidden();
  await expect(rename).toBeFocused();
  await expect(heading).toHaveText(`beta-text · “${PROMPT}”`);

  // Too long, and a direction override: each said at the field, naming it; nothing is saved.
  await rename.click();
  await field.fill('x'.repeat(121));
  await page.keyboard.press('Enter');
  const error = detail.getByRole('alert').filter({ hasText: 'Name must' });
  await expect(error).toHaveText('Name must be at most 120 characters (this one has 121).');
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(/Name must be at most 120 characters/);
  await field.fill('evil\u202Egnp.exe');
  await detail.getByRole('button', { name: 'Save' }).click();
  await expect(error).toContainText('Name must not hold direction overrides or isolates');
  await shot(page, info, 'names-error-1440');
  // The server says the same to a client that does not check first.
  const refused = await page.request.patch(`/api/library/${id}`, {
    headers: { authorization: `Bearer ${DEMO_KEY}` },
    data: { name: 'x'.repeat(121) },
  });
  expect(refused.status()).toBe(400);
  expect(((await refused.json()) as { error: { param: string } }).error.param).toBe('name');

  // Named: the heading says the name first, the model and prompt beside it.
  await field.fill('  Granny’s teapot ');
  await page.keyboard.press('Enter');
  await expect(field).toBeHidden();
  await expect(heading).toHaveText(`Granny’s teapot · beta-text · “${PROMPT}”`);
  await expect(rename).toBeFocused();
  await expect(page.getByRole('button', { name: /^Granny’s teapot beta-text/ })).toBeVisible();
  await expectAccessible(page);
  await shot(page, info, 'names-result-1440');

  // The download is named after it.
  const { name } = await downloadGlb(page);
  expect(name).toMatch(/^kiln-beta-text-granny-s-teapot-\d{4}-\d{2}-\d{2}-[a-z0-9]{1,6}\.glb$/);

  // The gallery card says it; the search finds it by its name (not in the prompt).
  await page.goto('/gallery');
  const card = page.locator(`[data-card][data-task-id="${id}"]`);
  await expect(card.getByRole('heading', { level: 2 })).toHaveText(
    `Granny’s teapot · beta-text · “${PROMPT}”`,
  );
  const search = page.getByRole('searchbox', { name: 'Search names, prompts and file names' });
  await search.fill('granny');
  await expect(page).toHaveURL(/[?&]q=granny/);
  await expect(page.locator('[data-card]')).toHaveCount(1);
  await expect(card).toBeVisible();

  // Renamed from its card: Rename (in its actions), the field, Enter.
  await card.getByRole('button', { name: /^Rename Granny’s teapot/ }).click();
  const cardField = card.getByRole('textbox', { name: 'Name' });
  await expect(cardField).toBeFocused();
  await expect(cardField).toHaveValue('Granny’s teapot');
  await shot(page, info, 'names-card-field-1440');
  await cardField.fill('Teapot for Oma');
  await cardField.press('Enter');
  await expect(card.getByRole('heading', { level: 2 })).toHaveText(
    `Teapot for Oma · beta-text · “${PROMPT}”`,
  );
  await expect(card.getByRole('button', { name: /^Rename Teapot for Oma/ })).toBeFocused();
  await search.fill('oma');
  await expect(page).toHaveURL(/[?&]q=oma/);
  await expect(page.locator('[data-card]')).toHaveCount(1);
  await search.fill('');
  await expectAccessible(page);
  await shot(page, info, 'names-gallery-1440');

  // The credits history says the name, the prompt beside it.
  await page.goto('/credits');
  const row = page
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: 'Teapot for Oma' }) });
  await expect(row).toContainText(`beta-text · “${PROMPT}”`);

  // The viewer's label says it, and it can be renamed there.
  const entry = (await (
    await page.request.get(`/api/library/${id}`, {
      headers: { authorization: `Bearer ${DEMO_KEY}` },
    })
  ).json()) as { model_url: string };
  await page.goto(`/viewer?src=${encodeURIComponent(entry.model_url)}&task=${id}`);
  await expect(page.getByTestId('slot-name')).toContainText('Teapot for Oma');
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  const viewerField = page.getByRole('textbox', { name: 'Name' });
  await viewerField.fill('Oma’s teapot');
  await viewerField.press('Enter');
  await expect(page.getByTestId('slot-name')).toContainText('Oma’s teapot');
  await expect(page.getByTestId('slot-name')).toContainText(`“${PROMPT}”`);
  await expect(page.getByRole('button', { name: 'Rename', exact: true })).toBeFocused();
  await shot(page, info, 'names-viewer-1440');

  // The share page's title (and its preview's) is the name; the prompt stays beside it.
  const link = (await (
    await page.request.post(`/api/library/${id}/share`, {
      headers: { authorization: `Bearer ${DEMO_KEY}` },
    })
  ).json()) as { url: string };
  const guest = await (await browser.newContext()).newPage();
  await guest.setViewportSize({ width: 1440, height: 900 });
  await guest.goto(link.url);
  // Once the page's viewer has taken over from the first frame (decision 0132): until then the
  // server's first look and the SPA's page (drawn, unseen, behind it) both hold the words.
  await expectRenderedModel(guest.getByTestId('model-viewer'));
  await expect(guest).toHaveTitle('Oma’s teapot · Kiln');
  await expect(guest.locator('meta[property="og:title"]')).toHaveAttribute(
    'content',
    'Oma’s teapot',
  );
  await expect(guest.getByRole('heading', { level: 1 })).toHaveText('Oma’s teapot');
  await expect(guest.getByText(`“${PROMPT}”`)).toBeVisible();
  await shot(guest, info, 'names-share-1440');
  await guest.context().close();
});

test('renaming fits a phone: the card and the result at 390×844', async ({ page }, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await useKey(page);
  const { id, detail } = await finishedModel(page);
  await detail.getByRole('button', { name: 'Rename', exact: true }).click();
  const field = detail.getByRole('textbox', { name: 'Name' });
  await field.fill('A teapot with a name long enough to wrap on a phone screen');
  await field.scrollIntoViewIfNeeded();
  expect(await overflowing(page)).toEqual([]);
  await shot(page, info, 'names-result-field-390');
  await field.press('Enter');
  await expect(detail.getByRole('heading', { level: 2 }).first()).toContainText(
    'A teapot with a name long enough to wrap on a phone screen',
  );
  expect(await overflowing(page)).toEqual([]);

  await page.goto('/gallery');
  const card = page.locator(`[data-card][data-task-id="${id}"]`);
  await expect(card.getByRole('heading', { level: 2 })).toContainText('A teapot with a name');
  await card.getByRole('button', { name: /^Rename A teapot/ }).click();
  await card.getByRole('textbox', { name: 'Name' }).fill('x'.repeat(121));
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByRole('alert')).toHaveText(
    'Name must be at most 120 characters (this one has 121).',
  );
  expect(await overflowing(page)).toEqual([]);
  await shot(page, info, 'names-gallery-error-390');
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expect(card.getByRole('heading', { level: 2 })).toContainText('A teapot with a name');
  await shot(page, info, 'names-gallery-390');

  // The credits history's row says the long name and wraps it: no sideways scroll.
  await page.goto('/credits');
  await expect(page.getByRole('link', { name: /^A teapot with a name/ })).toBeVisible();
  await expect
    .poll(() =>
      page.locator('.credits-table-wrap').evaluate((el) => el.scrollWidth - el.clientWidth),
    )
    .toBeLessThanOrEqual(0);
  expect(await overflowing(page)).toEqual([]);
  await shot(page, info, 'names-credits-390');
});
