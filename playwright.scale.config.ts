import { defineConfig } from '@playwright/test';
import { findChromium } from './scripts/chromium.mjs';
import { freePort } from './src/testing/ports.ts';

// The studio in Chromium against a scaled-out Kiln: two replicas on PostgreSQL and S3-compatible
// storage behind nginx (e2e/scale-setup.ts starts them all; docs/deploy.md is the recipe).
process.env.KILN_SCALE_PORT ??= String(await freePort());
const baseURL = `http://127.0.0.1:${process.env.KILN_SCALE_PORT}`;
const browser = await findChromium();

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.scale.spec.ts',
  globalSetup: './e2e/scale-setup.ts',
  outputDir: 'test-results/e2e-scale',
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-scale.json' }]],
  use: {
    baseURL,
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
