// Issue 35: a model made with the `kiln` command line (bin/kiln.mjs, run against this worker's
// own Kiln with the demo key) is in the studio's gallery under its name, and the gallery shown by
// its collection has it.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { runKilnCli } from '../src/testing/cli.ts';
import { expect, test } from './fixtures.ts';
import { DEMO_KEY, photo, shot, useKey } from './helpers.ts';

const NAME = 'Chair from the command line';
const COLLECTION = 'Made in a terminal';

/** `kiln generate chair.png … --json` in a temporary folder: the task's id and the file made. */
async function makeWithCli(kilnUrl: string): Promise<{ id: string; file: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-e2e-cli-'));
  try {
    copyFileSync(photo('chair.png'), join(dir, 'chair.png'));
    const args = ['generate', 'chair.png', '--model', 'alpha', '--json'];
    const run = await runKilnCli([...args, '--name', NAME, '--collection', COLLECTION], {
      cwd: dir,
      env: { KILN_URL: kilnUrl, KILN_KEY: DEMO_KEY, KILN_POLL_MS: '250' },
    });
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout) as {
      id: string;
      file: string;
      collection: { name: string };
    };
    expect(doc.collection.name).toBe(COLLECTION);
    return doc;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The gallery's card of the model: found by its name, for the task the command made. */
async function cardInGallery(page: Page, id: string) {
  await useKey(page);
  await page.goto('/gallery');
  const card = page.getByRole('article', { name: new RegExp(`^${NAME}`) });
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute('data-task-id', id);
  await expect(card.getByRole('heading', { name: new RegExp(NAME) })).toContainText('alpha');
  return card;
}

/** The gallery by the collection's filter: the address names it, and the card is in it. */
async function byCollection(page: Page) {
  const filters = page.getByRole('button', { name: /^Filters/ });
  if ((await filters.isVisible()) && (await filters.getAttribute('aria-expanded')) === 'false')
    await filters.click();
  const select = page.getByLabel('Collection', { exact: true });
  await expect(select.getByRole('option', { name: COLLECTION })).toHaveCount(1);
  await select.selectOption({ label: COLLECTION });
  await expect(page).toHaveURL(/[?&]collection=col_/);
  await expect(page.getByRole('heading', { name: COLLECTION, level: 1 })).toBeVisible();
  const cards = page.locator('article[data-card]');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toHaveAccessibleName(new RegExp(`^${NAME}`));
}

test('a model made with the kiln command is in the gallery under its name and its collection', async ({
  page,
  kiln,
}, info) => {
  const made = await makeWithCli(kiln.url);
  expect(made.file).toMatch(/kiln-alpha-chair-from-the-command-line-.+\.glb$/);
  await cardInGallery(page, made.id);
  await byCollection(page);
  await shot(page, info, 'cli-gallery');
});
