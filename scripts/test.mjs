#!/usr/bin/env node
// `npm test`: typecheck, lint, dead code (knip), unit tests (Vitest), browser tests (Playwright, real Chromium), and
// the scale group (PostgreSQL, S3-compatible storage, two replicas behind nginx).
// `npm run check` adds the format check. Ends with one line: `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { fileURLToPath } from 'node:url';
import { NO_CHROMIUM_HELP, findChromium } from './chromium.mjs';
import { scaleMissing } from './scale-services.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);
const withFormat = process.argv.includes('--with-format');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const results = join(root, 'test-results');
mkdirSync(results, { recursive: true });

let passed = 0;
let failed = 0;
const summary = [];
/** Each stage's wall time, in the order run: printed after the stage and as a closing table. */
const times = [];
const started = Date.now();
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

// The names of failed tests, with the first line of each reason, so that the closing lines
// alone (all a CI log's tail may show) say what broke.
const firstLine = (text) =>
  stripVTControlCharacters(String(text ?? ''))
    .split('\n')
    .find((l) => l.trim()) ?? '';
function vitestFailures(report) {
  const lines = [];
  for (const file of report.testResults ?? []) {
    const where = file.name.startsWith(root) ? file.name.slice(root.length) : file.name;
    if (
      file.status === 'failed' &&
      !(file.assertionResults ?? []).some((a) => a.status === 'failed')
    )
      lines.push(`     ✗ ${where}: ${firstLine(file.message)}`);
    for (const a of file.assertionResults ?? [])
      if (a.status === 'failed')
        lines.push(`     ✗ ${where} › ${a.fullName}: ${firstLine(a.failureMessages?.[0])}`);
  }
  return lines;
}
function playwrightFailures(report) {
  const lines = [];
  const walk = (suite, path) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === 'unexpected') {
          const err = t.results?.at(-1)?.error?.message;
          lines.push(
            `     ✗ ${spec.file}:${spec.line} › ${[...path, spec.title].join(' › ')}: ${firstLine(err)}`,
          );
          // Where each attempt stopped, and on what (a retry may stop elsewhere).
          for (const [i, r] of (t.results ?? []).entries()) {
            const at = r.error?.location ? `line ${r.error.location.line}` : 'no location';
            const locator = stripVTControlCharacters(String(r.error?.message ?? ''))
              .split('\n')
              .find((l) => /^\s*Locator:/.test(l));
            lines.push(`       attempt ${i + 1}: ${at}${locator ? ` · ${locator.trim()}` : ''}`);
          }
        }
    for (const child of suite.suites ?? [])
      walk(child, suite.file === child.file ? [...path, child.title] : path);
  };
  for (const s of report.suites ?? []) walk(s, []);
  return lines;
}

function run(name, args, env = {}) {
  console.log(`\n━━ ${name} ━━`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  const ms = Date.now() - t0;
  times.push([name, ms]);
  console.log(`━━ ${name}: ${seconds(ms)} ━━`);
  return r.status === 0;
}

/** The closing table of stage times (wall clock), with the total and the load when it ended. */
function timeTable() {
  const width = Math.max(5, ...times.map(([name]) => name.length));
  const rows = times.map(([name, ms]) => `${name.padEnd(width)}  ${seconds(ms).padStart(9)}`);
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');
  return [
    ...rows,
    `${'total'.padEnd(width)}  ${seconds(Date.now() - started).padStart(9)}`,
    `(load average at the end: ${load}; ${availableParallelism()} cores)`,
  ].join('\n');
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
// Dead code stays dead: unused files, exports, types and dependencies (knip.json says what runs).
step('dead code (knip)', [bin('knip', 'bin/knip.js'), '--no-progress']);
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
    ...(counts ? vitestFailures(counts) : []),
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
    let report = null;
    if (existsSync(out)) {
      report = JSON.parse(readFileSync(out, 'utf8'));
      const s = report.stats;
      counts = { passed: s.expected + s.flaky, failed: s.unexpected };
    }
    if (counts) {
      passed += counts.passed;
      failed += counts.failed;
      if (!ok && counts.failed === 0) failed++;
    } else if (!ok) failed++;
    summary.push(
      `${ok ? 'ok  ' : 'FAIL'} e2e (${browser.kind} chromium): ${counts ? `${counts.passed} passed, ${counts.failed} failed` : 'no report'}`,
      ...(report ? playwrightFailures(report) : []),
    );
  }
}

// The scale group: PostgreSQL, an S3-compatible server, two replicas and nginx, all started by
// the tests themselves. Missing services are a failure that says what to install, never a skip.
if (!only || only === 'scale') {
  const missing = scaleMissing();
  if (missing) {
    console.error(`\n━━ scale ━━\n${missing}`);
    failed++;
    summary.push(`FAIL scale: ${missing}`);
  } else {
    const out = join(results, 'vitest-scale.json');
    rmSync(out, { force: true });
    const ok = run('scale (vitest: PostgreSQL, S3, replicas, nginx)', [
      bin('vitest', 'vitest.mjs'),
      'run',
      '-c',
      'vitest.scale.config.ts',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
    ]);
    const counts = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null;
    if (counts) {
      passed += counts.numPassedTests;
      failed += counts.numFailedTests;
      if (!ok && counts.numFailedTests === 0) failed++;
    } else if (!ok) failed++;
    summary.push(
      `${ok ? 'ok  ' : 'FAIL'} scale: ${counts ? `${counts.numPassedTests} passed, ${counts.numFailedTests} failed` : 'no report'}`,
      ...(counts ? vitestFailures(counts) : []),
    );
    const browser = await findChromium();
    if (browser) {
      const e2eOut = join(results, 'e2e-scale.json');
      rmSync(e2eOut, { force: true });
      const e2eOk = run('scale e2e (playwright through nginx)', [
        bin('@playwright/test', 'cli.js'),
        'test',
        '-c',
        'playwright.scale.config.ts',
      ]);
      let c = null;
      let report = null;
      if (existsSync(e2eOut)) {
        report = JSON.parse(readFileSync(e2eOut, 'utf8'));
        const st = report.stats;
        c = { passed: st.expected + st.flaky, failed: st.unexpected };
      }
      if (c) {
        passed += c.passed;
        failed += c.failed;
        if (!e2eOk && c.failed === 0) failed++;
      } else if (!e2eOk) failed++;
      summary.push(
        `${e2eOk ? 'ok  ' : 'FAIL'} scale e2e: ${c ? `${c.passed} passed, ${c.failed} failed` : 'no report'}`,
        ...(report ? playwrightFailures(report) : []),
      );
    }
  }
}

console.log(`\n━━ stage times ━━\n${timeTable()}`);
console.log(`\n━━ summary ━━\n${summary.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
