// The words for two states that said nothing (issue 31, item 7; decision 0095):
// - a model whose copy waits on Kiln's file store: a real bucket outage, a Kiln of its own for this
//   file started on S3 (s3rver on loopback) whose bucket is stopped, then started again; the
//   result, the gallery card and the viewer say the file store cannot be reached and that Kiln
//   tries again by itself (and when), then the words go by themselves;
// - a shared model hidden: the Hide (a card's and the selection's), the notice after it, the
//   Hidden view's card and the task's own page say it is still shared publicly, with Stop sharing….
import { type Page, type TestInfo } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3, type TestS3 } from '../src/testing/s3.ts';
import { spawnEntry, type Spawned } from '../src/testing/spawn-server.ts';
import {
  DEMO_KEY,
  expectAccessible,
  expectLinkGone,
  hiddenAfterEach,
  overflowing,
  pickModel,
  generate,
  shot,
  useKey,
} from './helpers.ts';

const auth = { authorization: `Bearer ${DEMO_KEY}` };
const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A shot at 1440 × 900 and at 390 × 844 (nothing past the right edge), then back to wide. */
async function shotsAtBothSizes(page: Page, info: TestInfo, name: string) {
  await page.setViewportSize(WIDE);
  await shot(page, info, `${name}-1440`);
  await page.setViewportSize(PHONE);
  // A viewer's canvas follows the window a frame or two later: asked until it has.
  await expect.poll(() => overflowing(page)).toEqual([]);
  await shot(page, info, `${name}-390`);
  await page.setViewportSize(WIDE);
}

test.describe('a bucket outage', () => {
  let s3: TestS3 | undefined;
  let kiln: Spawned | undefined;
  let dataDir: string | undefined;
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    s3 = await startS3('kiln-words');
    dataDir = mkdtempSync(join(tmpdir(), 'kiln-e2e-words-'));
    // Kiln as a team runs it, blobs in a bucket; the SPA is the one `npm start` built.
    kiln = await spawnEntry('src/server/main.ts', {
      ...s3.env,
      DATA_DIR: dataDir,
      MOCK_SPEED: 'fast',
      LOG_LEVEL: 'warn',
      MOCK_KEYS: `${DEMO_KEY}:1000`,
    });
  });
  test.afterAll(async () => {
    await kiln?.stop();
    await s3?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  test('says Kiln’s file store cannot be reached and that Kiln tries again by itself, then goes by itself', async ({
    page,
  }, info) => {
    test.setTimeout(180_000);
    const base = kiln!.url;
    await page.setViewportSize(WIDE);
    await useKey(page);
    await s3!.pause();
    let id: string;
    try {
      await page.goto(`${base}/`);
      await pickModel(page, 'beta-text');
      await page
        .getByRole('textbox', { name: 'Prompt' })
        .fill('a tin lantern while the bucket is away');
      const made = await generate(page);
      id = made.id;
      await expect(made.detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });

      // The library says why, in one field the SPA reads: the file store, not counted.
      const entry = (await (
        await page.request.get(`${base}/api/library/${id}`, { headers: auth })
      ).json()) as { archived: boolean; archive: Record<string, unknown> };
      expect(entry.archived).toBe(false);
      expect(entry.archive).toMatchObject({
        state: 'pending',
        attempts: 0,
        outage: 'file_store',
        error: expect.stringMatching(/file store could not be reached/),
        next_attempt_ms: expect.any(Number),
      });

      // The result says it where the model will be.
      const wait = made.detail.getByTestId('archive-wait');
      await expect(wait).toHaveAttribute('data-outage', 'file_store');
      await expect(wait).toContainText(
        'Kiln’s file store cannot be reached, so Kiln has not kept its copy of this model yet.',
      );
      await expect(wait).toContainText(/It tries again by itself (at .+|in a moment)\./);
      await expect(made.detail.getByRole('link', { name: 'Download GLB' })).toHaveCount(0);
      await expectAccessible(page);
      await shotsAtBothSizes(page, info, 'archive-outage-result');

      // The gallery card says the same.
      await page.goto(`${base}/gallery`);
      const card = page.locator(`.gallery-card[data-task-id="${id}"]`);
      await expect(card.getByRole('note')).toContainText('Kiln’s file store cannot be reached');
      await expect(card.getByRole('note')).toContainText('It tries again by itself');
      await expectAccessible(page);
      await shotsAtBothSizes(page, info, 'archive-outage-gallery');

      // The viewer's picker says why the model is not offered yet.
      await page.goto(`${base}/viewer`);
      const viewerNote = page.getByTestId('viewer-archive-wait');
      await expect(viewerNote).toContainText(
        '1 finished model is not here yet: Kiln’s file store cannot be reached',
      );
      await expect(viewerNote).toContainText('It appears here once kept.');
      await expectAccessible(page);
      await shotsAtBothSizes(page, info, 'archive-outage-viewer');
    } finally {
      await s3!.resume();
    }

    // The bucket is back: without a reload, the result shows the model and the words are gone.
    await page.goto(`${base}/tasks/${id}`);
    const detail = page.getByTestId('task-detail');
    await expect(detail.getByRole('link', { name: 'Download GLB' })).toBeVisible({
      timeout: 90_000,
    });
    await expect(detail.getByTestId('archive-wait')).toHaveCount(0);
    const kept = (await (
      await page.request.get(`${base}/api/library/${id}`, { headers: auth })
    ).json()) as { archived: boolean; archive: Record<string, unknown> };
    expect(kept).toMatchObject({ archived: true, archive: { state: 'archived', attempts: 1 } });
    expect(kept.archive.outage).toBeUndefined();
  });
});

test.describe('a shared model hidden', () => {
  const madeHere = hiddenAfterEach();

  /** A finished prompt model made through the API; shared when asked. Its id and its link. */
  async function model(page: Page, prompt: string, share: boolean) {
    const res = await page.request.post('/api/v1/3d/generations', {
      headers: auth,
      data: { model: 'beta-text', prompt, mode: 'sync' },
    });
    expect(res.status(), await res.text()).toBe(200);
    const { id } = (await res.json()) as { id: string };
    madeHere.push(id);
    await expect
      .poll(
        async () =>
          (
            (await (await page.request.get(`/api/library/${id}`, { headers: auth })).json()) as {
              archived: boolean;
            }
          ).archived,
        { timeout: 30_000 },
      )
      .toBe(true);
    if (!share) return { id, token: null };
    const link = await page.request.post(`/api/library/${id}/share`, { headers: auth });
    expect(link.status()).toBeLessThan(300);
    return { id, token: ((await link.json()) as { token: string }).token };
  }

  const linkStatus = async (page: Page, token: string) =>
    (await page.request.get(`/api/shares/${token}`)).status();

  test('a card’s Hide, the notice after it, the Hidden view and the task page say it is still shared, with Stop sharing…', async ({
    page,
  }, info) => {
    test.setTimeout(120_000);
    const word = `zw${Date.now().toString(36)}`;
    const lantern = await model(page, `${word} shared lantern`, true);
    await page.setViewportSize(WIDE);
    await useKey(page);
    await page.goto(`/gallery?q=${word}`);
    const card = page.locator(`.gallery-card[data-task-id="${lantern.id}"]`);
    await card.getByRole('button', { name: /^Hide / }).click();
    const asked = card.getByRole('group', { name: 'Hide this task?' });
    await expect(asked.getByTestId('still-shared')).toContainText(
      /It is shared publicly: hiding it leaves its public page.* up for anyone with the link\./,
    );
    await expect(asked.getByRole('button', { name: /^Stop sharing .*…$/ })).toBeVisible();
    await expectAccessible(page);
    await shotsAtBothSizes(page, info, 'hide-shared-asked');

    // Hidden: the notice says the page is still up, with Stop sharing… beside Undo.
    await asked.getByRole('button', { name: /^Yes, hide/ }).click();
    await expect(page.getByText('Task hidden.')).toBeVisible();
    const notice = page.locator('.gallery-undo');
    await expect(notice.getByTestId('still-shared')).toContainText(
      /Still shared publicly: its public page.* stays up for anyone with the link\./,
    );
    await expect(notice.getByRole('button', { name: 'Undo' })).toBeVisible();
    await expect(notice.getByRole('button', { name: 'Stop sharing…' })).toBeVisible();
    expect(await linkStatus(page, lantern.token!)).toBe(200);
    await shotsAtBothSizes(page, info, 'hide-shared-notice');

    // The task's own page, hidden: the same words.
    await page.goto(`/tasks/${lantern.id}`);
    const hiddenNote = page.locator('.hidden-note');
    await expect(hiddenNote).toContainText('This task is hidden from your gallery.');
    await expect(hiddenNote.getByTestId('still-shared')).toContainText('Still shared publicly');
    await expectAccessible(page);
    await shotsAtBothSizes(page, info, 'hidden-shared-task');

    // The Hidden view: the hidden card says it, and stops the link right there.
    await page.goto(`/gallery?q=${word}`);
    await page.getByRole('button', { name: 'Hidden', exact: true }).click();
    await expect(page).toHaveURL(/[?&]hidden=1/);
    const hiddenCard = page.locator(`.gallery-card[data-task-id="${lantern.id}"]`);
    await expect(hiddenCard).toContainText('Hidden from your gallery.');
    const still = hiddenCard.getByTestId('still-shared');
    await expect(still).toContainText(/Still shared publicly: its public page.* stays up/);
    await expect(hiddenCard.getByRole('button', { name: /^Unhide / })).toBeVisible();
    await expect(hiddenCard.getByRole('button', { name: /^Hide / })).toHaveCount(0);
    await expectAccessible(page);
    await shotsAtBothSizes(page, info, 'hidden-view-shared');
    await still.getByRole('button', { name: /^Stop sharing .*…$/ }).click();
    await expect(still.getByRole('button', { name: 'Keep sharing' })).toBeFocused();
    await expect(still).toContainText('Stop sharing? The link and every embed stop working');
    await shotsAtBothSizes(page, info, 'hidden-view-stop-asked');
    await still.getByRole('button', { name: 'Stop sharing', exact: true }).click();
    await expect(still).toHaveText('Sharing stopped: its link and embeds no longer work.');
    expect(await linkStatus(page, lantern.token!)).toBe(404);
    await page.goto(`/s/${lantern.token}`);
    await expectLinkGone(page);

    // Once stopped, a hidden card says only that it is hidden.
    await page.goto(`/gallery?q=${word}&hidden=1`);
    await expect(hiddenCard).toContainText('Hidden from your gallery.');
    await expect(hiddenCard.getByTestId('still-shared')).toHaveCount(0);
    // Unhide brings it back to the gallery.
    await hiddenCard.getByRole('button', { name: /^Unhide / }).click();
    await expect(page.getByText('Task shown in the gallery again.')).toBeVisible();
    await expect(hiddenCard).toHaveCount(0);
    await page.goto(`/gallery?q=${word}`);
    await expect(page.locator(`.gallery-card[data-task-id="${lantern.id}"]`)).toHaveCount(1);
  });

  test('the selection’s Hide names the shared ones first and after, and stops them from the notice', async ({
    page,
  }, info) => {
    test.setTimeout(120_000);
    const word = `zv${Date.now().toString(36)}`;
    const plain = await model(page, `${word} plain bowl`, false);
    const shared = await model(page, `${word} shared bowl`, true);
    await page.setViewportSize(WIDE);
    await useKey(page);
    await page.goto(`/gallery?q=${word}`);
    for (const id of [plain.id, shared.id])
      await page.locator(`.gallery-card[data-task-id="${id}"]`).getByRole('checkbox').click();
    const bar = page.getByRole('region', { name: 'Selected tasks' });
    await expect(bar).toContainText('2 selected');
    await expect(bar.getByTestId('still-shared')).toContainText(
      /1 of them is shared publicly: hiding leaves its public page.* up for anyone with the link\./,
    );
    await expectAccessible(page);
    await shotsAtBothSizes(page, info, 'hide-selection-shared');
    // On a phone, scrolled to the end, the taller bar covers no card.
    await page.setViewportSize(PHONE);
    await expect
      .poll(async () => {
        // Scrolled to the end again each time: the page reflows at the new width as pictures load.
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const barBox = await bar.boundingBox();
        const cardBox = await page.locator('.gallery-card').last().boundingBox();
        return barBox && cardBox ? barBox.y - (cardBox.y + cardBox.height) : -1;
      })
      .toBeGreaterThanOrEqual(0);
    await page.setViewportSize(WIDE);

    await bar.getByRole('button', { name: 'Hide 2' }).click();
    await expect(page.getByText('2 tasks hidden.')).toBeVisible();
    const notice = page.locator('.gallery-undo');
    const still = notice.getByTestId('still-shared');
    await expect(still).toContainText('1 of them is still shared publicly');
    await shotsAtBothSizes(page, info, 'hide-selection-notice');
    await still.getByRole('button', { name: 'Stop sharing…' }).click();
    await still.getByRole('button', { name: 'Stop sharing', exact: true }).click();
    await expect(still).toHaveText('Sharing stopped: its link and embeds no longer work.');
    expect(await linkStatus(page, shared.token!)).toBe(404);

    // In the Hidden view, the selection unhides instead.
    await page.goto(`/gallery?q=${word}&hidden=1`);
    await expect(page.locator('.gallery-card')).toHaveCount(2);
    await page.locator(`.gallery-card[data-task-id="${plain.id}"]`).getByRole('checkbox').click();
    const hiddenBar = page.getByRole('region', { name: 'Selected tasks' });
    await expect(hiddenBar.getByRole('button', { name: 'Hide 1', exact: true })).toHaveCount(0);
    await hiddenBar.getByRole('button', { name: 'Unhide 1' }).click();
    await expect(page.getByText('Task shown in the gallery again.')).toBeVisible();
    await expect(page.locator('.gallery-card')).toHaveCount(1);
  });
});
