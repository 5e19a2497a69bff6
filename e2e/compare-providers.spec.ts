import { type Locator, type Page, type TestInfo } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import {
  chipFigure,
  connectDemo,
  expectAccessible,
  expectRenderedModel,
  generate,
  photoTask,
  pickModel,
  shoot,
  useKey,
} from './helpers.ts';

// Compare providers from any result (issue 34, item 7; decision 0116): a Meshy photo task, the
// same photo tried on fal with its price said first, then both side by side with their facts.
test.describe.configure({ timeout: 300_000 });

/** The facts panel of one side of the compare view, opened. */
async function factsOf(side: Locator) {
  await side.getByRole('button', { name: 'Facts' }).click();
  const facts = side.getByTestId('viewer-facts');
  await expect(facts).toBeVisible();
  return facts;
}

/** The Try menu on a result: the other providers' photo models, each priced, nothing sent yet. */
async function offersPriceFirst(page: Page, info: TestInfo) {
  const creates: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/v1/3d/generations')) creates.push(r.url());
  });
  await page.getByText('Try on another provider…').click();
  const menu = page.getByTestId('try-elsewhere');
  const trellis = menu.locator('button[data-model="fal/fal-ai/trellis"]');
  await expect(trellis).toHaveText(/fal · TRELLIS\s*\$0\.02/);
  await expect(menu.locator('button[data-model="beta"]')).toContainText(/credits/);
  // The entry's own provider is "Same input, another model", not here.
  await expect(menu.locator('button[data-model^="meshy/"]')).toHaveCount(0);
  await expect(menu).toContainText('Nothing is sent until you choose');
  expect(creates).toEqual([]);
  await expectAccessible(page);
  await shoot(page, info, 'try-elsewhere-menu');
  return trellis;
}

/** Sends the same photo to fal: Kiln's upload by its address; followed until both can be compared. */
async function sendAndFollow(page: Page, info: TestInfo, trellis: Locator) {
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/3d/generations') && r.request().method() === 'POST',
  );
  await trellis.click();
  const response = await created;
  expect(response.status()).toBe(202);
  const sent = response.request().postDataJSON() as { model: string; image_url: string };
  expect(sent.model).toBe('fal/fal-ai/trellis');
  expect(sent.image_url).toMatch(/\/api\/uploads\/[a-f0-9]{64}\.png$/);
  const falId = ((await response.json()) as { id: string }).id;
  expect(falId).toMatch(/^fal_/);
  const row = page.locator(`[data-testid="tried-task"][data-task-id="${falId}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('tried-status')).not.toContainText(/\d+%/);
  const open = row.getByRole('link', { name: 'Open both side by side' });
  await expect(open).toBeVisible({ timeout: 120_000 });
  await expect(row).toContainText('$0.02');
  await expectAccessible(page);
  await shoot(page, info, 'try-elsewhere-done');
  return { falId, open };
}

/** Both sides drawn, each one's facts: who made it, how long it took, what it cost, and the file's. */
async function sideBySide(page: Page, info: TestInfo) {
  const a = page.getByRole('region', { name: 'Model A' });
  const b = page.getByRole('region', { name: 'Model B' });
  await expectRenderedModel(a.getByTestId('model-viewer'));
  await expectRenderedModel(b.getByTestId('model-viewer'));
  await expect(a.getByTestId('slot-origin')).toHaveText(
    /^Meshy · meshy\/meshy-6 · \d+ s · 30 credits$/,
  );
  await expect(b.getByTestId('slot-origin')).toHaveText(
    /^fal · fal\/fal-ai\/trellis · \d+ s · \$0\.02$/,
  );
  const factsA = await factsOf(a);
  const factsB = await factsOf(b);
  await expect(factsA.locator('[data-fact="made-by"] dd')).toHaveText('Meshy · meshy/meshy-6');
  await expect(factsA.locator('[data-fact="price"] dd')).toHaveText('30 credits');
  await expect(factsB.locator('[data-fact="made-by"] dd')).toHaveText('fal · fal/fal-ai/trellis');
  await expect(factsB.locator('[data-fact="price"] dd')).toHaveText('$0.02');
  for (const facts of [factsA, factsB]) {
    await expect(facts.locator('[data-fact="time-taken"] dd')).toHaveText(/^\d+ s$/);
    await expect(facts.locator('[data-fact="triangles"] dd')).toHaveText(/^[\d,]+$/);
    await expect(facts.locator('[data-fact="textures"] dd')).toContainText(/\d+ × \d+/);
    await expect(facts.locator('[data-fact="dimensions"] dd')).toContainText('×');
  }
  await expectAccessible(page);
  await shoot(page, info, 'compare-providers-facts');
}

/** "Compare with…" and "Same input, another model" on a provider's task. */
async function sameInputElsewhere(page: Page, meshyId: string) {
  await page.goto(`/tasks/${meshyId}`);
  await page.getByText('Compare with…').click();
  await expect(
    page.getByRole('link', { name: /^Compare with fal\/fal-ai\/trellis/ }),
  ).toBeVisible();
  // Its photo, and the next model that takes it (a provider's own, past the spec's).
  await page.getByRole('button', { name: 'Same input, another model' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('input[name="model"][value="meshy/meshy-5"]')).toBeChecked({
    timeout: 30_000,
  });
  await expect(page.getByText('Ready')).toBeVisible({ timeout: 30_000 });
}

test('compare providers: a Meshy result tried on fal, price first, both side by side with who, how long and what it cost', async ({
  page,
}, info) => {
  await useKey(page);
  await page.goto('/connections');
  await connectDemo(page, 'meshy', 'Meshy');
  await connectDemo(page, 'fal', 'fal');
  await expect(page.getByTestId('balance-meshy')).toHaveText(/credits$/, { timeout: 30_000 });
  await expect(page.getByTestId('balance-fal')).toHaveText(/^fal \$[\d.,]+$/);
  const meshyBefore = await chipFigure(page, 'meshy');
  const falBefore = await chipFigure(page, 'fal');

  const meshyId = await photoTask(page, info, 'meshy/meshy-6');
  await page.goto(`/tasks/${meshyId}`);
  const detail = page.getByTestId('task-detail');
  await expect(detail).toHaveAttribute('data-status', 'completed');
  await expect(detail.getByTestId('task-cost')).toHaveText('30 credits', { timeout: 30_000 });
  await expect.poll(() => chipFigure(page, 'meshy'), { timeout: 30_000 }).toBe(meshyBefore - 30);

  const trellis = await offersPriceFirst(page, info);
  const { falId, open } = await sendAndFollow(page, info, trellis);
  // Each balance moved by its own provider's price, in its own unit.
  await expect
    .poll(() => chipFigure(page, 'fal'), { timeout: 30_000 })
    .toBeCloseTo(falBefore - 0.02, 5);
  expect(await chipFigure(page, 'meshy')).toBe(meshyBefore - 30);

  // One click: both side by side.
  await open.click();
  await expect(page).toHaveURL(/\/viewer\?/);
  const address = new URL(page.url()).searchParams;
  expect([address.get('a_task'), address.get('b_task')]).toEqual([meshyId, falId]);
  await sideBySide(page, info);
  await sameInputElsewhere(page, meshyId);
});

test("Try again on a provider's failed task sends it to that provider again, with its key", async ({
  page,
}) => {
  await useKey(page);
  await page.goto('/connections');
  await connectDemo(page, 'meshy', 'Meshy');
  await page.goto('/');
  await expect(page.locator('input[name="model"][value="meshy/meshy-6"]')).toBeAttached({
    timeout: 30_000,
  });
  await pickModel(page, 'meshy/meshy-6');
  await page.getByRole('radio', { name: 'A prompt' }).check();
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a wooden chair mock:fail');
  const { id, detail } = await generate(page);
  await expect(detail).toHaveAttribute('data-status', 'failed', { timeout: 120_000 });
  // Meshy refunds a failed task in full: said in its own words, not as the spec's credits.
  await expect(detail.locator('.refund')).toHaveText(
    /Meshy charged nothing for this failed task\./,
  );
  const again = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/3d/generations') && r.request().method() === 'POST',
  );
  await detail.getByRole('button', { name: 'Try again' }).click();
  const response = await again;
  expect(response.status()).toBe(202);
  expect(await response.request().headerValue('x-provider-key')).toMatch(/^msy_/);
  expect(response.request().postDataJSON()).toMatchObject({
    model: 'meshy/meshy-6',
    prompt: 'a wooden chair mock:fail',
  });
  const next = ((await response.json()) as { id: string }).id;
  expect(next).toMatch(/^meshy_/);
  expect(next).not.toBe(id);
  await expect(page).toHaveURL(new RegExp(`/tasks/${next}$`));
});
