// Each Playwright worker starts its own Kiln exactly as a user does (`npm start`, mock mode, fast
// tasks), on a free port with a DATA_DIR of its own, so spec files run side by side without
// sharing a balance or a library (decision 0118). A worker that replaces a failed one (a retry)
// starts a fresh Kiln with a fresh DATA_DIR: the retried test meets what it met the first time,
// not its own first attempt's leftovers (a model named twice, an optimised copy already cached).
import { test as base, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The special keys the specs use, each with its balance in the built-in mock. */
const MOCK_KEYS =
  'tr_demo_kiln:1000,tr_e2e_poor:5,tr_e2e_some:25,tr_e2e_ledger:1000,tr_e2e_first:1000,tr_e2e_asof:100000';

interface Kiln {
  url: string;
  port: number;
  dataDir: string;
}

/** `npm start` (the SPA is built once, by the global setup) until it says where it listens. */
async function startKiln(dataDir: string): Promise<{ kiln: Kiln; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MOCK_SPEED: 'fast',
      // A request log line per request would bury the test report; warnings and errors still show.
      LOG_LEVEL: 'warn',
      MOCK_KEYS,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Kiln did not start:\n${log}`)), 180_000);
    const onData = (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-64 * 1024);
      const m = /listening on (http:\/\/[^\s/"]+)/.exec(log);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout.on('data', onData);
    // Warnings and errors reach the report, as Playwright's webServer would pass them on.
    child.stderr.on('data', (chunk: Buffer) => {
      onData(chunk);
      process.stderr.write(chunk);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Kiln exited with ${String(code)}:\n${log}`));
    });
  });
  const port = Number(new URL(url).port);
  return {
    kiln: { url, port, dataDir },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export const test = base.extend<object, { kiln: Kiln }>({
  kiln: [
    // Playwright reads a fixture's dependencies from its first parameter: it has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, worker) => {
      const root = process.env.KILN_E2E_DATA_ROOT;
      if (!root) throw new Error('KILN_E2E_DATA_ROOT is not set (playwright.config.ts sets it)');
      const dataDir = join(root, `worker-${worker.parallelIndex}-${process.pid}`);
      mkdirSync(dataDir, { recursive: true });
      const { kiln, stop } = await startKiln(dataDir);
      // Helpers read these (a mock ledger in DATA_DIR, a LAN name on this port): this worker's own.
      process.env.KILN_E2E_DATA_DIR = kiln.dataDir;
      process.env.KILN_E2E_PORT = String(kiln.port);
      await use(kiln);
      await stop();
    },
    { scope: 'worker', auto: true, timeout: 200_000 },
  ],
  baseURL: async ({ kiln }, use) => use(kiln.url),
});

export { expect };
