// Issue 32, "Friction and cosmetic": the prompt check said about the text as typed (Generate
// waits for it) with the words that did not shape the model; a prompt's stages; focus kept
// after choosing a file and on Rename; Share on a selection of several; recent tasks and the
// Optimise heading called by the one title rule; the collections dialog outliving its card; a
// collection's embed named after it; batch cards with bounded thumbnails.
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  DEMO_KEY,
  expectAccessible,
  generate,
  hiddenAfterEach,
  keptPromptModel,
  overflowing,
  photo,
  pickModel,
  shot,
  useKey,
} from './helpers.ts';

const auth = { authorization: `Bearer ${DEMO_KEY}` };
const madeHere = hiddenAfterEach();

/** A prompt model made through Kiln's proxy, read until it is kept: its task id. */
const made = (page: Page, prompt: string) => keptPromptModel(page, prompt, madeHere);

test('the prompt check: Generate waits for the verdict on the text as typed, which names the words that did not shape the model', async ({
  page,
}, info) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await useKey(page);
  // Under load the check of a prompt takes seconds: this one's answer is held back 3 s.
  let slow = false;
  await page.route('**/mock/prompt-check?*', async (route) => {
    if (slow) await new Promise((r) => setTimeout(r, 3_000));
    await route.continue();
  });
  await page.goto('/');
  await pickModel(page, 'beta-text');
  const prompt = page.getByRole('textbox', { name: 'Prompt' });
  const said = page.getByTestId('prompt-check');
  const go = page.locator('.generate-form button[type="submit"]');
  await prompt.fill('a green dragon');
  await expect(said).toHaveText('Known object: green dragon.');
  await expect(go).toBeEnabled();

  // A new text: the last one's verdict goes at once, and Generate waits for this one's.
  slow = true;
  await prompt.fill('a melancholy teapot');
  await expect(said).not.toHaveText(/green dragon/);
  await expect(said).toHaveText('Checking what the demo generator makes of it…');
  await expect(go).toBeDisabled();
  await expect(go).toHaveText('Checking the prompt…');
  await shot(page, info, 'prompt-checking-1440');
  await expect(said).toHaveText('Known object: teapot. Not used: “melancholy”.');
  await expect(go).toBeEnabled();
  await expect(go).toHaveText('Generate');
  slow = false;

  // Glass: the model takes its colour and shine, and says it is opaque.
  await prompt.fill('a glass dragon');
  await expect(said).toHaveText(
    'Known object: glass dragon. “glass” gives it colour and shine only: the model is opaque, not see-through.',
  );
  await shot(page, info, 'prompt-glass-1440');
  await expectAccessible(page);

  // Made: a prompt's task shows the stages that apply (nothing is downloaded).
  const { id, detail } = await generate(page);
  madeHere.push(id);
  const stages = detail.getByTestId('stages');
  await expect(stages.getByRole('listitem')).toHaveCount(5);
  await expect(stages).not.toContainText('Downloading images');
  await expect(stages).toContainText('Generating 3D mesh');
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  // The result says what the words did not do.
  await expect(detail.getByTestId('prompt-verdict')).toHaveText(
    /Made: glass dragon\. “glass” gives it colour and shine only: the model is opaque/,
  );
  // The recent task reads by its prompt.
  await expect(page.locator('.recent .task-card').first()).toContainText(
    'beta-text “a glass dragon”',
  );

  await page.setViewportSize({ width: 390, height: 844 });
  slow = true;
  await prompt.fill('a happy glass dragon');
  await expect(go).toBeDisabled();
  await expect(said).toHaveText(/Not used: “happy”\.$/);
  await expect(go).toBeEnabled();
  expect(await overflowing(page), 'nothing sticks out at 390 px').toEqual([]);
  await shot(page, info, 'prompt-unused-390');
});

test('a photo: focus stays on a control once it is chosen or removed; recent tasks and Optimise name it', async ({
  page,
}, info) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await useKey(page);
  await page.goto('/');
  await pickModel(page, 'alpha');
  // Chosen through the file picker, as a person does: the picker's button goes, Remove takes focus.
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Choose a photo' }).click();
  await (await chooser).setFiles(photo('robot.png'));
  await expect(page.getByText('Ready')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Remove' })).toBeFocused();
  // Removed: the picker's button comes back, with focus.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Choose a photo' })).toBeFocused();
  // Enter on it opens the picker. (Under heavy load Chromium has, rarely, shown no picker for
  // the key press: pressed again then, as a person would, within a bounded time.)
  await expect(async () => {
    await expect(page.getByRole('button', { name: 'Choose a photo' })).toBeFocused();
    const again = page.waitForEvent('filechooser', { timeout: 10_000 });
    await page.keyboard.press('Enter');
    await (await again).setFiles(photo('robot.png'));
  }).toPass({ timeout: 45_000 });
  await expect(page.getByText('Ready')).toBeVisible();

  const { id, detail } = await generate(page);
  madeHere.push(id);
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  // The recent task reads by its photo's name, not "1 photo".
  const row = page.locator('.task-card').first();
  await expect(row).toContainText('alpha robot.png');
  await expect(row).not.toContainText('1 photo');
  await shot(page, info, 'recent-tasks-1440');

  // Optimise: the heading names the model by the one title rule: its photo, then its own name.
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/library/${id}`, { headers: auth });
      return ((await res.json()) as { archived: boolean }).archived;
    })
    .toBe(true);
  await page.goto(`/tasks/${id}/optimise`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Optimise · robot.png');
  const named = await page.request.patch(`/api/library/${id}`, {
    headers: auth,
    data: { name: 'Tin robot' },
  });
  expect(named.status()).toBe(200);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Optimise · Tin robot');
  await shot(page, info, 'optimise-named-1440');
});

test('the gallery: several selected share as one page; the collections dialog stays when its model leaves the collection shown; Rename focuses its field', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await useKey(page);
  const mug = await made(page, 'a blue mug for friction');
  const vase = await made(page, 'a tall red vase for friction');
  await page.goto('/gallery');
  const card = (id: string) => page.locator(`[data-card][data-task-id="${id}"]`);
  await card(mug).getByRole('checkbox').check();
  await card(vase).getByRole('checkbox').check();
  const bar = page.getByRole('region', { name: 'Selected tasks' });
  await bar.getByRole('button', { name: 'Share 2 as one page…' }).click();
  const dialog = page.getByTestId('share-selection-dialog');
  await expect(dialog.getByRole('heading', { name: 'Share 2 models as one page' })).toBeVisible();
  await shot(page, info, 'share-selection-1440');
  await expectAccessible(page);
  await dialog.getByRole('textbox', { name: 'Name of the page (a new collection)' }).fill('Desk');
  await dialog.getByRole('button', { name: 'Make the page' }).click();
  // The collection's own share dialog, its link made.
  const share = page.getByTestId('collection-share-dialog');
  await expect(share.getByRole('heading', { name: 'Share “Desk”' })).toBeVisible();
  const link = share.getByRole('textbox').first();
  await expect(link).toHaveValue(/\/c\/[A-Za-z0-9_-]+$/);
  const url = await link.inputValue();
  await shot(page, info, 'share-selection-made-1440');
  await page.keyboard.press('Escape');
  await expect(bar.getByRole('button', { name: 'Share 2 as one page…' })).toBeFocused();

  // Its public page, and the embed: named after the collection.
  const visitor = await browser.newContext();
  const guest = await visitor.newPage();
  await guest.goto(url);
  await expect(guest.getByRole('heading', { level: 1, name: 'Desk' })).toBeVisible();
  await expect(guest.locator('.collection-page__grid li')).toHaveCount(2);
  await guest.goto(`${url}/embed`);
  await expect(guest).toHaveTitle('Desk · Kiln');
  await expect(guest.getByTestId('model-viewer')).toHaveAttribute(
    'aria-label',
    /^Desk: “a (tall red vase|blue mug) for friction”$/,
  );
  await shot(guest, info, 'collection-embed-1440');
  await visitor.close();

  // The gallery by that collection: Rename puts focus in the name field.
  const collections = (await (
    await page.request.get('/api/collections', { headers: auth })
  ).json()) as {
    data: { id: string; name: string }[];
  };
  const desk = collections.data.find((c) => c.name === 'Desk')!;
  await page.goto(`/gallery?collection=${desk.id}`);
  await page.getByRole('button', { name: 'Rename collection' }).click();
  await expect(page.getByRole('textbox', { name: 'Collection name' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Rename collection' })).toBeFocused();

  // Unticking the collection shown: the card goes, the dialog stays and says why.
  await card(mug)
    .getByRole('button', { name: /Collections/ })
    .click();
  const boxes = page.getByTestId('entry-collections-dialog');
  await boxes.getByRole('checkbox', { name: /Desk/ }).uncheck();
  await expect(card(mug)).toHaveCount(0);
  await expect(boxes).toBeVisible();
  await expect(boxes.getByRole('status')).toHaveText(
    'Removed from “Desk”: it has left the collection shown, so its card leaves the gallery. Tick it again to put it back.',
  );
  await shot(page, info, 'collection-left-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overflowing(page), 'nothing sticks out at 390 px').toEqual([]);
  await shot(page, info, 'collection-left-390');
  // Ticked again, it is back; closed, focus goes to the page's heading (its card's button left).
  await boxes.getByRole('checkbox', { name: /Desk/ }).check();
  await expect(card(mug)).toHaveCount(1);
  await page.keyboard.press('Escape');
  await expect(boxes).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Desk' })).toBeFocused();
});

test('batch cards: the photo is a bounded thumbnail in the corner until the model’s picture is drawn, and after', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await useKey(page);
  await page.goto('/batch');
  await page
    .getByTestId('batch-file-input')
    .setInputFiles([photo('chair.png'), photo('teapot.png')]);
  await expect(page.getByText('Checking…')).toHaveCount(0);
  await page.locator('input[name="batch-model"][value="alpha"]').check();
  await page.getByRole('button', { name: 'Generate 2 tasks' }).click();
  const items = page.getByTestId('batch-item');
  await expect(items).toHaveCount(2);
  /** The photo's height over its card picture's: bounded to the corner (a third), not the card. */
  const photoShare = async (i: number) => {
    const thumb = items.nth(i).getByTestId('batch-thumb');
    const img = thumb.locator('img.batch-thumb-input');
    await expect(img).toBeVisible();
    const [t, p] = [await thumb.boundingBox(), await img.boundingBox()];
    return (p?.height ?? 0) / (t?.height ?? 1);
  };
  await expect(items.first().getByTestId('batch-thumb')).toHaveAttribute('data-shows', 'photo');
  expect(await photoShare(0)).toBeLessThan(0.4);
  await shot(page, info, 'batch-photo-thumbs-1440');
  await expect(page.locator('[data-testid="batch-item"][data-status="completed"]')).toHaveCount(2, {
    timeout: 60_000,
  });
  for (const i of [0, 1])
    await expect(items.nth(i).getByTestId('batch-thumb')).toHaveAttribute('data-shows', 'model', {
      timeout: 45_000,
    });
  expect(await photoShare(0)).toBeLessThan(0.4);
  madeHere.push(
    ...(await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-task-id') ?? ''))),
  );
  await shot(page, info, 'batch-model-thumbs-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await overflowing(page), 'nothing sticks out at 390 px').toEqual([]);
  await shot(page, info, 'batch-model-thumbs-390');
  await expectAccessible(page);
});
