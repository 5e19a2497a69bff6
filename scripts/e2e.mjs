#!/usr/bin/env node
// `npm run test:e2e`: the Playwright suite alone, with the same Chromium detection as `npm test`.
import { spawnSync } from 'node:child_process';
import { NO_CHROMIUM_HELP, findChromium } from './chromium.mjs';

if (!(await findChromium())) {
  console.error(NO_CHROMIUM_HELP);
  process.exit(1);
}
const r = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
