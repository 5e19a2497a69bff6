// One answer per fact (issue 33, item 1): a model's size reads the same in the viewer's facts and
// on the optimise page (one formatter, SI units, decision 0108), and its title the same on every
// page that names it: its result, the gallery card, the optimise page, its shared page and a
// shared collection's page (one rule, `modelTitle`), before and after it is named.
import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { formatBytes } from '../src/formats/index.ts';
import {
  DEMO_KEY,
  expectAccessible,
  hiddenAfterEach,
  keptPromptModel,
  overflowing,
  press,
  shot,
  useKey,
} from './helpers.ts';

const auth = { authorization: `Bearer ${DEMO_KEY}` };
const madeHere = hiddenAfterEach();

/** POSTs JSON with the demo key and returns the answer's body. */
async function post<T>(page: Page, path: string, data: unknown): Promise<T> {
  const res = await page.request.post(path, { headers: auth, data });
  expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** Every page that names the model says `title`, where it says it. */
async function titleReadsAlike(
  page: Page,
  id: string,
  title: string,
  links: { share: string; collection: string },
) {
  await page.goto(`/tasks/${id}`);
  const detail = page.getByTestId('task-detail');
  await expect(detail.getByRole('heading', { level: 1 })).toContainText(title);

  await page.goto('/gallery');
  const card = page.locator(`[data-card][data-task-id="${id}"]`);
  await expect(card.getByRole('heading', { level: 2 })).toContainText(title);

  await page.goto(`/tasks/${id}/optimise`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Optimise · ${title}`);

  await page.goto(links.share);
  await expect(page.getByRole('heading', { level: 1, name: title, exact: true })).toBeVisible();
  await expect(page).toHaveTitle(`${title} · Kiln`);

  await page.goto(links.collection);
  await expect(page.locator('#chosen-title')).toHaveText(title);
}

test('a model’s size and title read the same on every page that shows them', async ({
  page,
}, info) => {
  test.setTimeout(420_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await useKey(page);
  const prompt = `a small teapot with a spout ${Date.now().toString(36)}`;
  const id = await keptPromptModel(page, prompt, madeHere);

  // The GLB's own bytes, and how the one formatter says them.
  const entry = (await (
    await page.request.get(`/api/library/${id}`, { headers: auth })
  ).json()) as {
    model_url: string;
  };
  const glb = await (await page.request.get(entry.model_url, { headers: auth })).body();
  const size = formatBytes(glb.byteLength);
  expect(size).toMatch(/^\d+(\.\d)? (kB|MB)$/);

  // The viewer's facts, in the task's result.
  await page.goto(`/tasks/${id}`);
  const viewer = page.getByTestId('task-detail').getByTestId('model-viewer');
  await expect(viewer).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
  await press(viewer, 'i');
  await expect(viewer.locator('[data-fact=file-size] dd')).toHaveText(size);

  // The optimise page: the original's size, in its caption and in the before / after table.
  await page.goto(`/tasks/${id}/optimise`);
  await page.getByRole('radio', { name: /Web \/ AR/ }).check();
  await page.getByRole('button', { name: 'Optimise', exact: true }).click();
  const result = page.getByTestId('optimise-result');
  await expect(result).toBeVisible({ timeout: 180_000 });
  await expect(result.getByText(`Original · ${size}`, { exact: true })).toBeVisible();
  const sizeRow = result.getByRole('table').getByRole('row', { name: /^File size/ });
  await expect(sizeRow.getByRole('cell').first()).toContainText(
    `${size} ${glb.byteLength.toLocaleString('en')} bytes`,
  );
  await shot(page, info, 'same-facts-optimise-1440');

  // Shared by itself, and in a shared collection.
  const share = await post<{ url: string }>(page, `/api/library/${id}/share`, {});
  const collection = await post<{ id: string }>(page, '/api/collections', {
    name: `Facts ${Date.now().toString(36)}`,
  });
  await post(page, `/api/collections/${collection.id}/models`, { add: [id] });
  const shelf = await post<{ url: string }>(page, `/api/collections/${collection.id}/share`, {});
  const links = { share: new URL(share.url).pathname, collection: new URL(shelf.url).pathname };

  try {
    // Unnamed: its prompt, quoted, everywhere.
    await titleReadsAlike(page, id, `“${prompt}”`, links);
    await shot(page, info, 'same-facts-collection-1440');

    // Named: its name, everywhere.
    const res = await page.request.patch(`/api/library/${id}`, {
      headers: auth,
      data: { name: 'Teapot of facts' },
    });
    expect(res.ok(), await res.text()).toBe(true);
    await titleReadsAlike(page, id, 'Teapot of facts', links);

    // On a phone, the shared page and the optimise page still fit.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(links.share);
    await expect(page.getByRole('heading', { level: 1, name: 'Teapot of facts' })).toBeVisible();
    expect(await overflowing(page)).toEqual([]);
    await shot(page, info, 'same-facts-share-390');
    await page.goto(`/tasks/${id}/optimise`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Optimise · Teapot of facts');
    expect(await overflowing(page)).toEqual([]);
    await expectAccessible(page);
    await shot(page, info, 'same-facts-optimise-390');
  } finally {
    await page.request.delete(`/api/library/${id}/share`, { headers: auth });
    await page.request.delete(`/api/collections/${collection.id}`, { headers: auth });
  }
});
