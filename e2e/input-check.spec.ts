// What Kiln will model, shown before anything is charged (issue 32, items 1, 2 and 4):
// - a photo's cut-out on the form as soon as it is added: the photo with the backdrop darkened
//   and what stood out but is left out (a disc behind the object) in red, said in words;
// - a surface Kiln cannot tell from the object is said before paying ("Generate anyway");
// - a one-colour photo is refused on the form: no create is sent and nothing is charged;
// - views that show different objects are warned of before paying, and said after the fact on
//   the model's page; views of one object are not.
import { writeFile } from 'node:fs/promises';
import { type Page, type TestInfo } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import sharp from 'sharp';
import { syntheticViews } from '../src/generator/views/synthetic-views.ts';
import { inScene } from '../src/testing/backdrops.ts';
import {
  expectAccessible,
  mockLedgerBalance,
  overflowing,
  photo,
  pickModel,
  shot,
  useKey,
} from './helpers.ts';
import { readFile } from 'node:fs/promises';

const WIDE = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A picture written to the test's output folder, for the file picker. */
async function file(info: TestInfo, name: string, bytes: Uint8Array | Buffer): Promise<string> {
  const path = info.outputPath(name);
  await writeFile(path, bytes);
  return path;
}

async function scene(info: TestInfo, subject: string, where: 'disc-behind' | 'panel-behind') {
  const bytes = await inScene(new Uint8Array(await readFile(photo(`${subject}.png`))), where);
  return file(info, `${subject}-on-${where}.png`, bytes);
}

/** Looks at both sizes: screenshots, no sideways scroll, axe clean. */
async function bothSizes(page: Page, info: TestInfo, name: string) {
  await page.setViewportSize(WIDE);
  await expectAccessible(page);
  await shot(page, info, `${name}-1440`);
  await page.setViewportSize(PHONE);
  // A live canvas takes a frame or two to follow the new size.
  await expect.poll(() => overflowing(page), { timeout: 15_000 }).toEqual([]);
  await shot(page, info, `${name}-390`);
  await page.setViewportSize(WIDE);
}

test('a photo’s cut-out shows on the form before paying; a one-colour photo is refused there', async ({
  page,
}, info) => {
  test.setTimeout(240_000);
  const creates: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/v1/3d/generations')) creates.push(r.url());
  });
  await useKey(page);
  await page.setViewportSize(WIDE);
  await page.goto('/');
  await pickModel(page, 'alpha');
  const before = mockLedgerBalance();

  // A chair in front of a brown disc: the disc is left out, in red, and said.
  await page
    .getByTestId('file-input')
    .first()
    .setInputFiles(await scene(info, 'chair', 'disc-behind'));
  const figure = page.getByTestId('cutout-figure');
  await expect(figure).toHaveAttribute('data-cutout', 'shown', { timeout: 30_000 });
  await expect(page.getByTestId('cutout-words')).toContainText(
    'Kiln will model the part left clear; the darkened backdrop is left out, and so is what is shown in red: the plain surface behind it.',
  );
  await expect(page.getByTestId('cutout-key').first()).toHaveText(/kept\s+backdrop\s+left out/);
  // The cut-out lies exactly over the photo.
  const [under, over] = await Promise.all([
    figure.locator('img').first().boundingBox(),
    figure.locator('img.cutout-overlay').boundingBox(),
  ]);
  expect(over).toEqual(under);
  await expect(page.getByRole('button', { name: 'Generate', exact: true })).toBeEnabled();
  await bothSizes(page, info, 'cutout-disc');

  // A horse on a disc of its own colour: Kiln cannot separate it cleanly, and says so first.
  await page.getByRole('button', { name: 'Remove' }).click();
  await page
    .getByTestId('file-input')
    .first()
    .setInputFiles(await scene(info, 'horse', 'disc-behind'));
  await expect(page.getByTestId('cutout-warning')).toHaveText(
    /^Kiln cannot separate this object cleanly: .* choose a photo on a plainer backdrop\.$/,
    { timeout: 30_000 },
  );
  await expect(page.getByRole('button', { name: 'Generate anyway' })).toBeEnabled();
  await bothSizes(page, info, 'cutout-suspect');

  // One plain colour: refused on the form, nothing sent, nothing charged.
  await page.getByRole('button', { name: 'Remove' }).click();
  const blank = await file(
    info,
    'blank.png',
    await sharp({ create: { width: 256, height: 256, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer(),
  );
  await page.getByTestId('file-input').first().setInputFiles(blank);
  await expect(page.getByTestId('cutout-refused')).toHaveText(
    'Cannot be modelled: The image shows no object: it is one plain colour. Choose another photo; nothing is charged.',
    { timeout: 30_000 },
  );
  await expect(page.getByText('Ready')).toHaveCount(0);
  await page.getByRole('button', { name: 'Generate', exact: true }).click();
  await expect(
    page.getByText('This photo cannot be modelled: choose another photo. Nothing was charged.'),
  ).toBeVisible();
  await bothSizes(page, info, 'cutout-refused');
  expect(creates).toEqual([]);
  expect(mockLedgerBalance()).toBe(before);
});

test('views of different objects are warned of before paying and said after; views of one object are not', async ({
  page,
}, info) => {
  test.setTimeout(240_000);
  await useKey(page);
  await page.setViewportSize(WIDE);
  await page.goto('/');
  await pickModel(page, 'alpha-multiview');

  // Four sides of one chair: each cut out, no warning.
  const chair = await syntheticViews('chair', 384, { background: '#d8d8d8' });
  const sides = await Promise.all(chair.map((b, i) => file(info, `chair-side-${i + 1}.png`, b)));
  await page.getByTestId('file-input').first().setInputFiles(sides);
  await expect(page.getByText('Ready')).toHaveCount(4, { timeout: 30_000 });
  await expect(page.locator('[data-testid="cutout-figure"][data-cutout="shown"]')).toHaveCount(4, {
    timeout: 30_000,
  });
  await expect(page.getByRole('button', { name: 'Generate', exact: true })).toBeEnabled({
    timeout: 30_000,
  });
  await expect(page.getByTestId('views-warning')).toHaveCount(0);
  await bothSizes(page, info, 'views-one-object');
  for (let i = 4; i >= 1; i--) await page.getByRole('button', { name: `Remove view ${i}` }).click();

  // A horse, a robot and a flamingo "as views of one object": warned of before paying.
  await page
    .getByTestId('file-input')
    .first()
    .setInputFiles([photo('horse.png'), photo('robot.png'), photo('flamingo.png')]);
  const warning = page.getByTestId('views-warning');
  await expect(warning).toHaveText(
    /^These may not be views of one object: the back \(image 3\) does not mirror the outline of the front \(image 1\).*Kiln would carve them into one model that is none of them\.$/,
    { timeout: 30_000 },
  );
  const anyway = page.getByRole('button', { name: 'Generate anyway' });
  await expect(anyway).toBeEnabled();
  await bothSizes(page, info, 'views-disagree');

  // Made anyway: the model's page says the views did not show one object.
  const created = page.waitForResponse(
    (r) => r.url().endsWith('/api/v1/3d/generations') && r.request().method() === 'POST' && r.ok(),
  );
  await anyway.click();
  const { id } = (await (await created).json()) as { id: string };
  const detail = page.locator(`[data-testid="task-detail"][data-task-id="${id}"]`);
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 60_000 });
  await page.goto(`/tasks/${id}`);
  await expect(page.getByTestId('views-warning')).toHaveText(
    /^The views did not show one object \(the back \(image 3\) does not mirror the outline of the front \(image 1\).*\), so this model mixes them\.$/,
  );
  await bothSizes(page, info, 'views-disagreed-after');
});
