// The credit history's corrections (issue 31): when the upstream's figure differs from Kiln's
// ledger, the credits page shows a correction with both figures and its cause, never a credit.
import { type APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { expectAccessible, shot, useKey } from './helpers.ts';

const KEY = 'tr_e2e_ledger';

async function syncTask(request: APIRequestContext, base: '/api/v1' | '/mock/v1', prompt: string) {
  const res = await request.post(`${base}/3d/generations`, {
    headers: { authorization: `Bearer ${KEY}` },
    data: { model: 'beta-text', prompt, mode: 'sync' },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test('credits spent outside Kiln show as a correction with both figures and its cause', async ({
  page,
  request,
}, info) => {
  // A task through Kiln (the upstream states 990), one made with the same key elsewhere (980,
  // which Kiln never sees), then another through Kiln: the upstream says 970 after its charge of
  // 10, so 980 before it, where Kiln's ledger had 990.
  await syncTask(request, '/api/v1', 'a cup through Kiln');
  await syncTask(request, '/mock/v1', 'a bowl made elsewhere');
  await syncTask(request, '/api/v1', 'a vase through Kiln');

  await useKey(page, KEY);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/credits');
  const corrections = page.getByRole('region', { name: 'Corrections' });
  await expect(corrections.getByRole('listitem')).toHaveCount(1);
  await expect(corrections.getByRole('listitem')).toContainText(
    'the upstream’s figure put the balance at 980 where Kiln’s ledger had 990 (−10), because credits were added or spent outside Kiln',
  );
  await expect(page.locator('.credits-number')).toHaveText('970');
  await expectAccessible(page);
  await shot(page, info, 'credits-correction-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(corrections).toBeVisible();
  // A page that scrolls sideways on a phone hides half of every row.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, info, 'credits-correction-390');
});
