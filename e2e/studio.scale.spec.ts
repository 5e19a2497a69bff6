// The studio through nginx in front of two Kiln replicas (PostgreSQL, S3-compatible blobs):
// key, photo upload, generate, progress, the model in the viewer, gallery and credits, with
// nginx handing every request to the next replica in turn.
import { expect, test } from '@playwright/test';
import { readAccessLog } from '../src/testing/stack.ts';
import {
  DEMO_KEY,
  balanceOf,
  expectRenderedModel,
  generate,
  photo,
  pickModel,
  shot,
} from './helpers.ts';

const replicas = (process.env.KILN_SCALE_REPLICAS ?? '').split(',').filter(Boolean);
const accessLog = () => readAccessLog(process.env.KILN_SCALE_ACCESS_LOG ?? '');

test('the whole studio flow works with every request alternating replicas', async ({
  page,
}, info) => {
  expect(replicas).toHaveLength(2);
  const logStart = accessLog().length;

  // The key screen: no demo key is published by a shared upstream, so the artist pastes one.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Connect your API key' })).toBeVisible();
  await page.getByRole('textbox', { name: 'API key' }).fill(DEMO_KEY);
  await page.getByRole('button', { name: /^(Connect|Save|Use this key)/ }).click();
  await expect(page.getByRole('heading', { name: 'New model' })).toBeVisible();

  // Photo upload, generate, progress, the result in the viewer.
  await pickModel(page, 'alpha');
  await page.getByTestId('file-input').first().setInputFiles(photo('teapot.png'));
  await expect(page.getByText('Ready')).toBeVisible();
  const { id, detail } = await generate(page);
  await expect(detail.getByRole('progressbar').first()).toBeVisible();
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 45_000 });
  await expectRenderedModel(detail.getByTestId('model-viewer'));
  await expect(detail.getByTestId('credits-remaining')).not.toHaveText('—');
  await shot(page, info, 'scale-result');

  // The gallery lists it with the model's picture the result's viewer drew (kept in S3) and its
  // input photo beside it, each served by whichever replica nginx picks.
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/library/${id}`, {
        headers: { authorization: `Bearer ${DEMO_KEY}` },
      });
      return ((await res.json()) as { thumbnail_url?: string | null }).thumbnail_url ?? '';
    })
    .toMatch(/\.webp\?exp=\d+&sig=/);
  await page.goto('/gallery');
  await expect(page.getByRole('heading', { name: 'Gallery' })).toBeVisible();
  const card = page.locator(`[data-task-id="${id}"]`).first();
  await expect(card).toBeVisible();
  for (const name of [/^3D model from the alpha task/, /^Input photo/]) {
    const image = card.getByRole('img', { name }).first();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
  }
  await shot(page, info, 'scale-gallery');

  // Credits: the balance the task reported, the same from either replica.
  await page.goto('/credits');
  await expect(page.getByRole('table', { name: /Credits per task/ })).toBeVisible();
  const balances = await Promise.all([0, 1, 2, 3].map(() => balanceOf(page)));
  expect(new Set(balances).size).toBe(1);
  expect(balances[0]).toBeGreaterThan(0);
  await expect(page.getByTestId('balance')).toContainText(balances[0]!.toLocaleString('en-US'));
  await shot(page, info, 'scale-credits');

  // nginx alternated: both replicas took a fair share of the studio's requests, and this
  // task's own requests (create, polls, model) were answered by both.
  const api = accessLog()
    .slice(logStart)
    .filter((l) => l.uri.startsWith('/api/'));
  const share = (r: string) => api.filter((l) => l.upstream === r).length / api.length;
  for (const r of replicas) expect(share(r), r).toBeGreaterThan(0.3);
  const ofTask = api.filter((l) => l.uri.includes(id) || l.uri === '/api/v1/3d/generations');
  expect(new Set(ofTask.map((l) => l.upstream)).size, JSON.stringify(ofTask)).toBe(2);
  for (const prefix of ['/api/uploads', '/api/v1/3d/generations', '/api/v1/tasks/', '/api/library'])
    expect(
      api.some((l) => l.uri.startsWith(prefix)),
      prefix,
    ).toBe(true);
  expect(api.filter((l) => l.status >= 500)).toEqual([]);
});
