import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { unzipSync } from 'fflate';
import { readFileSync } from 'node:fs';
import {
  DEMO_KEY,
  expectAccessible,
  expectRenderedModel,
  libraryCount,
  overflowing,
  photo,
  shot,
  useKey,
} from './helpers.ts';

/** Every task of a key in the library, all pages. */
async function libraryTotal(page: Page, key = DEMO_KEY): Promise<number> {
  let total = 0;
  let cursor = '';
  do {
    const res = await page.request.get(
      `/api/library?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      {
        headers: { authorization: `Bearer ${key}` },
      },
    );
    const body = (await res.json()) as { data: unknown[]; next_cursor: string | null };
    total += body.data.length;
    cursor = body.next_cursor ?? '';
  } while (cursor);
  return total;
}

const isCreate = (url: string, method: string) =>
  method === 'POST' && new URL(url).pathname === '/api/v1/3d/generations';

test('a batch of photos: priced first, resumed after a reload without a second task, downloaded as one zip', async ({
  page,
}, info) => {
  test.setTimeout(120_000);
  await useKey(page);
  const before = await libraryTotal(page);
  await page.goto('/batch');
  await expect(page.getByRole('heading', { name: 'Batch', level: 1 })).toBeVisible();
  await expect(page).toHaveTitle('Batch · Kiln');

  await page
    .getByTestId('batch-file-input')
    .setInputFiles([photo('chair.png'), photo('flamingo.png'), photo('teapot.png')]);
  const planned = page.getByRole('list', { name: 'Photos in this batch' }).getByRole('listitem');
  await expect(planned).toHaveCount(3);
  await expect(page.getByText('Checking…')).toHaveCount(0);
  // Only single-image models for photos.
  await expect(page.locator('input[name="batch-model"]')).toHaveCount(3);
  await expect(page.locator('input[name="batch-model"][value="beta-text"]')).toHaveCount(0);
  await page.locator('input[name="batch-model"][value="beta"]').check();
  const price = page.getByTestId('batch-price');
  await expect(price).toContainText('3 photos × beta = 45 credits');
  await shot(page, info, 'batch-planned');
  await expectAccessible(page);

  const creates: string[] = [];
  page.on('request', (r) => {
    if (isCreate(r.url(), r.method())) creates.push(r.headers()['idempotency-key'] ?? '(no key)');
  });
  // The second create reaches the server, which makes its task, but its answer is lost to a
  // reload: the batch must send it again with the same key and get that same task back.
  let seen = 0;
  let lost: { id: string; key: string } | undefined;
  const answerLost = new Promise<void>((resolve) => {
    void page.route('**/api/v1/3d/generations', async (route) => {
      if (++seen !== 2) return route.continue();
      const res = await route.fetch();
      lost = {
        id: ((await res.json()) as { id: string }).id,
        key: route.request().headers()['idempotency-key'] ?? '',
      };
      resolve(); // never answered
    });
  });
  await page.getByRole('button', { name: 'Generate 3 tasks' }).click();
  const board = page.getByRole('list', { name: 'Items of this batch' });
  await expect(board.getByTestId('batch-item')).toHaveCount(3);
  await shot(page, info, 'batch-sending');
  await answerLost;
  // Reloaded with that create still unanswered (unrouting first would let it through).
  await page.reload();
  await page.unrouteAll({ behavior: 'ignoreErrors' });

  const items = page.getByTestId('batch-item');
  await expect(items).toHaveCount(3);
  await expect(
    page.locator(`[data-testid="batch-item"][data-task-id="${lost!.id}"]`),
  ).toBeVisible();
  await expect(page.locator('[data-testid="batch-item"][data-status="completed"]')).toHaveCount(3, {
    timeout: 60_000,
  });
  await expect(page.getByTestId('batch-summary')).toHaveText('3 of 3 completed');

  // One task per photo, whatever was sent twice: the repeat carried the same key.
  const ids = await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-task-id')));
  expect(new Set(ids).size).toBe(3);
  expect(await libraryTotal(page)).toBe(before + 3);
  expect(new Set(creates).size).toBe(3);
  expect(creates.filter((k) => k === lost!.key).length).toBeGreaterThanOrEqual(2);
  await shot(page, info, 'batch-board');
  await expectAccessible(page);

  // Download all: one zip, a GLB per photo, named after it.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download all (3)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^kiln-3-models-\d{4}-\d{2}-\d{2}\.zip$/);
  const files = unzipSync(new Uint8Array(readFileSync(await download.path())));
  const names = Object.keys(files).sort();
  expect(names).toEqual([
    expect.stringMatching(/^kiln-beta-chair-\d{4}-\d{2}-\d{2}-[a-z0-9]+\.glb$/),
    expect.stringMatching(/^kiln-beta-flamingo-/),
    expect.stringMatching(/^kiln-beta-teapot-/),
  ]);
  for (const name of names)
    expect(new TextDecoder().decode(files[name]!.slice(0, 4)), name).toBe('glTF');

  // Open goes to the task, whose viewer draws the model's picture; back on the board, the
  // item shows that picture (with the photo in its corner).
  await items
    .first()
    .getByRole('link', { name: /^Open / })
    .click();
  await expect(page).toHaveURL(/\/tasks\/task_/);
  await expectRenderedModel(page.getByTestId('model-viewer'));
  const opened = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/library/${opened}`, {
        headers: { authorization: `Bearer ${DEMO_KEY}` },
      });
      return ((await res.json()) as { thumbnail_url?: string | null }).thumbnail_url ?? '';
    })
    .toMatch(/\.webp\?exp=\d+&sig=/);
  await page.goBack();
  await expect(page.locator('[data-testid="batch-item"][data-status="completed"]')).toHaveCount(3);
  const picture = page.getByRole('img', { name: '3D model made from chair.png' });
  await expect
    .poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);

  // A phone.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('batch-summary')).toBeVisible();
  expect(await overflowing(page)).toEqual([]);
  await shot(page, info, 'batch-board-390');
});

test('a failed item is retried alone, with a new key', async ({ page }) => {
  await useKey(page);
  await page.goto('/batch');
  await page.getByRole('radio', { name: 'A list of prompts' }).check();
  await page
    .getByRole('textbox', { name: 'Prompts, one a line' })
    .fill('a green mug\na lamp mock:fail');
  await page.getByRole('button', { name: 'Generate 2 tasks' }).click();
  const failed = page.locator('[data-testid="batch-item"][data-status="failed"]');
  await expect(failed).toHaveCount(1, { timeout: 30_000 });
  await expect(page.locator('[data-testid="batch-item"][data-status="completed"]')).toHaveCount(1, {
    timeout: 30_000,
  });
  const firstId = await failed.getAttribute('data-task-id');
  const before = await libraryCount(page);
  const keys: string[] = [];
  page.on('request', (r) => {
    if (isCreate(r.url(), r.method())) keys.push(r.headers()['idempotency-key'] ?? '');
  });
  await failed.getByRole('button', { name: /^Retry / }).click();
  // The retry is a new task (mock:fail fails it again): one create, one new library entry.
  await expect
    .poll(() => page.locator('[data-testid="batch-item"]').nth(1).getAttribute('data-task-id'))
    .not.toBe(firstId);
  await expect.poll(() => libraryCount(page)).toBe(before + 1);
  expect(keys).toHaveLength(1);
  await expect(page.locator('[data-testid="batch-item"]').nth(1)).toContainText('try 2');
});

test('a prompt list the balance cannot cover is refused before anything is sent', async ({
  page,
}, info) => {
  const POOR = 'tr_e2e_poor';
  // The balance is known (5): a create refused for want of credits told it, as in the studio.
  const refused = await page.request.post('/api/v1/3d/generations', {
    headers: { authorization: `Bearer ${POOR}` },
    data: { model: 'beta-text', prompt: 'a cube' },
  });
  expect(refused.status()).toBe(402);

  await useKey(page, POOR);
  const sent: string[] = [];
  page.on('request', (r) => {
    if (isCreate(r.url(), r.method()) || r.url().includes('/api/uploads')) sent.push(r.url());
  });
  await page.goto('/batch');
  await page.getByRole('radio', { name: 'A list of prompts' }).check();
  // Text models only.
  await expect(page.locator('input[name="batch-model"]')).toHaveCount(1);
  await page
    .getByRole('textbox', { name: 'Prompts, one a line' })
    .fill('a red vase\n\n   a wooden chair   \na brass lamp\n');
  const price = page.getByTestId('batch-price');
  await expect(price).toContainText('3 prompts × beta-text = 30 credits');
  // Every prompt is known: nothing is said of them.
  await expect(page.getByTestId('prompt-warning')).toHaveCount(0);
  // Lines the demo generator does not know, or makes from a nearby model, are said before
  // anything is sent.
  await page
    .getByRole('textbox', { name: 'Prompts, one a line' })
    .fill('a red vase\na time machine\na lantern\n');
  const warnings = page.getByTestId('prompt-warning');
  await expect(warnings).toHaveCount(2);
  await expect(warnings.nth(0)).toContainText('Line 2, “a time machine”: Not a known object');
  await expect(warnings.nth(1)).toContainText('Line 3, “a lantern”: Approximate');
  await page
    .getByRole('textbox', { name: 'Prompts, one a line' })
    .fill('a red vase\n\n   a wooden chair   \na brass lamp\n');
  await expect(price).toContainText('This batch costs 30 credits and your balance is 5: 25 short.');
  const go = page.getByRole('button', { name: 'Generate 3 tasks' });
  await expect(go).toBeDisabled();
  await expect(go).toHaveAccessibleDescription(/balance is 5: 25 short/);
  await go.click({ force: true });
  await shot(page, info, 'batch-refused');
  await expectAccessible(page);
  expect(sent).toEqual([]);
  expect(await libraryCount(page, POOR)).toBe(0);

  // Too many, or too long: said, and refused too.
  const many = Array.from({ length: 21 }, (_, i) => `thing ${i + 1}`).join('\n');
  await page.getByRole('textbox', { name: 'Prompts, one a line' }).fill(many);
  await expect(page.getByRole('alert')).toHaveText(
    'A batch takes at most 20 prompts; there are 21. Remove 1.',
  );
  await expect(page.getByRole('button', { name: 'Generate 21 tasks' })).toBeDisabled();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('textbox', { name: 'Prompts, one a line' }).fill('a red vase\na chair');
  expect(await overflowing(page)).toEqual([]);
  await shot(page, info, 'batch-refused-390');
  expect(sent).toEqual([]);
});

test('bad files in a batch: each says why, nothing overlaps, and the price counts only good photos', async ({
  page,
}, info) => {
  await useKey(page);
  await page.goto('/batch');
  await page.getByTestId('batch-file-input').setInputFiles([
    { name: 'chair.png', mimeType: 'image/png', buffer: readFileSync(photo('chair.png')) },
    {
      name: 'shopping list with a long name.png',
      mimeType: 'image/png',
      buffer: Buffer.from('eggs, milk, flour and a great deal more text'),
    },
    { name: 'empty.png', mimeType: 'image/png', buffer: Buffer.alloc(0) },
  ]);
  const items = page.getByRole('list', { name: 'Photos in this batch' }).getByRole('listitem');
  await expect(items).toHaveCount(3);
  await expect(page.getByText('Checking…')).toHaveCount(0);
  await expect(items.nth(1)).toContainText(/plain text/);
  await expect(items.nth(2)).toContainText('“empty.png” is empty.');
  // The reasons and the Remove buttons do not overlap, at the desktop width and on a phone.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const i of [1, 2]) {
      const text = await items.nth(i).getByRole('alert').boundingBox();
      const remove = await items.nth(i).getByRole('button').boundingBox();
      const apart =
        text!.x + text!.width <= remove!.x ||
        remove!.x + remove!.width <= text!.x ||
        text!.y + text!.height <= remove!.y ||
        remove!.y + remove!.height <= text!.y;
      expect(apart, `item ${i} at ${width} px`).toBe(true);
    }
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.locator('input[name="batch-model"][value="alpha"]').check();
  const price = page.getByTestId('batch-price');
  await expect(price).toContainText('1 photo × alpha = 10 credits');
  await shot(page, info, 'batch-bad-files');
});
