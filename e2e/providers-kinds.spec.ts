import { type Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { syntheticViews } from '../src/generator/views/synthetic-views.ts';
import {
  chipFigure,
  connectDemo,
  expectAccessible,
  generate,
  photo,
  pickModel,
  shoot,
  useKey,
} from './helpers.ts';

// Issue 34's breadth: all three vendors' mocks connected at once, one task per vendor per input
// kind it offers, made through the studio's form; the stages each shows, one gallery with every
// result badged and costed in its vendor's unit, the provider filter, and each balance moved by
// exactly the prices. One page and one set of keys for every test (serial).
test.describe.configure({ mode: 'serial', timeout: 240_000 });

type Vendor = 'meshy' | 'tripo' | 'fal';
type Kind = 'image' | 'multiview' | 'text';
const LABELS: Record<Vendor, string> = { meshy: 'Meshy', tripo: 'Tripo', fal: 'fal' };
const KIND_WORDS: Record<Kind, string> = {
  image: 'One photo',
  multiview: '2–4 photos',
  text: 'A prompt',
};

interface Made {
  id: string;
  vendor: Vendor;
  model: string;
  kind: Kind;
  price: number;
}

let page: Page;
let views: { name: string; mimeType: string; buffer: Buffer }[];
const made: Made[] = [];
const before: Partial<Record<Vendor, number>> = {};

/** Every text a task's stage line showed, recorded in the page as it changes (no poll misses one). */
function recordStages() {
  const seen: string[] = [];
  (window as unknown as { kilnStages: string[] }).kilnStages = seen;
  const note = () => {
    for (const el of document.querySelectorAll('[data-testid="vendor-stage"]')) {
      const id = el.closest('[data-task-id]')?.getAttribute('data-task-id') ?? '?';
      const text = `${id}|${el.textContent ?? ''}`;
      if (!seen.includes(text)) seen.push(text);
    }
  };
  new MutationObserver(note).observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
  });
}

/** What the task's stage line said, in order. */
async function stagesOf(id: string): Promise<string[]> {
  const all = await page.evaluate(
    () => (window as unknown as { kilnStages?: string[] }).kilnStages ?? [],
  );
  return all.filter((s) => s.startsWith(`${id}|`)).map((s) => s.slice(id.length + 1));
}

/** A vendor model's price for one input kind, as the studio's model list states it. */
async function priceOf(vendor: Vendor, model: string, kind: Kind): Promise<number> {
  const keys = await page.evaluate(() => localStorage.getItem('kiln.providerKeys'));
  const key = (JSON.parse(keys ?? '{}') as Record<string, string>)[vendor] ?? '';
  const res = await page.request.get(`/api/providers/${vendor}/models`, {
    headers: { 'x-provider-key': key },
  });
  const list = (await res.json()) as {
    data: { id: string; price: Partial<Record<Kind, number>> }[];
  };
  const price = list.data.find((m) => m.id === model)?.price[kind];
  if (price === undefined) throw new Error(`${model} states no price for ${kind}`);
  return price;
}

/** One task through the form: the model, its input kind, the input; waits until it completes. */
async function makeTask(vendor: Vendor, model: string, kind: Kind): Promise<Made> {
  await page.goto('/');
  await expect(page.locator(`input[name="model"][value="${model}"]`)).toBeAttached({
    timeout: 30_000,
  });
  await pickModel(page, model);
  const choice = page.getByRole('group', { name: 'Make it from' });
  if (await choice.isVisible()) await choice.getByLabel(KIND_WORDS[kind]).check();
  if (kind === 'text') {
    await page.getByRole('textbox', { name: 'Prompt' }).fill(`a red mug for ${vendor}`);
  } else {
    const files = kind === 'image' ? photo('chair.png') : views;
    await page.getByTestId('file-input').first().setInputFiles(files);
    await expect(page.getByText('Ready')).toHaveCount(kind === 'image' ? 1 : views.length, {
      timeout: 30_000,
    });
  }
  await expect(page.getByRole('button', { name: 'Generate', exact: true })).toBeEnabled({
    timeout: 30_000,
  });
  const { id, detail } = await generate(page);
  expect(id.startsWith(`${vendor}_`)).toBe(true);
  await expect(detail).toHaveAttribute('data-status', 'completed', { timeout: 120_000 });
  const task = { id, vendor, model, kind, price: await priceOf(vendor, model, kind) };
  made.push(task);
  return task;
}

test.beforeAll(async ({ browser }) => {
  const chair = await syntheticViews('chair', 384, { background: '#d8d8d8' });
  views = chair.map((b, i) => ({
    name: `mug-view-${i + 1}.png`,
    mimeType: 'image/png',
    buffer: Buffer.from(b),
  }));
  // A context of its own (axe needs one), so no key is kept yet.
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  await useKey(page);
  await page.addInitScript(recordStages);
  await page.goto('/connections');
  // Each vendor's demo key, connected here.
  for (const vendor of ['meshy', 'tripo', 'fal'] as const)
    await connectDemo(page, vendor, LABELS[vendor]);
  for (const vendor of ['meshy', 'tripo', 'fal'] as const) {
    await expect(page.getByTestId(`balance-${vendor}`)).toHaveText(/\d/, { timeout: 30_000 });
    before[vendor] = await chipFigure(page, vendor);
  }
});
test.afterAll(() => page?.context().close());

test('Meshy: one photo, several views, and a prompt shown as its preview then its refine', async () => {
  const photoTask = await makeTask('meshy', 'meshy/meshy-6', 'image');
  // Meshy states its queue place and a percentage.
  expect((await stagesOf(photoTask.id)).join('\n')).toMatch(/\d+%/);
  await makeTask('meshy', 'meshy/meshy-6', 'multiview');
  const text = await makeTask('meshy', 'meshy/meshy-6', 'text');
  const stages = await stagesOf(text.id);
  const preview = stages.findIndex((s) => s.startsWith('Step 1 of 2: Preview'));
  const refine = stages.findIndex((s) => s.startsWith('Step 2 of 2: Refine'));
  expect(preview, stages.join('\n')).toBeGreaterThanOrEqual(0);
  expect(refine, stages.join('\n')).toBeGreaterThan(preview);
});

test('Tripo: one photo, several views in its slots, and a prompt', async () => {
  for (const kind of ['image', 'multiview', 'text'] as const) {
    const task = await makeTask('tripo', 'tripo/v2.5-20250123', kind);
    expect((await stagesOf(task.id)).join('\n'), kind).toMatch(/In queue|In progress|\d+%/);
  }
});

test('fal: one photo and several views, its queue place and no invented percentage', async () => {
  for (const [model, kind] of [
    ['fal/fal-ai/trellis', 'image'],
    ['fal/fal-ai/trellis/multi', 'multiview'],
  ] as const) {
    const task = await makeTask('fal', model, kind);
    const stages = (await stagesOf(task.id)).join('\n');
    expect(stages, model).toMatch(/In queue|Running/);
    expect(stages, model).toContain('no percentage from the provider');
    expect(stages, model).not.toMatch(/\d+%/);
  }
});

test('one gallery: every result with its badge and its cost in its unit, filtered by provider; each balance moved by the prices', async () => {
  const info = test.info();
  expect(made).toHaveLength(8);
  await page.goto('/gallery');
  for (const m of made) {
    const card = page.locator(`[data-task-id="${m.id}"]`);
    await expect(card.getByTestId('provider-badge'), m.id).toHaveText(LABELS[m.vendor], {
      timeout: 30_000,
    });
    const cost = m.vendor === 'fal' ? `$${m.price.toFixed(2)}` : `${m.price} credits`;
    await expect(card.getByTestId('gallery-cost'), m.id).toHaveText(` · ${cost}`);
  }
  await expect(
    page.getByTestId('gallery-cost').filter({ hasText: /\$.*credit|credit.*\$/ }),
  ).toHaveCount(0);
  await expectAccessible(page);
  await shoot(page, info, 'gallery-three-providers');

  // The filter is the server's: only that provider's tasks, each of this run's among them.
  for (const vendor of ['meshy', 'tripo', 'fal'] as const) {
    await page.getByLabel('Provider').selectOption(vendor);
    await expect(page).toHaveURL(new RegExp(`provider=${vendor}`));
    for (const m of made)
      await expect(page.locator(`[data-task-id="${m.id}"]`), m.id).toHaveCount(
        m.vendor === vendor ? 1 : 0,
      );
    const badges = page.getByTestId('provider-badge');
    await expect(badges.filter({ hasNotText: LABELS[vendor] })).toHaveCount(0);
  }
  await shoot(page, info, 'gallery-filter-fal');

  // Each balance moved by exactly what its tasks cost, in its own unit.
  for (const vendor of ['meshy', 'tripo', 'fal'] as const) {
    const cost = made.filter((m) => m.vendor === vendor).reduce((sum, m) => sum + m.price, 0);
    await expect
      .poll(
        async () => {
          await page.reload();
          await expect(page.getByTestId(`balance-${vendor}`)).toHaveText(/\d/);
          return Math.round(((before[vendor] ?? 0) - (await chipFigure(page, vendor))) * 100);
        },
        { timeout: 30_000, message: vendor },
      )
      .toBe(Math.round(cost * 100));
  }

  // The credits table says each vendor task's cost in its vendor's unit too.
  await page.goto('/credits');
  for (const m of made.filter((t) => t.kind === 'image')) {
    const row = page.locator('tr', {
      has: page.locator(`a[href="/tasks/${encodeURIComponent(m.id)}"]`),
    });
    const cost = m.vendor === 'fal' ? `$${m.price.toFixed(2)}` : `${m.price} credits`;
    await expect(row.locator('td[data-label="Credits"]'), m.id).toHaveText(cost, {
      timeout: 30_000,
    });
  }
  await shoot(page, info, 'credits-provider-costs');
});
