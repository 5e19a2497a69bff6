import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from './scripts/chromium.mjs';

// Decided once in the runner process; workers inherit the environment, so all agree. Each
// worker's Kiln keeps its DATA_DIR under this root (e2e/fixtures.ts).
process.env.KILN_E2E_DATA_ROOT ??= mkdtempSync(join(tmpdir(), 'kiln-e2e-'));
const browser = await findChromium();
// Spec files side by side, each worker with a Kiln of its own (decision 0118): the browser
// tests mostly wait on tasks and timers, so two workers use a 2-core machine better than one.
const workers = Number(process.env.KILN_E2E_WORKERS ?? 2);

export default defineConfig({
  testDir: 'e2e',
  testIgnore: '*.scale.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    browserName: 'chromium',
    screenshot: 'only-on-failure',
    // A trace records every test's screencast and DOM snapshots while it runs, kept or not (about
    // a tenth of the browser tests' CPU here). In CI a failure is retried and the retry records
    // one (decision 0109); a local run, with no retries, keeps a failure's.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    launchOptions: {
      ...(browser?.executablePath ? { executablePath: browser.executablePath } : {}),
      args: browser?.args ?? [],
    },
  },
});
