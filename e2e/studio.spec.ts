import { expect, test } from './fixtures.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import sharp from 'sharp';
import type { Page, TestInfo } from '@playwright/test';
import {
  DEMO_KEY,
  balanceOf,
  mockLedgerBalance,
  downloadGlb,
  expectAccessible,
  expectRenderedModel,
  generate,
  keptPromptModel,
  libraryCount,
  overflowing,
  photo,
  pickModel,
  shot,
  useKey,
} from './helpers.ts';

test('first run: the key screen explains, checks the prefix, and offers the demo key', async ({
  page,
}, info) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Connect your API key' })).toBeVisible();
  await expect(page.getByText('Demo upstream').first()).toBeVisible();
  // Pressed with nothing in the field: it asks for the key, at the field.
  await page.getByRole('button', { name: 'Use this key' }).click();
  await expect(page.getByText('Paste your API key.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'API key' })).toBeFocused();
  await page.getByText('Where do I get a key?').click();
  await expect(page.getByText('API keys', { exact: false }).first()).toBeVisible();
  await page.getByRole('textbox', { name: 'API key' }).fill('sk_live_123');
  await expect(page.getByText('API keys start with tr_')).toBeVisible();
  // A well-formed key the API does not know is refused here, at the field, before any Generate.
  await page.getByRole('textbox', { name: 'API key' }).fill('tr_not_a_real_key_42');
  await page.getByRole('button', { name: 'Use this key' }).click();
  const refused = page.getByText(/^This key was refused: /);
  await expect(refused).toBeVisible();
  // What to check is said once (the upstream's own words already say it here).
  expect((await refused.textContent())?.match(/\bcheck\b/gi)).toHaveLength(1);
  await expect(page.getByRole('textbox', { name: 'API key' })).toBeFocused();
  await expect(page.getByRole('textbox', { name: 'API key' })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  expect(await page.evaluate(() => localStorage.getItem('kiln.apiKey'))).toBeNull();
  await shot(page, info, 'key-screen-refused');
  await page.getByRole('textbox', { name: 'API key' }).fill('sk_live_123');
  await shot(page, info, 'key-screen');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Use the demo key' }).click();
  await expect(page.getByRole('heading', { name: 'New model' })).toBeVisible();
  // Focus follows the artist into the studio instead of falling to the page.
  await expect(page.getByRole('heading', { name: 'New model' })).toBeFocused();
  await expect(page.getByText('tr_demo…kiln')).toBeVisible();
});

test('single image: upload a photo, watch the stages, view and download the model', async ({
  page,
}, info) => {
  await useKey(page);
  // Every tab title the page shows (a fast task may finish before a check could look).
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { kilnTitles: string[] }).kilnTitles = seen;
    setInterval(() => {
      if (seen.at(-1) !== document.title) seen.push(document.title);
    }, 20);
  });
  await page.goto('/');
  await pickModel(page, 'alpha');
  await page.getByTestId('file-input').first().setInputFiles(photo('chair.png'));
  await expect(page.getByText('Ready')).toBeVisible();
  await shot(page, info, 'form');
  await expectAccessible(page);
  const { id, detail } = await generate(page);
  await expect(detail.getByRole('progressbar').first()).toBeVisible();
  // Focus moves to the new task.
  await expect(detail.getByRole('heading').first()).toBeFocused();
  await shot(page, info, 'progress');
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  // While it ran, the tab title carried its progress.
  const titles = await page.evaluate(
    () => (window as unknown as { kilnTitles: string[] }).kilnTitles,
  );
  expect(
    titles.some((t) => /^\d+% · Kiln$/.test(t)),
    titles.join(' | '),
  ).toBe(true);
  await expectRenderedModel(detail.getByTestId('model-viewer'));
  await shot(page, info, 'result');
  // Shown once, the model's picture is kept for the gallery: a 480 × 360 WebP of the model on a
  // transparent background (some pixels opaque and varied, the corners clear).
  let thumbnail = '';
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/library/${id}`, {
        headers: { authorization: `Bearer ${DEMO_KEY}` },
      });
      return (thumbnail = ((await res.json()) as { thumbnail_url?: string }).thumbnail_url ?? '');
    })
    .toMatch(/^\/api\/assets\/[a-f0-9]{64}\.webp\?exp=\d+&sig=[\w-]{43}$/);
  const picture = Buffer.from(await (await page.request.get(thumbnail)).body());
  writeFileSync(info.outputPath('model-thumbnail.webp'), picture);
  const { data, info: size } = await sharp(picture)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  expect([size.width, size.height]).toEqual([480, 360]);
  let opaque = 0;
  const greys = new Set<number>();
  for (let i = 0; i < data.length; i += 4)
    if (data[i + 3]! > 200) {
      opaque++;
      greys.add((data[i]! + data[i + 1]! + data[i + 2]!) >> 4);
    }
  expect(opaque / (480 * 360)).toBeGreaterThan(0.05);
  expect(greys.size).toBeGreaterThan(8);
  expect(data[3]).toBe(0); // the top-left corner: no background drawn
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: info.outputPath('readme.png') });
  await expectAccessible(page);
  const { name } = await downloadGlb(page);
  expect(name).toMatch(/^kiln-alpha-chair-\d{4}-\d{2}-\d{2}-[a-z0-9]{6}\.glb$/);
  await expect(page.getByTestId('credits-remaining')).not.toHaveText('—');

  // The next step: the same photo through another model, the form filled in, nothing sent yet.
  await detail.getByRole('button', { name: 'Same input, another model' }).click();
  await expect(page.locator('input[name="model"][value="beta"]')).toBeChecked();
  await expect(page.getByText('chair.png').first()).toBeVisible();
  await expect(page.getByText('Ready')).toBeVisible();
  await shot(page, info, 'same-input-another-model');
});

test('multi-view: the 2–4 rule is shown and enforced, then two views generate', async ({
  page,
}, info) => {
  await useKey(page);
  await page.goto('/');
  await pickModel(page, 'alpha-multiview');
  await page
    .getByTestId('file-input')
    .first()
    .setInputFiles([photo('robot.png')]);
  await expect(page.getByText('1 of 2–4 views')).toBeVisible();
  // Which side each photo is, said before and while they are added, with a diagram.
  await expect(
    page.getByRole('img', {
      name: /Seen from above: photo 1 from the front, 2 from the right side/,
    }),
  ).toBeVisible();
  await expect(page.getByText('1 · Front')).toBeVisible();
  await expect(page.getByText('Add view 2: the right side')).toBeVisible();
  await page.getByRole('button', { name: 'Generate' }).click();
  const countError = page.getByText('Add 2 to 4 views of the object. There is 1 now.');
  await expect(countError).toBeVisible();

  // Five photos: only four fit.
  await page
    .getByTestId('file-input')
    .first()
    .setInputFiles([
      photo('horse.png'),
      photo('chair.png'),
      photo('teapot.png'),
      photo('flamingo.png'),
    ]);
  await expect(page.getByText(/Only 4 views fit; 1 was left out/)).toBeVisible();
  await expect(page.getByText('4 of 2–4 views')).toBeVisible();
  // The guidance stays once all four are in, and each slot names its side.
  await expect(page.getByText(/Walk around the object to your right/)).toBeVisible();
  for (const side of ['1 · Front', '2 · Right side', '3 · Back', '4 · Left side'])
    await expect(page.getByText(side, { exact: true })).toBeVisible();
  await shot(page, info, 'multiview-sides');
  // The error about one view went when the views changed; the API's field names never show.
  await expect(countError).toHaveCount(0);
  await expect(page.getByText(/image_urls/)).toHaveCount(0);
  // Remove two, reorder: the robot goes second.
  await page.getByRole('button', { name: 'Remove view 4' }).click();
  await page.getByRole('button', { name: 'Remove view 3' }).click();
  await page.getByRole('button', { name: 'Move view 1 later' }).click();
  await expect(page.getByRole('img', { name: /View 2, right: robot\.png/ })).toBeVisible();
  await expect(page.getByText('Ready')).toHaveCount(2);
  const { detail } = await generate(page);
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expectRenderedModel(detail.getByTestId('model-viewer'));
  await downloadGlb(page);
});

test('text: a live counter, a 2001-character prompt refused, then a prompt generates in sync mode', async ({
  page,
}) => {
  await useKey(page);
  await page.goto('/');
  await pickModel(page, 'beta-text');
  const prompt = page.getByRole('textbox', { name: 'Prompt' });
  await prompt.fill('x'.repeat(2001));
  await expect(page.getByText('2,001 / 2,000')).toBeVisible();
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(page.getByText(/Prompt must be at most 2000 characters/)).toBeVisible();
  await prompt.fill('a small red ceramic vase');
  await page.getByLabel(/Wait for the result/).check();
  // While the sync request is open, the new task shows at once with its clock, focused.
  const { detail } = await generate(page, async (button) => {
    await button.click();
    const waiting = page.getByTestId('sync-wait');
    await expect(waiting).toBeVisible();
    await expect(
      waiting.getByRole('heading', { name: /beta-text · “a small red ceramic vase”/ }),
    ).toBeFocused();
    await expect(waiting.getByText('Waiting for the result')).toBeVisible();
  });
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expectRenderedModel(detail.getByTestId('model-viewer'));
  await downloadGlb(page);
});

test('text: before Generate, the studio says whether the demo generator knows the object, and offers ones it does', async ({
  page,
}, info) => {
  await useKey(page);
  await page.goto('/');
  await pickModel(page, 'beta-text');
  const prompt = page.getByRole('textbox', { name: 'Prompt' });
  const said = page.getByTestId('prompt-check');
  // An object the demo generator has no model of: said plainly, with examples that work.
  await prompt.fill('a time machine');
  await expect(said).toHaveText(
    'Not a known object: the demo generator will make an abstract form.',
  );
  const examples = page.getByRole('button', { name: 'a ceramic teapot' });
  await expect(examples).toBeVisible();
  await expect(prompt).toHaveAttribute(
    'aria-describedby',
    new RegExp(`${await said.getAttribute('id')}`),
  );
  // Once the verdict on this text is in, Generate goes ahead (it waits only for the check).
  await expect(page.getByRole('button', { name: 'Generate' })).toBeEnabled();
  await shot(page, info, 'prompt-unknown');
  await expectAccessible(page);
  // An example fills the prompt, and the studio says what it will make.
  await page.getByRole('button', { name: 'a red robot with wheels' }).click();
  await expect(prompt).toHaveValue('a red robot with wheels');
  await expect(prompt).toBeFocused();
  await expect(said).toHaveText('Known object: red robot, with wheels.');
  await expect(page.getByRole('button', { name: 'a ceramic teapot' })).toHaveCount(0);
  // A known object typed in: said quietly, no examples.
  await prompt.fill('a green dragon');
  await expect(said).toHaveText('Known object: green dragon.');
  await shot(page, info, 'prompt-known');
  // Cleared: nothing is said.
  await prompt.fill('');
  await expect(said).toHaveText('');
  // At 390 px the note and its examples fit.
  await page.setViewportSize({ width: 390, height: 844 });
  await prompt.fill('an ancient melody');
  await expect(said).toHaveText(/Not a known object/);
  expect(await overflowing(page), 'nothing sticks out at 390 px').toEqual([]);
  await shot(page, info, 'prompt-unknown-390');
  // Generate still makes it: an abstract form, through the spec's ordinary task, and the
  // finished result says so.
  const { detail } = await generate(page);
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(detail.getByTestId('prompt-verdict')).toHaveText(
    /Not a known object: the demo generator made an abstract form/,
  );
  // A known object made from a nearby model says which, before and after.
  await page.setViewportSize({ width: 1280, height: 900 });
  await prompt.fill('a red fire truck');
  await expect(said).toHaveText(/^Approximate: .* a red car, the closest it has\.$/);
  const truck = await generate(page);
  await expect(truck.detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(truck.detail.getByTestId('prompt-verdict')).toHaveText(/it made a red car/);
  await shot(page, info, 'prompt-approximate-result');
  // The gallery card says it too.
  await page.goto('/gallery');
  const card = page.locator(`[data-task-id="${truck.id}"]`);
  await expect(card.getByTestId('prompt-verdict')).toHaveText(/Approximate/);
});

test('a pasted image address is fetched once by Kiln, previewed from Kiln, and shown in Recent tasks', async ({
  page,
}, info) => {
  await useKey(page);
  // An image address on Kiln's own site (as an artist copies one from the gallery).
  const up = await page.request.post('/api/uploads', {
    multipart: {
      file: { name: 'horse.png', mimeType: 'image/png', buffer: readFileSync(photo('horse.png')) },
    },
  });
  expect(up.ok()).toBe(true);
  const { url } = (await up.json()) as { url: string };
  const asked: string[] = [];
  page.on('request', (r) => asked.push(r.url()));
  await page.goto('/');
  await pickModel(page, 'alpha');
  await page.getByLabel('…or paste an image URL').fill(url);
  await page.getByRole('button', { name: 'Use URL' }).click();
  await expect(page.getByText('Ready')).toBeVisible();
  const preview = page.getByRole('img', { name: /^Preview of / });
  await expect(preview).toBeVisible();
  // The preview comes from Kiln's uploads (the page's CSP allows nothing else), and it loaded.
  expect(await preview.getAttribute('src')).toMatch(/^\/api\/uploads\/[a-f0-9]{64}\.png$/);
  expect(await preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  expect(asked.filter((u) => u.endsWith('/api/uploads/from-url'))).toHaveLength(1);
  const { id, detail } = await generate(page);
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  // In Recent tasks the task shows a picture, not the prompt mark.
  const card = page.locator('.task-card').filter({ has: page.locator(`[aria-pressed="true"]`) });
  const thumb = card.locator('img.task-thumb');
  await expect(thumb).toBeVisible();
  expect(await thumb.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(card.locator('.text-thumb')).toHaveCount(0);
  // Named by the name it was first uploaded with, not by the hash in its address.
  await expect(detail.getByRole('heading').first()).toHaveText('alpha · horse.png');
  await shot(page, info, 'pasted-address');
  expect(id).toMatch(/^task_/);
});

test('a failed task shows the refund, and the balance returns to where it was', async ({
  page,
}, info) => {
  await useKey(page);
  const before = await balanceOf(page);
  const creates: string[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/v1/3d/generations') && r.method() === 'POST') creates.push(r.url());
  });
  await page.goto('/');
  await pickModel(page, 'gamma');
  // An address Kiln will not fetch is refused at the field: it never costs a create.
  await page.getByLabel('…or paste an image URL').fill('http://127.0.0.1:9/unreachable.png');
  await page.getByRole('button', { name: 'Use URL' }).click();
  await expect(
    page.getByText(/Kiln fetches images only from public http\(s\) addresses/),
  ).toBeVisible();
  expect(creates).toEqual([]);
  await page.getByRole('button', { name: 'Remove' }).click();

  // A photo with nothing in it, when the form's check cannot be had (as with a real upstream,
  // which has no such check; e2e/input-check.spec.ts shows the form refusing it in mock mode): the
  // generator refuses it and the credits come back.
  await page.route('**/api/v1/mock/cutout?**', (route) => route.abort());
  const blank = info.outputPath('blank.png');
  await sharp({ create: { width: 256, height: 256, channels: 3, background: '#ffffff' } })
    .png()
    .toFile(blank);
  await page.getByTestId('file-input').first().setInputFiles(blank);
  await expect(page.getByText('Ready')).toBeVisible();
  const { detail, id } = await generate(page);
  await expect(detail).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
  await expect(detail.getByText('30 credits refunded')).toBeVisible();
  const reason = (await detail.locator('.failure p').first().textContent()) ?? '';
  expect(reason).not.toMatch(/image_url/);
  expect(await balanceOf(page)).toBe(before);
  // Its clock stopped when it failed.
  const head = detail.locator('.stepper-head');
  const said = await head.textContent();
  await page.waitForTimeout(2200);
  expect(await head.textContent()).toBe(said);
  // Its own page reads well to a screen reader (headings in order, axe clean), is styled, shows
  // the photo it was given, and at 1440 px every stage's name fits its column.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/tasks/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 2, name: 'The generation failed' }),
  ).toBeVisible();
  await expectAccessible(page);
  await expectAccessible(page, ['heading-order']);
  await expect(page.getByRole('img', { name: 'Input photo 1: blank.png' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('gamma · blank.png');
  const steps = page.locator('.steps');
  await expect(steps).toHaveCSS('display', 'grid');
  await expect(page.locator('.stepper-head strong')).toHaveText(
    /^Failed while (initializing|downloading images|generating 3D mesh|processing mesh)$/,
  );
  const clipped = await page.locator('.step').evaluateAll((els) =>
    els
      .filter((el) => {
        const label = el.querySelector('.step-label')!.getBoundingClientRect();
        const box = el.getBoundingClientRect();
        return label.left < box.left - 0.5 || label.right > box.right + 0.5;
      })
      .map((el) => el.textContent),
  );
  expect(clipped, 'stage names inside their columns').toEqual([]);
  await shot(page, info, 'failed-task-page');
  await page.setViewportSize({ width: 1280, height: 720 });
  // The photo was at fault: trying again opens the form with it loaded and the photo marked,
  // instead of sending the same photo to fail the same way.
  await page.getByRole('button', { name: 'Edit and try again' }).click();
  await expect(page.getByRole('heading', { name: 'New model' })).toBeVisible();
  await expect(page.locator('input[name="model"][value="gamma"]')).toBeChecked();
  await expect(page.locator('.generate-form').getByText('blank.png')).toBeVisible();
  await expect(page.locator('.generate-form').getByText(reason.trim())).toBeVisible();
  await shot(page, info, 'edit-and-try-again');
  expect(creates).toHaveLength(1);

  // A failure that is not the input's (the generator broke): Try again sends it again.
  await pickModel(page, 'beta-text');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a lamp mock:fail');
  const broken = await generate(page);
  await expect(broken.detail).toHaveAttribute('data-status', 'failed', { timeout: 30_000 });
  await expect(broken.detail.getByText('10 credits refunded')).toBeVisible();
  await expect(broken.detail.getByRole('button', { name: 'Try again' })).toBeVisible();
  await expect(broken.detail.getByRole('button', { name: 'Edit and try again' })).toHaveCount(0);
});

test('wrong files and wrong keys are answered in the UI', async ({ page }, info) => {
  // A text file named .png is refused before any upload.
  await useKey(page);
  await page.goto('/');
  await pickModel(page, 'beta');
  const fake = info.outputPath('notes.png');
  writeFileSync(fake, 'these are my notes, not a photo');
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/uploads') && r.method() === 'POST') uploads.push(r.url());
  });
  await page.getByTestId('file-input').first().setInputFiles(fake);
  await expect(
    page.getByText(/“notes\.png” is plain text; use a PNG, JPEG or WebP photo/),
  ).toBeVisible();
  expect(uploads).toEqual([]);

  // A key with too few credits: 402 with the price and the balance.
  await page.evaluate(() => localStorage.setItem('kiln.apiKey', 'tr_e2e_poor'));
  await page.reload();
  await pickModel(page, 'beta-text');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a cube');
  // (Another spec may have made the balance known already: then Generate is held at once.)
  await page
    .getByRole('button', { name: 'Generate' })
    .click({ trial: false, timeout: 5_000 })
    .catch(() => {});
  // The header learnt the balance from the refusal; the picker marks what 5 cannot buy, and the
  // form says the shortfall (once: the refusal's own sentence gives way to it), holds Generate,
  // and offers what 5 credits buy (nothing, for this mock's prices).
  await expect(page.getByTestId('balance')).toContainText('5');
  await expect(page.getByText('Needs 30 credits; you have 5.')).toBeVisible();
  const shortfall = page.getByTestId('shortfall');
  await expect(shortfall).toContainText('beta-text costs 10 credits; your balance is 5: 5 short.');
  await expect(shortfall).toContainText('No model costs 5 credits or less');
  await expect(page.getByText(/Not enough credits/)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Generate' })).toBeDisabled();
  await shot(page, info, 'not-enough-credits');

  // A key the upstream does not know: 401 at the key.
  await page.evaluate(() => localStorage.setItem('kiln.apiKey', 'tr_not_a_real_key'));
  await page.reload();
  await pickModel(page, 'beta-text');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a cube');
  await page.getByRole('button', { name: 'Generate' }).click();
  await expect(page.getByText(/Your API key was refused/)).toBeVisible();
  await page.getByRole('button', { name: 'Change key' }).click();
  await expect(page.getByRole('heading', { name: 'Connect your API key' })).toBeVisible();
});

test('a double click creates one task, and a reload resumes it', async ({ page }) => {
  await useKey(page);
  await page.goto('/');
  const before = await libraryCount(page);
  await pickModel(page, 'beta-text');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a wooden chair');
  const { detail, id } = await generate(page, (b) => b.dblclick());
  await expect.poll(() => libraryCount(page)).toBe(before + 1);
  await expect(detail).toHaveAttribute('data-status', 'pending');
  await page.reload();
  await expect(page.locator(`[data-task-id="${id}"]`)).toHaveAttribute('data-status', 'completed', {
    timeout: 30_000,
  });
  expect(await libraryCount(page)).toBe(before + 1);
});

/**
 * What the gallery test looks at, made here so the test holds alone (a retry, or a worker that
 * took over after a failure, starts on an empty Kiln): a gamma task the generator refused, and an
 * alpha model shown in the studio, so it has its own picture.
 */
async function galleryTasks(page: Page) {
  const auth = { authorization: `Bearer ${DEMO_KEY}` };
  const blank = await sharp({
    create: { width: 256, height: 256, channels: 3, background: '#ffffff' },
  })
    .png()
    .toBuffer();
  const upload = await page.request.post('/api/uploads', {
    multipart: { file: { name: 'blank.png', mimeType: 'image/png', buffer: blank } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const { url } = (await upload.json()) as { url: string };
  const refused = await page.request.post('/api/v1/3d/generations', {
    headers: auth,
    data: { model: 'gamma', image_url: url },
  });
  expect(refused.status(), await refused.text()).toBe(202);
  const { id: failedId } = (await refused.json()) as { id: string };
  // A long prompt, as other specs' tasks have: its credits row must wrap on a phone.
  const long = await page.request.post('/api/v1/3d/generations', {
    headers: auth,
    data: {
      model: 'beta-text',
      prompt:
        'a weathered oak writing desk with three drawers, brass handles, a leather top and turned legs',
    },
  });
  expect(long.status(), await long.text()).toBe(202);
  await page.goto('/');
  await pickModel(page, 'alpha');
  await page.getByTestId('file-input').first().setInputFiles(photo('chair.png'));
  await expect(page.getByText('Ready')).toBeVisible();
  const { id, detail } = await generate(page);
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expectRenderedModel(detail.getByTestId('model-viewer'));
  const entry = async (taskId: string) =>
    (await (await page.request.get(`/api/library/${taskId}`, { headers: auth })).json()) as {
      status: string;
      thumbnail_url?: string;
    };
  await expect.poll(async () => (await entry(id)).thumbnail_url ?? '').not.toBe('');
  await expect.poll(async () => (await entry(failedId)).status, { timeout: 30_000 }).toBe('failed');
}

test('gallery and credits show what happened', async ({ page }, info) => {
  await useKey(page);
  await galleryTasks(page);
  await page.goto('/gallery');
  await expect(page.getByRole('heading', { name: 'Gallery' })).toBeVisible();
  await expect(page.getByText('Failed').first()).toBeVisible();
  await expect(page.getByText('Completed').first()).toBeVisible();
  // A model that was shown has its own picture, with the input photo beside it; a task without
  // a model (the failed one) shows its input photo.
  const modelPicture = page.getByRole('img', { name: /^3D model from the alpha task/ });
  const card = page.locator('.gallery-card').filter({ has: modelPicture }).first();
  const model = card.getByRole('img', { name: /^3D model from the alpha task/ });
  await model.scrollIntoViewIfNeeded();
  await expect
    .poll(() => model.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(480);
  await expect(card.getByRole('img', { name: /^Input photo/ })).toBeVisible();
  const thumb = page.getByRole('img', { name: /Input photo for \S+ task/ }).first();
  await thumb.scrollIntoViewIfNeeded();
  await expect
    .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  await shot(page, info, 'gallery');
  await expectAccessible(page);
  // Hide the failed gamma task (earlier files may have made other gamma tasks): asked inline,
  // then gone from the gallery and the library.
  const count = await libraryCount(page);
  const gammaId = await page
    .locator('.gallery-card')
    .filter({ has: page.getByRole('button', { name: /^Hide gamma/ }) })
    .filter({ hasText: 'Failed' })
    .first()
    .getAttribute('data-task-id');
  const gamma = page.locator(`.gallery-card[data-task-id="${gammaId}"]`);
  const hideGamma = async () => {
    await gamma.getByRole('button', { name: /^Hide gamma/ }).click();
    await gamma.getByRole('button', { name: /^Yes, hide gamma/ }).click();
  };
  await hideGamma();
  await expect(page.getByText('Task hidden.')).toBeVisible();
  await expect(gamma).toHaveCount(0);
  expect(await libraryCount(page)).toBe(count - 1);
  // Undo brings it back, focused; hidden again, its own address says so and offers Unhide.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(gamma).toHaveCount(1);
  await expect(gamma.getByRole('link', { name: /^Open gamma/ })).toBeFocused();
  expect(await libraryCount(page)).toBe(count);
  await hideGamma();
  await expect(gamma).toHaveCount(0);
  await page.goto(`/tasks/${gammaId}`);
  await expect(page.getByText('This task is hidden from your gallery.')).toBeVisible();
  await expect(page.getByText('The generation failed')).toBeVisible();
  await shot(page, info, 'hidden-task');
  await page.getByRole('button', { name: 'Unhide' }).click();
  await expect(page.getByText('This task is hidden from your gallery.')).toHaveCount(0);
  expect(await libraryCount(page)).toBe(count);
  await page.goto('/gallery');
  await hideGamma();
  await expect(page.getByText('Task hidden.')).toBeVisible();
  expect(await libraryCount(page)).toBe(count - 1);
  await page.getByRole('link', { name: /^Open/ }).first().click();
  await expect(page.getByTestId('task-detail')).toBeVisible();
  await page.goto('/credits');
  await expect(page.getByRole('heading', { name: 'Credits' })).toBeVisible();
  await expect(page.getByRole('table', { name: /Credits per task/ })).toBeVisible();
  const balance = await balanceOf(page);
  // The figure shown is the upstream's own ledger, exact, and says where it comes from.
  expect(balance).toBe(mockLedgerBalance());
  await expect(page.getByTestId('balance')).toContainText(balance.toLocaleString('en-US'));
  await expect(page.getByTestId('balance')).not.toContainText('≈');
  await expect(page.getByTestId('credits-as-of')).toContainText(
    /^As of .+\. The upstream stated (it|the balance) at /,
  );
  await shot(page, info, 'credits');
  await expectAccessible(page);
  await expectCreditsRowsFit(page, info);
});

/** Each row says what the task was made from; on a phone the table needs no sideways scroll. */
async function expectCreditsRowsFit(page: Page, info: TestInfo) {
  const table = page.getByRole('table', { name: /Credits per task/ });
  await expect(table.locator('.credits-subject').first()).toHaveText(
    / · (“.+”|.+\.(png|jpe?g|webp))/,
  );
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() =>
      page.locator('.credits-table-wrap').evaluate((el) => el.scrollWidth - el.clientWidth),
    )
    .toBeLessThanOrEqual(0);
  expect(await overflowing(page), 'nothing sticks out of /credits at 390 px').toEqual([]);
  await shot(page, info, 'credits-390');
  await page.setViewportSize({ width: 1280, height: 720 });
}

test('the gallery says when Kiln could not keep a copy of a model', async ({ page }, info) => {
  await useKey(page);
  await keptPromptModel(page, 'a copper kettle', []);
  // The server's word for it (an archive given up after its retries), as /api/library says it.
  await page.route(/\/api\/library\?/, async (route) => {
    const res = await route.fetch();
    const page = (await res.json()) as { data: Record<string, unknown>[] };
    const first = page.data.find((e) => e.status === 'completed');
    if (first)
      first.archive = {
        state: 'failed',
        attempts: 5,
        error: 'the upstream answered 404',
        next_attempt_ms: null,
      };
    await route.fulfill({ response: res, json: page });
  });
  await page.goto('/gallery');
  const note = page.getByRole('note').filter({ hasText: 'could not keep a copy' }).first();
  await expect(note).toHaveText(
    "Kiln could not keep a copy of this model after 5 tries (the upstream answered 404). Download it soon: the provider's link expires.",
  );
  await note.scrollIntoViewIfNeeded();
  await shot(page, info, 'gallery-archive-failed');
});

test('usable at 390 px and in the dark theme', async ({ page }, info) => {
  await useKey(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Generate' })).toBeVisible();
  await expect(
    page.getByTestId('task-detail').or(page.getByText('Your model appears here')).first(),
  ).toBeVisible();
  expect(await overflowing(page), 'nothing sticks out at 390 px').toEqual([]);
  await shot(page, info, 'mobile-dark');
  await expectAccessible(page);
  expect(DEMO_KEY).toBe('tr_demo_kiln');
});

test('a balance that cannot pay for the model says so before sending, and offers what it can buy', async ({
  page,
}, info) => {
  await page.addInitScript(() => localStorage.setItem('kiln.apiKey', 'tr_e2e_some'));
  await page.goto('/');
  // A new key: in mock mode Kiln asks its built-in mock, so the header knows the balance before
  // any task (decision 0100), and the form says the shortfall before anything is sent.
  await expect(page.getByTestId('balance')).toContainText('25');
  await expect(page.getByTestId('balance-as-of')).toContainText('as of');
  await pickModel(page, 'gamma');
  await page.getByTestId('file-input').first().setInputFiles(photo('chair.png'));
  const shortfall = page.getByTestId('shortfall');
  await expect(shortfall).toContainText('gamma costs 30 credits; your balance is 25: 5 short.');
  await expect(page.getByRole('button', { name: 'Generate' })).toBeDisabled();
  await expect(page.getByTestId('balance')).toContainText('25');
  await shot(page, info, 'shortfall');
  await shortfall.getByRole('button', { name: 'beta · 15 credits' }).click();
  await expect(page.locator('input[name="model"][value="beta"]')).toBeChecked();
  await expect(page.getByTestId('shortfall')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Generate' })).toBeEnabled();
});

test('on a phone, Generate brings the new task into view', async ({ page }) => {
  await useKey(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  await pickModel(page, 'beta-text');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('a small clay pot');
  const { id } = await generate(page);
  const heading = page.locator(`#task-${id}`);
  await expect(heading).toBeFocused();
  await expect(heading).toBeInViewport();
});
