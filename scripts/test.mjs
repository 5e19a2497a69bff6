#!/usr/bin/env node
// `npm test`: typecheck, lint, unit tests (Vitest) and browser tests (Playwright, real Chromium).
// `npm run check` adds the format check. Ends with one line: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_CHROMIUM_HELP, findChromium } from './chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);
const withFormat = process.argv.includes('--with-format');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });

let passed = 0;
let failed = 0;
const summary = [];

function run(name, args, env = {}) {
  console.log(`\n━━ ${name} ━━`);
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  return r.status === 0;
}

function step(name, args) {
  if (only && only !== name) return;
  const ok = run(name, args);
  if (ok) passed++;
  else failed++;
  summary.push(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
}

step('typecheck', [bin('typescript', 'bin/tsc'), '--noEmit', '-p', 'tsconfig.json']);
step('lint', [bin('eslint', 'bin/eslint.js'), '.', '--max-warnings=0']);
if (withFormat) step('format', [bin('prettier', 'bin/prettier.cjs'), '--check', '.']);

if (!only || only === 'unit') {
  const out = join(results, 'vitest.json');
  rmSync(out, { force: true });
  const ok = run('unit (vitest)', [
    bin('vitest', 'vitest.mjs'),
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);
  const counts = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null;
  if (counts) {
    passed += counts.numPassedTests;
    failed += counts.numFailedTests;
    if (!ok && counts.numFailedTests === 0) failed++; // a suite that failed to load, or vitest itself
  } else if (!ok) failed++;
  summary.push(
    `${ok ? 'ok  ' : 'FAIL'} unit: ${counts ? `${counts.numPassedTests} passed, ${counts.numFailedTests} failed` : 'no report'}`,
  );
}

if (!only || only === 'e2e') {
  const browser = await findChromium();
  if (!browser) {
    console.error(`\n━━ e2e (playwright) ━━\n${NO_CHROMIUM_HELP}`);
    failed++;
    summary.push('FAIL e2e: no Chromium');
  } else {
    const out = join(results, 'e2e.json');
    rmSync(out, { force: true });
    const ok = run('e2e (playwright)', [bin('@playwright/test', 'cli.js'), 'test']);
    let counts = null;
    if (existsSync(out)) {
      const s = JSON.parse(readFileSync(out, 'utf8')).stats;
      counts = { passed: s.expected + s.flaky, failed: s.unexpected };
    }
    if (counts) {
      passed += counts.passed;
      failed += counts.failed;
      if (!ok && counts.failed === 0) failed++;
    } else if (!ok) failed++;
    summary.push(
      `${ok ? 'ok  ' : 'FAIL'} e2e (${browser.kind} chromium): ${counts ? `${counts.passed} passed, ${counts.failed} failed` : 'no report'}`,
    );
  }
}

console.log(`\n━━ summary ━━\n${summary.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
