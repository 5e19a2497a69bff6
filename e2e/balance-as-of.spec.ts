// Every figure says when it was true (issue 32, items 8, 9 and 10; decision 0100):
// - a new key in mock mode: the header shows the built-in mock's balance before any task, as of
//   when Kiln asked;
// - credits spent outside Kiln (the same key used against the mock directly): the header keeps
//   Kiln's figure, as of the upstream's last statement, and says what it cannot know; a result's
//   figure is "after this task"; one number format (99,990) in the header, the form and the result;
// - a share link on Kiln's default loopback address says it opens on this computer only, how to
//   set PUBLIC_URL, and offers no QR code.
import { type APIRequestContext, type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { CreditsSchema } from '../src/contract/index.ts';
import {
  expectAccessible,
  finishedPromptModel,
  overflowing,
  pickModel,
  shot,
  useKey,
} from './helpers.ts';

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

async function credits(request: APIRequestContext, key: string) {
  const res = await request.get('/api/credits', { headers: { authorization: `Bearer ${key}` } });
  expect(res.status()).toBe(200);
  return CreditsSchema.parse(await res.json());
}

/** "as of 6:09 PM", as this browser writes a time of day (the tests run within one day). */
async function asOfWords(page: Page, ms: number): Promise<string> {
  return `as of ${await page.evaluate(
    (t) => new Intl.DateTimeFormat(undefined, { timeStyle: 'short' }).format(t),
    ms,
  )}`;
}

test('a new key in mock mode: the header shows the mock’s balance at once, as of when it was asked', async ({
  page,
  request,
}, info) => {
  const KEY = 'tr_e2e_first';
  await useKey(page, KEY);
  await page.setViewportSize(WIDE);
  await page.goto('/');
  const chip = page.getByTestId('balance');
  await expect(chip).toContainText('1,000 credits');
  await expect(chip).not.toContainText('—');
  const now = await credits(request, KEY);
  expect(now).toMatchObject({ balance: 1000, exact: true });
  await expect(page.getByTestId('balance-as-of')).toHaveText(await asOfWords(page, now.as_of_ms!));
  // The form says it in the same format, before anything is sent.
  await pickModel(page, 'beta-text');
  await expect(page.locator('#price-note')).toHaveText('10 credits · balance 1,000');
  await expectAccessible(page);
  await shot(page, info, 'first-balance-1440');
  await page.setViewportSize(PHONE);
  expect(await overflowing(page)).toEqual([]);
  await shot(page, info, 'first-balance-390');
});

test('credits spent outside Kiln: the header keeps Kiln’s figure as of the upstream’s last statement, and says so', async ({
  page,
  request,
}, info) => {
  test.setTimeout(120_000);
  const KEY = 'tr_e2e_asof';
  await useKey(page, KEY);
  await page.setViewportSize(WIDE);
  // A task through Kiln: the upstream states 99,990 after its charge.
  const { detail } = await finishedPromptModel(page, 'a pewter spoon through Kiln');
  await expect(detail.getByText('Remaining after this task')).toBeVisible();
  await expect(detail.getByTestId('credits-remaining')).toHaveText('99,990');
  const before = await credits(request, KEY);
  expect(before).toMatchObject({ balance: 99_990, exact: true });
  expect(before.as_of_ms).toBe(before.learned_ms);

  // The same key spends 10 elsewhere (straight at the mock): Kiln never sees it.
  const spentAt = Date.now();
  const outside = await request.post('/mock/v1/3d/generations', {
    headers: { authorization: `Bearer ${KEY}` },
    data: { model: 'beta-text', prompt: 'a bowl made elsewhere', mode: 'sync' },
  });
  expect(outside.status()).toBe(200);

  // Kiln's figure stands, as of its last statement, before the spending it could not see.
  const after = await credits(request, KEY);
  expect(after).toMatchObject({ balance: 99_990, exact: true });
  expect(after.as_of_ms).toBe(before.as_of_ms);
  expect(after.as_of_ms!).toBeLessThan(spentAt);
  await page.goto('/');
  const chip = page.getByTestId('balance');
  await expect(chip).toContainText('99,990 credits');
  await expect(page.getByTestId('balance-as-of')).toHaveText(
    await asOfWords(page, after.as_of_ms!),
  );
  await expect(chip).toHaveAttribute(
    'title',
    /^The upstream stated it at .+\. Credits spent outside Kiln \(another app with this key\) are not in it until the upstream states a balance again, after your next task\.$/,
  );
  await expect(chip).toHaveAttribute('aria-label', /^Credits: 99,990, as of .+$/);
  await pickModel(page, 'beta-text');
  await expect(page.locator('#price-note')).toHaveText('10 credits · balance 99,990');

  await page.goto('/credits');
  const asOf = page.getByTestId('credits-as-of');
  await expect(asOf).toContainText(/^As of .+\. The upstream stated it at .+\./);
  await expect(asOf).toContainText('Credits spent outside Kiln (another app with this key)');
  await expectAccessible(page);
  await shot(page, info, 'as-of-credits-1440');
  await page.setViewportSize(PHONE);
  // Nothing sticks out (the chart's table for screen readers included), once the table follows.
  await expect.poll(() => overflowing(page)).toEqual([]);
  await shot(page, info, 'as-of-credits-390');
});

test('a share link on a loopback address says it opens on this computer only, and how to set PUBLIC_URL', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(120_000);
  await useKey(page);
  await page.setViewportSize(WIDE);
  const PROMPT = 'a tin whistle for this computer';
  const { detail } = await finishedPromptModel(page, PROMPT);
  await detail.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Share “${PROMPT}”` });
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const url = await dialog.getByLabel('Public link').inputValue();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/s\//);
  const note = dialog.getByTestId('this-computer-only');
  await expect(note).toContainText('This link works on this computer only:');
  await expect(note).toContainText('PUBLIC_URL');
  await expect(note.locator('code')).toHaveText(
    'HOST=0.0.0.0 PUBLIC_URL=http://192.168.1.20:8080 npm start',
  );
  // No code for a phone's camera, and no words offering one.
  await expect(dialog.getByRole('img', { name: /^QR code/ })).toHaveCount(0);
  await expect(dialog.getByText('On a phone:')).toHaveCount(0);
  await expectAccessible(page);
  await shot(page, info, 'loopback-share-1440');
  await page.setViewportSize(PHONE);
  await expect(note).toBeVisible();
  await expect.poll(() => overflowing(page)).toEqual([]);
  await shot(page, info, 'loopback-share-390');

  // The public page, opened on this computer: "View on a phone" says the same, with no code.
  const visitor = await browser.newContext({ viewport: WIDE });
  const desk = await visitor.newPage();
  await desk.goto(url);
  await desk.getByRole('button', { name: 'View on a phone' }).click();
  await expect(desk.getByTestId('this-computer-only')).toContainText(
    'This link works on this computer only:',
  );
  await expect(desk.getByRole('img', { name: /^QR code/ })).toHaveCount(0);
  await expectAccessible(desk);
  await shot(desk, info, 'loopback-share-page-1440');
  await visitor.close();
});
