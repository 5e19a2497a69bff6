import { expect, test } from './fixtures.ts';

test('the shell opens in Chromium and reaches the server in mock mode', async ({
  page,
}, testInfo) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text()); // CSP violations land here
  });
  const res = await page.goto('/');
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page).toHaveTitle('Kiln');
  await expect(page.getByRole('banner').getByText('Demo upstream')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Use the demo key' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('shell.png'), fullPage: true });
  expect(errors).toEqual([]);
});

test('the embedded mock answers through the proxy with the demo key', async ({ request }) => {
  const models = await request.get('/api/v1/models', {
    headers: { Authorization: 'Bearer tr_demo_kiln' },
  });
  expect(models.status()).toBe(200);
  const body = (await models.json()) as { data: { id: string }[] };
  expect(body.data.map((m) => m.id)).toContain('beta-text');

  const denied = await request.get('/api/v1/models');
  expect(denied.status()).toBe(401);
});
