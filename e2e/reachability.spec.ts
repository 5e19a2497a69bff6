// What a person sees when Kiln or the upstream cannot be reached, and two tabs of one key
// (issue 23, items 6 and 7). The browser's requests are cut with page.route: to the page it is
// exactly a server that stopped answering.
import { expect, test } from './fixtures.ts';
import { generate, mockLedgerBalance, pickModel, shot, useKey } from './helpers.ts';

test('Kiln unreachable mid-task: a banner says so while it lasts, and the task still ends once', async ({
  page,
}, info) => {
  await useKey(page);
  await page.goto('/');
  await pickModel(page, 'beta-text');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a blue teapot');
  const { id, detail } = await generate(page);
  // Kiln stops answering.
  await page.route('**/api/**', (route) => route.abort('connectionrefused'));
  const banner = page.getByTestId('connection-banner');
  await expect(banner).toContainText('Kiln’s server cannot be reached', { timeout: 30_000 });
  await expect(page.getByRole('status').filter({ has: banner })).toBeVisible();
  await shot(page, info, 'kiln-unreachable');
  // It answers again: the banner goes by itself, and the task is there, completed.
  await page.unroute('**/api/**');
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  const res = await page.request.get(`/api/library/${id}`, {
    headers: { authorization: 'Bearer tr_demo_kiln' },
  });
  expect(((await res.json()) as { status: string }).status).toBe('completed');
});

test('the upstream unreachable through Kiln: said apart from Kiln, and cleared', async ({
  page,
}, info) => {
  await useKey(page);
  await page.goto('/');
  await pickModel(page, 'beta-text');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a green lantern');
  const { detail } = await generate(page);
  await page.route('**/api/v1/**', (route) =>
    route.fulfill({
      status: 502,
      contentType: 'application/json',
      body: JSON.stringify({
        error: {
          message: 'The upstream could not be reached.',
          type: 'api_error',
          code: 'upstream_unreachable',
        },
      }),
    }),
  );
  const banner = page.getByTestId('connection-banner');
  await expect(banner).toContainText('image-to-3D service cannot be reached', {
    timeout: 30_000,
  });
  await shot(page, info, 'upstream-unreachable');
  await page.unroute('**/api/v1/**');
  await expect(banner).toHaveCount(0, { timeout: 30_000 });
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
});

test('two tabs with one key stay in step: a task started in one shows in the other, with one balance', async ({
  browser,
}) => {
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('kiln.apiKey', 'tr_demo_kiln'));
  const one = await context.newPage();
  const two = await context.newPage();
  await one.goto('/');
  await two.goto('/');
  await expect(two.getByRole('heading', { name: 'Studio' })).toBeAttached();
  await pickModel(one, 'beta-text');
  const prompt = `a copper kettle ${Date.now()}`;
  await one.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  const { detail } = await generate(one);
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  // The other tab was not touched: its Recent tasks has the new task, and the same balance.
  const recent = two.getByRole('region', { name: 'Recent tasks' });
  await expect(recent.getByText(prompt, { exact: false })).toBeVisible({ timeout: 15_000 });
  const balance = mockLedgerBalance().toLocaleString('en-US');
  await expect(one.getByTestId('balance')).toContainText(balance, { timeout: 15_000 });
  await expect(two.getByTestId('balance')).toContainText(balance, { timeout: 15_000 });
  await context.close();
});
