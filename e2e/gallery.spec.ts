// The gallery past a few dozen models (issue 17, item 4) and "Compare with…" (item 5): tasks
// are made through the API with a word of their own (other specs share the demo key), then
// found, filtered, sorted, starred, selected, hidden and brought back, by mouse and by keys,
// with the filters in the address.
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { readFileSync } from 'node:fs';
import {
  DEMO_KEY,
  expectAccessible,
  hiddenAfterEach,
  overflowing,
  photo,
  shot,
  useKey,
} from './helpers.ts';

const auth = { authorization: `Bearer ${DEMO_KEY}` };
// Each test hides the tasks it made once it is done (the bulk action, which these tests also check).
const madeHere = hiddenAfterEach();

/** Creates a task through Kiln's proxy and reads it until it ends (the library records it). */
async function made(page: Page, body: Record<string, unknown>): Promise<string> {
  const res = await page.request.post('/api/v1/3d/generations', { headers: auth, data: body });
  expect(res.status(), await res.text()).toBe(202);
  const { id } = (await res.json()) as { id: string };
  madeHere.push(id);
  await expect
    .poll(
      async () => {
        const task = await page.request.get(`/api/v1/tasks/${id}`, { headers: auth });
        return ((await task.json()) as { status: string }).status;
      },
      { timeout: 30_000 },
    )
    .toMatch(/^(completed|failed)$/);
  return id;
}

/** Uploads a fixture photo under another name; returns its address for image_url. */
async function uploaded(page: Page, fixture: string, name: string): Promise<string> {
  const res = await page.request.post('/api/uploads', {
    multipart: {
      file: { name, mimeType: 'image/png', buffer: readFileSync(photo(fixture)) },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { url: string }).url;
}

const cards = (page: Page) => page.locator('.gallery-card');
const cardOf = (page: Page, text: string) => cards(page).filter({ hasText: text });
const search = (page: Page) =>
  page.getByRole('searchbox', { name: 'Search names, prompts and file names' });
const params = (page: Page) => Object.fromEntries(new URL(page.url()).searchParams);

test('the gallery searches, filters, sorts, stars, selects and hides with Undo, by mouse and keys, with the filters in the address', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  // A word only this run's tasks have.
  const word = `zq${Date.now().toString(36)}`;
  const chair = await made(page, { model: 'beta-text', prompt: `${word} red chair` });
  const vase = await made(page, { model: 'beta-text', prompt: `${word} blue vase` });
  const broken = await made(page, { model: 'beta-text', prompt: `${word} broken lamp mock:fail` });
  const stool = await made(page, {
    model: 'beta',
    image_url: await uploaded(page, 'chair.png', `${word}-stool.png`),
  });
  const mug = await made(page, { model: 'beta-text', prompt: `${word} green mug` });
  const all = [mug, stool, broken, vase, chair]; // newest first

  await useKey(page);
  // Small pages, so that scrolling has pages to load (the gallery asks 24 at a time).
  let libraryRequests = 0;
  await page.route(/\/api\/library\?/, (route) => {
    libraryRequests++;
    const url = new URL(route.request().url());
    url.searchParams.set('limit', '2');
    return route.continue({ url: url.toString() });
  });

  // The search, typed: the address follows once typing rests; every page loads as it scrolls.
  await page.goto('/gallery');
  await expect(page.getByRole('heading', { name: 'Gallery' })).toBeVisible();
  await search(page).fill(word);
  await expect(page).toHaveURL(new RegExp(`/gallery\\?q=${word}$`));
  await expect(cards(page)).toHaveCount(5);
  expect(
    await cards(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-task-id'))),
  ).toEqual(all);
  expect(libraryRequests, 'pages of 2 loaded on scroll').toBeGreaterThanOrEqual(3);
  await expect(page.getByText('5 tasks, matching')).toBeVisible();

  // Search by a photo's file name, and by two words of a prompt.
  await search(page).fill(`${word}-stool`);
  await expect(cards(page)).toHaveCount(1);
  await expect(cardOf(page, 'beta')).toHaveAttribute('data-task-id', stool);
  await search(page).fill(`chair ${word}`);
  await expect(page).toHaveURL(/q=chair\+zq/);
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toHaveAttribute('data-task-id', chair);

  // Filters: status, input kind, model; each is a step in the history.
  await search(page).fill(word);
  await expect(cards(page)).toHaveCount(5);
  await page.getByRole('radio', { name: 'Failed' }).check();
  await expect(page).toHaveURL(/[?&]status=failed/);
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toHaveAttribute('data-task-id', broken);
  await page.getByRole('radio', { name: 'All' }).nth(1).check();
  await page.getByRole('radio', { name: 'Photo' }).check();
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toHaveAttribute('data-task-id', stool);
  await page.getByRole('radio', { name: 'Prompt' }).check();
  await page.getByRole('combobox', { name: 'Model' }).selectOption('beta-text');
  expect(params(page)).toEqual({ q: word, kind: 'prompt', model: 'beta-text' });
  await expect(cards(page)).toHaveCount(4);

  // Back and forward restore the filters (and the controls show them).
  await page.goBack();
  await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('');
  expect(params(page)).toEqual({ q: word, kind: 'prompt' });
  await page.goBack();
  await expect(page.getByRole('radio', { name: 'Photo' })).toBeChecked();
  await expect(cards(page)).toHaveCount(1);
  await page.goForward();
  await expect(page.getByRole('radio', { name: 'Prompt' })).toBeChecked();
  await expect(cards(page)).toHaveCount(4);

  // Sorting: oldest first, most credits first (the photo's beta cost more; the failure nothing).
  await page.getByRole('radio', { name: 'All' }).first().check();
  await page.getByRole('combobox', { name: 'Sort' }).selectOption('oldest');
  await expect(page).toHaveURL(/sort=oldest/);
  await expect(cards(page).first()).toHaveAttribute('data-task-id', chair);
  await page.getByRole('combobox', { name: 'Sort' }).selectOption('credits');
  await expect(cards(page).first()).toHaveAttribute('data-task-id', stool);
  await expect(cards(page).last()).toHaveAttribute('data-task-id', broken);
  await page.getByRole('combobox', { name: 'Sort' }).selectOption('newest');
  await expect(page).toHaveURL(new RegExp(`/gallery\\?q=${word}$`));

  // A star, then only favourites.
  const vaseCard = cards(page).and(page.locator(`[data-task-id="${vase}"]`));
  const star = vaseCard.getByRole('button', { name: /^Favourite / });
  await expect(star).toHaveAttribute('aria-pressed', 'false');
  await star.click();
  await expect(star).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Favourites', exact: true }).click();
  await expect(page).toHaveURL(/favourite=1/);
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toHaveAttribute('data-task-id', vase);

  // A reload shows the same gallery: the search box, the filter, the cards.
  await page.reload();
  await expect(search(page)).toHaveValue(word);
  await expect(page.getByRole('button', { name: 'Favourites', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(cards(page)).toHaveCount(1);
  await page.getByRole('button', { name: 'Favourites', exact: true }).click();
  await expect(cards(page)).toHaveCount(5);

  // Multi-select: a click, then a shift-click selects the range; hide them, then Undo.
  const box = (i: number) => cards(page).nth(i).getByRole('checkbox');
  await box(1).click();
  await box(3).click({ modifiers: ['Shift'] });
  for (const i of [1, 2, 3]) await expect(box(i)).toBeChecked();
  await expect(box(0)).not.toBeChecked();
  const bar = page.getByRole('region', { name: 'Selected tasks' });
  await expect(bar).toContainText('3 selected');
  await shot(page, info, 'gallery-selected');
  // The two with a model (the failed one has none) download as one zip.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    bar.getByRole('button', { name: 'Download 2 as zip' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.zip$/);
  const zip = readFileSync(await download.path());
  expect(zip.subarray(0, 2).toString()).toBe('PK');
  expect(zip.includes(Buffer.from('.glb'))).toBe(true);
  await bar.getByRole('button', { name: 'Hide 3' }).click();
  await expect(page.getByText('3 tasks hidden.')).toBeVisible();
  await expect(cards(page)).toHaveCount(2);
  expect(
    await cards(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-task-id'))),
  ).toEqual([mug, chair]);
  const hiddenNow = await page.request.get(`/api/library?q=${word}`, { headers: auth });
  expect(((await hiddenNow.json()) as { data: unknown[] }).data).toHaveLength(2);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('3 tasks shown again.')).toBeVisible();
  await expect(cards(page)).toHaveCount(5);
  await expect(cards(page).nth(1).getByRole('link', { name: /^Open/ })).toBeFocused();

  // The keys: arrows move between cards, Space selects, Escape clears, Enter opens.
  await cards(page).first().focus();
  await expect(page.getByText('Arrow keys move between tasks')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(cards(page).nth(1)).toBeFocused();
  await page.keyboard.press('Space');
  await expect(box(1)).toBeChecked();
  await page.keyboard.press('End');
  await expect(cards(page).nth(4)).toBeFocused();
  await page.keyboard.press('Shift+Space');
  for (const i of [1, 2, 3, 4]) await expect(box(i)).toBeChecked();
  await page.keyboard.press('Home');
  await expect(cards(page).first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(bar).toHaveCount(0);
  // Tab leaves the grid's one stop and comes back to the card last focused.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(cards(page).nth(2)).toHaveAttribute('tabindex', '0');
  await expect(cards(page).nth(0)).toHaveAttribute('tabindex', '-1');
  await shot(page, info, 'gallery-keyboard');
  await expectAccessible(page);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/tasks/${broken}$`));
  await page.goBack();
  await expect(search(page)).toHaveValue(word);
  await expect(cards(page)).toHaveCount(5);

  // Nothing matches: said so, with a way out.
  await search(page).fill(`${word} unicorn`);
  await expect(page.getByText('No tasks match these filters.')).toBeVisible();
  await shot(page, info, 'gallery-no-match');
  await page.getByRole('button', { name: 'Clear filters' }).last().click();
  await expect(page).toHaveURL(/\/gallery$/);
  await expect(search(page)).toHaveValue('');
  await expect(cards(page).first()).toBeVisible();

  // A phone: one column, filters folded away, arrows move down the list.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/gallery?q=${word}&sort=oldest`);
  await expect(cards(page)).toHaveCount(5);
  await expect(page.getByRole('radio', { name: 'Photo' })).toBeHidden();
  await page.getByRole('button', { name: /^Filters/ }).click();
  await expect(page.getByRole('radio', { name: 'Photo' })).toBeVisible();
  await shot(page, info, 'gallery-phone-filters');
  await page.getByRole('button', { name: /^Filters/ }).click();
  await cards(page).first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(cards(page).nth(1)).toBeFocused();
  await box(0).click();
  await expect(bar).toBeVisible();
  expect(await overflowing(page), 'nothing sticks out at 390 px').toEqual([]);
  await shot(page, info, 'gallery-phone');
  await expectAccessible(page);
});

test('bad addresses show the whole gallery, and "Compare with…" opens two generations of one photo side by side', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  const word = `zc${Date.now().toString(36)}`;
  const image = await uploaded(page, 'chair.png', `${word}.png`);
  const first = await made(page, { model: 'alpha', image_url: image });
  const second = await made(page, { model: 'beta', image_url: image });
  await useKey(page);

  // Values the gallery does not know are dropped from the address, not refused.
  await page.goto(`/gallery?q=${word}&kind=video&sort=price&favourite=maybe`);
  await expect(page).toHaveURL(new RegExp(`/gallery\\?q=${word}$`));
  await expect(cards(page)).toHaveCount(2);

  // The result of the second offers the first (the same photo, another model).
  await page.goto(`/tasks/${second}`);
  await expect(page.getByTestId('task-detail')).toHaveAttribute('data-status', 'completed');
  await page.getByText('Compare with…').click();
  const choice = page.getByRole('link', { name: /^Compare with alpha · / });
  await expect(choice).toBeVisible();
  await shot(page, info, 'compare-with');
  // On a phone the list opens in place, inside the page.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(choice).toBeVisible();
  // (The viewer's canvas takes a frame or two to follow the new width.)
  await expect
    .poll(() => overflowing(page), { message: 'nothing sticks out at 390 px' })
    .toEqual([]);
  await choice.scrollIntoViewIfNeeded();
  await shot(page, info, 'compare-with-phone');
  await page.setViewportSize({ width: 1280, height: 720 });
  await choice.click();
  await expect(page).toHaveURL(
    // The entries' ids, not their files' signed addresses: a bookmark does not expire.
    /\/viewer\?a_task=task_\w+&b_task=task_\w+$/,
  );
  await expect(page.getByRole('checkbox', { name: 'Compare side by side' })).toBeChecked();
  const viewers = page.getByTestId('model-viewer');
  await expect(viewers).toHaveCount(2);
  await expect(viewers.nth(0)).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await expect(viewers.nth(1)).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await shot(page, info, 'compare-view');
  // A task made from another input offers no comparison.
  const alone = await made(page, { model: 'beta-text', prompt: `${word} lonely teapot` });
  await page.goto(`/tasks/${alone}`);
  await expect(page.getByTestId('task-detail')).toHaveAttribute('data-status', 'completed');
  await expect(page.getByRole('button', { name: 'Same input, another model' })).toBeVisible();
  await expect(page.getByText('Compare with…')).toHaveCount(0);
  expect(first).not.toBe(second);
});

test('models made elsewhere get their own picture in the gallery without being opened, and photo cards name their photo', async ({
  page,
}, info) => {
  await useKey(page);
  const word = `unseen${Date.now().toString(36)}`;
  // Made through the API (a script, a batch, another tab): no browser has shown them.
  const photoTask = await made(page, {
    model: 'alpha',
    image_url: await uploaded(page, 'teapot.png', `${word} teapot.png`),
  });
  const promptTask = await made(page, { model: 'beta-text', prompt: `${word} a wooden chair` });
  for (const id of [photoTask, promptTask])
    await expect
      .poll(async () => {
        const res = await page.request.get(`/api/library/${id}`, { headers: auth });
        return (await res.json()) as { archived: boolean; thumbnail_url: string | null };
      })
      .toMatchObject({ archived: true, thumbnail_url: null });
  await page.goto(`/gallery?q=${word}`);
  await expect(cards(page)).toHaveCount(2);
  // The gallery draws them itself, one after another, and shows them.
  for (const id of [photoTask, promptTask]) {
    const picture = page.locator(`[data-task-id="${id}"]`).getByRole('img', {
      name: /^3D model from the/,
    });
    await expect(picture).toBeVisible({ timeout: 45_000 });
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(480);
  }
  // The photo card names its photo, in its title and its accessible name.
  const photoCard = page.locator(`[data-task-id="${photoTask}"]`);
  await expect(photoCard.getByRole('heading', { level: 2 })).toHaveText(
    `alpha · ${word} teapot.png`,
  );
  await expect(photoCard).toHaveAccessibleName(new RegExp(`^alpha task of ${word} teapot\\.png`));
  await expect(page.getByTestId('background-picture')).toHaveCount(0);
  await shot(page, info, 'gallery-drawn-in-background');
});
