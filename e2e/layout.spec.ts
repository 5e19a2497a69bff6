// What fits on the screens artists use (issue 23's cosmetic list): the task page's actions above
// the fold at 1440 × 900, and the viewer's whole toolbar, on /viewer, inside its frame.
import { expect, test } from './fixtures.ts';
import { DEMO_KEY, expectRenderedModel, settle, shot, useKey } from './helpers.ts';

test('at 1440 × 900 the task page shows Download, Optimise and Share without scrolling, and /viewer its whole toolbar', async ({
  page,
}, info) => {
  await useKey(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  const res = await page.request.post('/api/v1/3d/generations', {
    headers: { authorization: `Bearer ${DEMO_KEY}` },
    data: { model: 'beta-text', prompt: 'a ceramic teapot', mode: 'sync' },
  });
  expect(res.status()).toBe(200);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/tasks/${id}`);
  const viewer = page.getByTestId('model-viewer');
  await expectRenderedModel(viewer);
  for (const action of [
    page.getByRole('link', { name: 'Download GLB' }),
    page.getByRole('link', { name: 'Optimise…' }),
    page.getByRole('button', { name: /Share/ }).first(),
  ])
    await expect(action).toBeInViewport({ ratio: 1 });
  await shot(page, info, 'task-1440');
  // The first showing keeps the model's picture: let that settle before leaving the page.
  await expect
    .poll(async () => {
      const entry = await page.request.get(`/api/library/${id}`, {
        headers: { authorization: `Bearer ${DEMO_KEY}` },
      });
      return ((await entry.json()) as { thumbnail_url: string | null }).thumbnail_url;
    })
    .not.toBeNull();

  await page.getByRole('link', { name: 'Open in viewer' }).click();
  const full = page.getByTestId('model-viewer').first();
  await expect(full).toHaveAttribute('data-state', 'ready', { timeout: 30_000 });
  await settle(page);
  await expectRenderedModel(full);
  const frame = (await full.boundingBox())!;
  const controls = full
    .getByRole('toolbar', { name: 'Viewer controls' })
    .locator('button, select, input');
  const n = await controls.count();
  expect(n).toBeGreaterThan(5);
  for (let i = 0; i < n; i++) {
    if (!(await controls.nth(i).isVisible())) continue; // in a closed menu, or not for this model
    const box = await controls.nth(i).boundingBox();
    if (!box) continue;
    const label =
      (await controls.nth(i).getAttribute('aria-label')) ?? (await controls.nth(i).textContent());
    expect(box.y + box.height, `${label} inside the viewer`).toBeLessThanOrEqual(
      frame.y + frame.height + 1,
    );
    expect(box.x + box.width, `${label} inside the viewer`).toBeLessThanOrEqual(
      frame.x + frame.width + 1,
    );
  }
  await expect(page.getByRole('button', { name: 'Keyboard shortcuts' })).toBeInViewport({
    ratio: 1,
  });
  await shot(page, info, 'viewer-1440');
});
