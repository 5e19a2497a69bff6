import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findChromium } from './scripts/chromium.mjs';
import { freePort } from './src/testing/ports.ts';

// Decided once in the runner process; workers inherit the environment, so all agree.
process.env.KILN_E2E_PORT ??= String(await freePort());
process.env.KILN_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'kiln-e2e-'));
const port = Number(process.env.KILN_E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
const browser = await findChromium();

export default defineConfig({
  testDir: 'e2e',
  testIgnore: '*.scale.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
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
  webServer: {
    // Exactly as a user starts Kiln, on a free port and a fresh DATA_DIR.
    command: 'npm start',
    url: `${baseURL}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.KILN_E2E_DATA_DIR,
      MOCK_SPEED: 'fast',
      // A request log line per request would bury the test report; warnings and errors still show.
      LOG_LEVEL: 'warn',
      MOCK_KEYS:
        'tr_demo_kiln:1000,tr_e2e_poor:5,tr_e2e_some:25,tr_e2e_ledger:1000,tr_e2e_first:1000,tr_e2e_asof:100000',
    },
  },
});
