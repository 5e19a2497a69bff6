// The turntable, in real Chromium against the real server: a model opened in /viewer, the dialog
// found by roles, a file made frame by frame off screen (WebCodecs + mediabunny, or gifenc), and
// the downloaded file read back in Node: container, codec, size, frame count, duration, alpha;
// a GIF's frames, delays and size. Swiftshader is slow: 3 s throughout, 720p but for one test
// of each other video size.
import { type Locator, type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { VIEWER_FIXTURES_DIR } from '../src/testing/fixtures.ts';
import { gifFacts, gifFrame, videoFacts } from '../src/testing/media.ts';
import { DEMO_KEY, finishedPromptModel, overflowing, shot, useKey } from './helpers.ts';

const viewerOf = (page: Page) => page.getByTestId('model-viewer').first();

/** /viewer with a fixture opened, drawn. */
async function openModel(page: Page, name = 'draco') {
  await page.goto('/viewer');
  const viewer = viewerOf(page);
  await viewer
    .getByTestId('viewer-file-input')
    .setInputFiles(join(VIEWER_FIXTURES_DIR, `${name}.glb`));
  await expect(viewer).toHaveAttribute('data-state', 'ready', { timeout: 45_000 });
  return viewer;
}

/** Save ▸ Turntable…: the dialog, once it knows what the browser encodes. */
async function openDialog(viewer: Locator) {
  await viewer.locator('details.model-viewer__menu summary').click();
  return openDialogFromOpenMenu(viewer);
}

async function openDialogFromOpenMenu(viewer: Locator) {
  const page = viewer.page();
  await viewer.getByRole('button', { name: 'Turntable…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Turntable' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Start' })).toBeEnabled({ timeout: 20_000 });
  return dialog;
}

interface Choice {
  format: RegExp;
  seconds?: string;
  size?: string;
  background?: string;
}

async function choose(
  dialog: Locator,
  { format, seconds = '3', size = '1280 × 720 (720p)', background = 'The stage, as seen' }: Choice,
) {
  await dialog.getByRole('radio', { name: format }).check();
  await dialog.getByRole('spinbutton', { name: /Length/ }).fill(seconds);
  await dialog.getByRole('radio', { name: size }).check();
  await dialog.getByRole('radio', { name: background }).check();
}

/** Start, wait for the download, and the file's bytes and name. */
async function make(dialog: Locator, during?: () => Promise<void>) {
  const page = dialog.page();
  const downloaded = page.waitForEvent('download', { timeout: 240_000 });
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Turntable progress' })).toBeVisible();
  if (during) await during();
  const download = await downloaded;
  await expect(dialog.getByRole('status')).toContainText(`Saved ${download.suggestedFilename()}`);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

/**
 * One frame of a video, decoded by the browser (a <video> seeked to `seconds`, drawn on a canvas),
 * as a PNG with its alpha.
 */
async function videoFrame(page: Page, bytes: Buffer, type: string, seconds: number) {
  const png = await page.evaluate(
    async ({ base64, type, seconds }) => {
      const data = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const video = document.createElement('video');
      video.muted = true;
      video.src = URL.createObjectURL(new Blob([data], { type }));
      await new Promise((resolve, reject) => {
        video.onloadeddata = resolve;
        video.onerror = () => reject(new Error('the browser could not play the file'));
      });
      video.currentTime = seconds;
      await new Promise((resolve) => (video.onseeked = resolve));
      const canvas = document.createElement('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      const context = canvas.getContext('2d', { willReadFrequently: true })!;
      // `seeked` can come before the frame is ready to draw (a busy machine): draw until the
      // canvas holds something, a state, checked each animation frame (at most ~10 s).
      const drawn = () => {
        context.clearRect(0, 0, canvas.width, canvas.height);
        context.drawImage(video, 0, 0);
        const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) return true;
        return false;
      };
      for (let tries = 0; tries < 600 && !drawn(); tries++)
        await new Promise((resolve) => requestAnimationFrame(resolve));
      URL.revokeObjectURL(video.src);
      return canvas.toDataURL('image/png').split(',')[1]!;
    },
    { base64: bytes.toString('base64'), type, seconds },
  );
  return Buffer.from(png, 'base64');
}

/** The colour of one pixel of a PNG. */
async function pixelAt(png: Buffer, x: number, y: number) {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (y * info.width + x) * 4;
  return [...data.subarray(i, i + 4)];
}

/** The frame shows a model: its pixels vary. */
async function expectModelOn(png: Buffer, what: string) {
  const { channels } = await sharp(png).stats();
  const spread = channels.slice(0, 3).reduce((s, c) => s + c.stdev, 0);
  expect(spread, `${what} has a model on it`).toBeGreaterThan(15);
}

/** Progress has passed `percent` (a state, not a time). */
async function progressPast(dialog: Locator, percent: number) {
  await expect
    .poll(
      async () =>
        Number(
          await dialog
            .getByRole('progressbar', { name: 'Turntable progress' })
            .getAttribute('aria-valuenow'),
        ),
      { timeout: 120_000 },
    )
    .toBeGreaterThan(percent);
}

test.describe('turntable', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('a 3 s 720p WebM of the stage: 90 frames, 3.0 s, the same again', async ({ page }, info) => {
    test.setTimeout(420_000);
    const viewer = await openModel(page);
    const dialog = await openDialog(viewer);
    await choose(dialog, { format: /^WebM video/ });
    const first = await make(dialog, async () => {
      await progressPast(dialog, 15);
      await shot(page, info, 'turntable-progress-1440', { fullPage: false });
    });
    expect(first.name).toBe('draco-turntable.webm');
    const facts = await videoFacts(first.bytes);
    expect(facts).toMatchObject({
      container: 'WebM',
      width: 1280,
      height: 720,
      frames: 90,
      alpha: false,
    });
    expect(facts.codec).toMatch(/^vp[89]$/);
    expect(Math.abs(facts.duration - 3)).toBeLessThanOrEqual(1 / 30 + 1e-6);
    writeFileSync(info.outputPath('turntable.webm'), first.bytes);
    const frame = await videoFrame(page, first.bytes, 'video/webm', 1.5);
    writeFileSync(info.outputPath('webm-frame-1.5s.png'), frame);
    await expectModelOn(frame, 'the WebM at 1.5 s');

    // The same settings, again: the same frames and length.
    const again = await make(dialog);
    const facts2 = await videoFacts(again.bytes);
    expect({ frames: facts2.frames, duration: facts2.duration }).toEqual({
      frames: facts.frames,
      duration: facts.duration,
    });
  });

  test('transparent where the codec keeps alpha, else a colour; MP4 says it has none', async ({
    page,
  }, info) => {
    test.setTimeout(420_000);
    const viewer = await openModel(page);
    const dialog = await openDialog(viewer);
    const mp4 = dialog.getByRole('radio', { name: /^MP4 video/ });
    const transparent = dialog.getByRole('radio', { name: /^Transparent/ });
    if (await mp4.isEnabled()) {
      await mp4.check();
      await expect(transparent).toBeDisabled();
      await expect(dialog.getByText('MP4 (H.264) has no transparency')).toBeVisible();
    } else {
      await expect(dialog.getByText(/does not encode H\.264/)).toBeVisible();
    }
    await dialog.getByRole('radio', { name: /^WebM video/ }).check();
    if (await transparent.isEnabled()) {
      await choose(dialog, { format: /^WebM video/, background: 'Transparent' });
      const file = await make(dialog);
      const facts = await videoFacts(file.bytes);
      expect(facts).toMatchObject({
        container: 'WebM',
        width: 1280,
        height: 720,
        frames: 90,
        alpha: true,
      });
      // Played back: clear at the corner, the model opaque in the middle.
      const frame = await videoFrame(page, file.bytes, 'video/webm', 1.5);
      writeFileSync(info.outputPath('webm-transparent-frame.png'), frame);
      expect((await pixelAt(frame, 8, 8))[3], 'the corner is clear').toBeLessThan(16);
      const { channels } = await sharp(frame).stats();
      expect(channels[3]!.max, 'the model is opaque').toBe(255);
      info.annotations.push({ type: 'transparent', description: 'made and played back' });
    } else {
      await expect(dialog.getByText(/with transparency/)).toBeVisible();
      info.annotations.push({ type: 'transparent', description: 'not offered by this browser' });
    }
    await choose(dialog, { format: /^WebM video/, background: 'A colour' });
    await dialog.getByLabel('Background colour').fill('#d94f30');
    const file = await make(dialog);
    expect(await videoFacts(file.bytes)).toMatchObject({
      frames: 90,
      width: 1280,
      height: 720,
      alpha: false,
    });
    // The colour as chosen (not tone-mapped), within what 4:2:0 video keeps.
    const frame = await videoFrame(page, file.bytes, 'video/webm', 1.5);
    writeFileSync(info.outputPath('webm-colour-frame.png'), frame);
    await expectModelOn(frame, 'the colour WebM');
    const [r, g, b] = await pixelAt(frame, 8, 8);
    for (const [got, want] of [
      [r, 0xd9],
      [g, 0x4f],
      [b, 0x30],
    ] as const)
      expect(Math.abs(got! - want)).toBeLessThan(12);
  });

  test('an MP4 where H.264 encodes', async ({ page }) => {
    test.setTimeout(300_000);
    const viewer = await openModel(page);
    const dialog = await openDialog(viewer);
    const mp4 = dialog.getByRole('radio', { name: /^MP4 video/ });
    test.skip(!(await mp4.isEnabled()), 'this Chromium does not encode H.264');
    await choose(dialog, { format: /^MP4 video/ });
    const file = await make(dialog);
    expect(file.name).toBe('draco-turntable.mp4');
    const facts = await videoFacts(file.bytes);
    expect(facts).toMatchObject({
      container: 'MP4',
      codec: 'avc',
      width: 1280,
      height: 720,
      frames: 90,
    });
    expect(Math.abs(facts.duration - 3)).toBeLessThanOrEqual(1 / 30 + 1e-6);
  });

  test('cancel: no download, the dialog says so', async ({ page }) => {
    test.setTimeout(240_000);
    const viewer = await openModel(page);
    const dialog = await openDialog(viewer);
    await choose(dialog, { format: /^WebM video/ });
    const downloads: string[] = [];
    page.on('download', (d) => downloads.push(d.suggestedFilename()));
    await dialog.getByRole('button', { name: 'Start' }).click();
    await progressPast(dialog, 5);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Cancelled: nothing was saved.');
    await expect(dialog.getByRole('progressbar')).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: 'Start' })).toBeFocused();
    expect(downloads).toEqual([]);
    // The viewer still works behind it.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toBeHidden();
    await expect(viewer).toHaveAttribute('data-state', 'ready');
  });

  test('a bad length is said at the field', async ({ page }) => {
    const viewer = await openModel(page);
    const dialog = await openDialog(viewer);
    const length = dialog.getByRole('spinbutton', { name: /Length/ });
    for (const [text, message] of [
      ['2', 'The length must be from 3 to 20 seconds.'],
      ['21', 'The length must be from 3 to 20 seconds.'],
      ['', 'Enter a length in seconds, from 3 to 20.'],
    ] as const) {
      await length.fill(text);
      await dialog.getByRole('button', { name: 'Start' }).click();
      await expect(length).toHaveAttribute('aria-invalid', 'true');
      await expect(length).toHaveAccessibleDescription(message);
      await expect(length).toBeFocused();
      await expect(dialog.getByRole('progressbar')).toHaveCount(0);
    }
  });

  test('a GIF for chat: under 5 MB, 45 frames at 15 fps, 480 × 270, the model on it', async ({
    page,
  }, info) => {
    test.setTimeout(300_000);
    const viewer = await openModel(page);
    const dialog = await openDialog(viewer);
    await choose(dialog, { format: /^Animated GIF/ });
    const file = await make(dialog);
    expect(file.name).toBe('draco-turntable.gif');
    expect(file.bytes.byteLength).toBeLessThan(5_000_000);
    const facts = await gifFacts(file.bytes);
    expect(facts).toMatchObject({ format: 'gif', width: 480, height: 270, frames: 45, loop: 0 });
    // 15 fps in hundredths: 70, 60, 70 ms…, exactly 3 s in all.
    expect(facts.delays.slice(0, 3)).toEqual([70, 60, 70]);
    expect(facts.delays.reduce((a, b) => a + b, 0)).toBe(3000);
    // The first and a middle frame show the model (not a flat backdrop), from different sides.
    for (const index of [0, 22]) {
      const png = await gifFrame(file.bytes, index);
      writeFileSync(info.outputPath(`gif-frame-${index}.png`), png);
      const { channels } = await sharp(png).stats();
      const spread = channels.slice(0, 3).reduce((s, c) => s + c.stdev, 0);
      expect(spread, `frame ${index} has a model on it`).toBeGreaterThan(15);
    }
    const [a, b] = await Promise.all(
      [0, 22].map(async (i) =>
        sharp(await gifFrame(file.bytes, i))
          .raw()
          .toBuffer(),
      ),
    );
    let differ = 0;
    for (let i = 0; i < a!.length; i++) if (Math.abs(a![i]! - b![i]!) > 24) differ++;
    expect(differ / a!.length, 'the model turned').toBeGreaterThan(0.01);
  });
});

test.describe('turntable, square', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('a square GIF is 480 × 480, in its dark stage', async ({ page }, info) => {
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme: 'dark' });
    const viewer = await openModel(page, 'meshopt');
    const dialog = await openDialog(viewer);
    await choose(dialog, { format: /^Animated GIF/, size: '1080 × 1080 (square)' });
    const file = await make(dialog);
    const facts = await gifFacts(file.bytes);
    expect(facts).toMatchObject({ width: 480, height: 480, frames: 45, loop: 0 });
    const png = await gifFrame(file.bytes, 0);
    writeFileSync(info.outputPath('gif-square-dark.png'), png);
    await expectModelOn(png, 'the square GIF');
    // The stage as seen in dark mode: a dark corner.
    const [r, g, b] = await pixelAt(png, 2, 2);
    expect(r! + g! + b!).toBeLessThan(3 * 90);
  });
});

test.describe('turntable, every video size', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  for (const [size, width, height] of [
    ['1080 × 1080 (square)', 1080, 1080],
    ['1920 × 1080 (1080p)', 1920, 1080],
  ] as const)
    test(`a 3 s WebM at ${size}: ${width} × ${height}, 90 frames, 3.0 s`, async ({
      page,
    }, info) => {
      test.setTimeout(420_000);
      const viewer = await openModel(page);
      const dialog = await openDialog(viewer);
      await choose(dialog, { format: /^WebM video/, size });
      const file = await make(dialog);
      const facts = await videoFacts(file.bytes);
      expect(facts).toMatchObject({ container: 'WebM', width, height, frames: 90 });
      expect(Math.abs(facts.duration - 3)).toBeLessThanOrEqual(1 / 30 + 1e-6);
      const frame = await videoFrame(page, file.bytes, 'video/webm', 0.5);
      writeFileSync(info.outputPath(`webm-${width}x${height}.png`), frame);
      await expectModelOn(frame, `the ${size} WebM`);
    });
});

test.describe('turntable of an animated model', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the clip advances with the frames, not the clock: the same GIF twice, byte for byte', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const viewer = await openModel(page, 'animated');
    const dialog = await openDialog(viewer);
    await choose(dialog, { format: /^Animated GIF/ });
    const first = await make(dialog);
    const again = await make(dialog);
    expect((await gifFacts(first.bytes)).frames).toBe(45);
    expect(Buffer.compare(first.bytes, again.bytes), 'the same bytes').toBe(0);
  });
});

test.describe('turntable on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the dialog fits at 390 × 844, mid-progress', async ({ page }, info) => {
    test.setTimeout(240_000);
    const viewer = await openModel(page);
    const dialog = await openDialog(viewer);
    await shot(page, info, 'turntable-dialog-390', { fullPage: false });
    await choose(dialog, { format: /^Animated GIF/ });
    await dialog.getByRole('button', { name: 'Start' }).click();
    await progressPast(dialog, 20);
    await shot(page, info, 'turntable-progress-390', { fullPage: false });
    expect(await overflowing(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Cancelled: nothing was saved.');
  });
});

test("offered on the result and to the share page's owner, not to its visitors", async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await useKey(page);
  const { id, detail } = await finishedPromptModel(page, 'a small blue teapot');
  const result = detail.getByTestId('model-viewer');
  await expect(result).toHaveAttribute('data-state', 'ready', { timeout: 45_000 });
  await result.locator('details.model-viewer__menu summary').click();
  await expect(result.getByRole('button', { name: 'Turntable…' })).toBeVisible();

  const made = await page.request.post(`/api/library/${id}/share`, {
    headers: { authorization: `Bearer ${DEMO_KEY}` },
  });
  const { url } = (await made.json()) as { url: string };

  // The owner, with their key in this browser.
  await page.goto(url);
  const owned = page.getByTestId('model-viewer');
  await expect(owned).toHaveAttribute('data-state', 'ready', { timeout: 45_000 });
  await owned.locator('details.model-viewer__menu summary').click();
  await expect(owned.getByRole('button', { name: 'Turntable…' })).toBeVisible();
  const dialog = await openDialogFromOpenMenu(owned);
  await expect(dialog.getByRole('radio', { name: /^Animated GIF/ })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Close' }).click();

  // A visitor: the Save menu without it.
  const visitor = await browser.newContext();
  const guest = await visitor.newPage();
  await guest.goto(url);
  const shown = guest.getByTestId('model-viewer');
  await expect(shown).toHaveAttribute('data-state', 'ready', { timeout: 45_000 });
  await shown.locator('details.model-viewer__menu summary').click();
  await expect(shown.getByRole('button', { name: 'Screenshot (PNG)…' })).toBeVisible();
  await expect(shown.getByRole('button', { name: 'Turntable…' })).toHaveCount(0);
  await visitor.close();
});
