import { expect, test } from './fixtures.ts';
import {
  card,
  chipFigure,
  connectDemo,
  expectAccessible,
  photoTask,
  pickModel,
  shoot,
  useKey,
} from './helpers.ts';

// Kiln's studio with the Meshy and fal mocks `npm start` runs by default (issue 34, item 6).
test.describe.configure({ timeout: 240_000 });

test('providers: connect Meshy and fal, a photo task with each, one gallery with badges, balances, remove a key', async ({
  page,
}, info) => {
  await useKey(page);
  await page.goto('/connections');
  await expect(page.getByRole('heading', { name: 'Connections' })).toBeVisible();
  // A key of the wrong shape is said at the field, naming what a Meshy key looks like.
  const meshyField = card(page, 'meshy').getByLabel('Meshy key');
  await meshyField.fill('sk_wrong');
  await expect(card(page, 'meshy').getByText(/Meshy keys start with msy_/)).toBeVisible();
  await meshyField.fill('');
  await connectDemo(page, 'meshy', 'Meshy');
  await connectDemo(page, 'fal', 'fal');
  // Each balance in its own unit, in the header.
  await expect(page.getByTestId('balance-meshy')).toHaveText(/^Meshy [\d,]+ credits$/, {
    timeout: 30_000,
  });
  await expect(page.getByTestId('balance-fal')).toHaveText(
    /^fal (\$[\d.,]+|: balance not readable)$/,
  );
  // Test says the balance as of when.
  await card(page, 'meshy').getByRole('button', { name: 'Test' }).click();
  await expect(page.getByTestId('meshy-check')).toHaveText(/credits, as of /);
  // One library key, kept beside the keys; a vendor key never goes into it.
  const library = await page.evaluate(() => localStorage.getItem('kiln.libraryKey'));
  expect(library).toBe('tr_demo_kiln');
  await expectAccessible(page);
  await shoot(page, info, 'connections');
  const meshyBefore = await chipFigure(page, 'meshy');

  // The form lists models grouped by provider, each with its price, unit and inputs.
  await page.goto('/');
  const meshyGroup = page.getByTestId('models-meshy');
  await expect(meshyGroup.getByRole('heading', { name: 'Meshy' })).toBeVisible({ timeout: 30_000 });
  await expect(meshyGroup).toContainText(/One photo 30 credits/);
  await expect(page.getByTestId('models-fal')).toContainText(/One photo \$0\.02/);
  await expect(page.getByRole('heading', { name: 'Kiln API' })).toBeVisible();
  await pickModel(page, 'meshy/meshy-6');
  await expect(page.getByRole('group', { name: 'Make it from' })).toBeVisible();
  await expectAccessible(page);
  await shoot(page, info, 'form-grouped-models');

  const meshyId = await photoTask(page, info, 'meshy/meshy-6');
  expect(meshyId).toMatch(/^meshy_/);
  const falId = await photoTask(page, info, 'fal/fal-ai/trellis', 'fal-task-queue');
  expect(falId).toMatch(/^fal_/);

  // The Meshy chip moved by the model's price (30 credits for a photo).
  await expect.poll(() => chipFigure(page, 'meshy'), { timeout: 30_000 }).toBe(meshyBefore - 30);

  // Both in one gallery, each with its provider's badge; the provider filter narrows it.
  await page.goto('/gallery');
  // (Other spec files of this worker may have made provider tasks too: these two are named.)
  const badges = page.getByTestId('provider-badge');
  const meshyCard = page.locator(`[data-task-id="${meshyId}"]`);
  const falCard = page.locator(`[data-task-id="${falId}"]`);
  await expect(meshyCard.getByTestId('provider-badge')).toHaveText('Meshy', { timeout: 30_000 });
  await expect(falCard.getByTestId('provider-badge')).toHaveText('fal');
  await expectAccessible(page);
  await shoot(page, info, 'gallery-badges');
  await page.getByLabel('Provider').selectOption('fal');
  await expect(page).toHaveURL(/provider=fal/);
  await expect(meshyCard).toHaveCount(0);
  await expect(falCard).toBeVisible();
  await expect(badges.filter({ hasNotText: 'fal' })).toHaveCount(0);

  // Removing the Meshy key keeps its model in the gallery, and the library where it was.
  await page.goto('/connections');
  await page.getByRole('button', { name: 'Remove Meshy key' }).click();
  await expect(card(page, 'meshy').getByLabel('Meshy key')).toBeVisible();
  await expect(page.getByTestId('balance-meshy')).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('kiln.libraryKey'))).toBe(library);
  await page.goto('/gallery');
  await expect(meshyCard.getByTestId('provider-badge')).toHaveText('Meshy', { timeout: 30_000 });
});
