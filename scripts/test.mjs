#!/usr/bin/env node
// `npm test`: typecheck, lint, dead code (knip), unit tests (Vitest), browser tests (Playwright, real Chromium), and
// the scale group (PostgreSQL, S3-compatible storage, two replicas behind nginx).
// `npm run check` adds the format check. Ends with one line: `N passed, N failed`.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, setPriority } from 'node:os';
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

/** A stage in the foreground, its output as it goes; resolves when it ends (the loop stays free). */
async function run(name, args) {
  console.log(`\n━━ ${name} ━━`);
  const t0 = Date.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  const status = await new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('exit', (code) => resolve(code ?? 1));
  });
  const ms = Date.now() - t0;
  times.push([name, ms]);
  console.log(`━━ ${name}: ${seconds(ms)} ━━`);
  return status === 0;
}

/**
 * A stage started now and left to run beside the next ones (its output to `log`, printed when it
 * is waited for). `args` run with this Node, unless `command` names another program; `nice`
 * lowers its priority (and its children's), so that a stage beside it keeps its core; `env` adds
 * to the environment.
 */
function runBeside(name, args, log, { command = process.execPath, nice = 0, env } = {}) {
  console.log(`\n━━ ${name}: started, beside the others (output in ${log}) ━━`);
  const t0 = Date.now();
  const fd = openSync(log, 'w');
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', fd, fd],
    ...(env ? { env: { ...process.env, ...env } } : {}),
  });
  // Before it has started its own children (Node takes tens of milliseconds to start), which
  // inherit it.
  if (nice && child.pid) setPriority(child.pid, nice);
  closeSync(fd);
  const done = new Promise((resolve) => {
    child.once('error', () => resolve({ status: 1, at: Date.now() }));
    child.once('exit', (code) => resolve({ status: code ?? 1, at: Date.now() }));
  });
  return async () => {
    const { status, at } = await done;
    const ms = at - t0;
    times.push([name, ms]);
    console.log(`\n━━ ${name} (ran beside the others) ━━\n${readFileSync(log, 'utf8')}`);
    console.log(`━━ ${name}: ${seconds(ms)} ━━`);
    return status === 0;
  };
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

/** Adds a Vitest run's counts (from its JSON report) to the totals and the summary. */
function countVitest(label, ok, out) {
  const counts = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null;
  if (counts) {
    passed += counts.numPassedTests;
    failed += counts.numFailedTests;
    if (!ok && counts.numFailedTests === 0) failed++; // a suite that failed to load, or vitest itself
  } else if (!ok) failed++;
  summary.push(
    `${ok ? 'ok  ' : 'FAIL'} ${label}: ${counts ? `${counts.numPassedTests} passed, ${counts.numFailedTests} failed` : 'no report'}`,
    ...(counts ? vitestFailures(counts) : []),
  );
}

/** Adds a Playwright run's counts (from its JSON report; a flaky pass is a pass) likewise. */
function countPlaywright(label, ok, out) {
  const report = existsSync(out) ? JSON.parse(readFileSync(out, 'utf8')) : null;
  const counts = report && {
    passed: report.stats.expected + report.stats.flaky,
    failed: report.stats.unexpected,
  };
  if (counts) {
    passed += counts.passed;
    failed += counts.failed;
    if (!ok && counts.failed === 0) failed++;
  } else if (!ok) failed++;
  summary.push(
    `${ok ? 'ok  ' : 'FAIL'} ${label}: ${counts ? `${counts.passed} passed, ${counts.failed} failed` : 'no report'}`,
    ...(report ? playwrightFailures(report) : []),
  );
}

/**
 * better-sqlite3's binding, when the install did not build it (its install script compiles SQLite:
 * about 90 s of one core here, since its prebuilt binaries are not on npm): the stage that builds
 * it, as runBeside's arguments; else null.
 */
function unbuiltNative() {
  const binding = join(
    root,
    'node_modules',
    'better-sqlite3',
    'build',
    'Release',
    'better_sqlite3.node',
  );
  if (existsSync(binding) || !existsSync(join(root, 'node_modules', 'better-sqlite3'))) return null;
  // Under `npm test`, npm says where its own CLI is; else the npm on the PATH.
  const npm = process.env.npm_execpath?.endsWith('.js') ? process.env.npm_execpath : null;
  const args = ['rebuild', 'better-sqlite3', '--foreground-scripts'];
  // Straight to the compile: its prebuild-install would first ask GitHub for a binary, and the
  // tests talk to loopback only.
  const env = { npm_config_build_from_source: 'better-sqlite3' };
  return [
    'native build (npm rebuild better-sqlite3)',
    npm ? [npm, ...args] : args,
    join(results, 'native.log'),
    npm ? { env } : { command: 'npm', env },
  ];
}

const vitestArgs = (out, ...more) => [
  bin('vitest', 'vitest.mjs'),
  'run',
  ...more,
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${out}`,
];
const fresh = (name) => {
  const out = join(results, name);
  rmSync(out, { force: true });
  return out;
};

// One stage after another. KILN_TEST_OVERLAP=1 starts the scale group beside the browser tests
// (both mostly wait), its output printed whole when it ends; on 2 cores its fault tests and the
// browser tests' timings then fail under the load, so it is not the default (decision 0118).
const serial = process.env.KILN_TEST_OVERLAP !== '1';
const wanted = (name) => !only || only === name;

// The static checks run side by side (each is one busy thread), beside the native build when an
// install skipped it (`npm ci --ignore-scripts`, as .ci/run does: decision 0127). Each check's
// output is printed whole when it ends, in this order.
const checks = [
  ['typecheck', [bin('typescript', 'bin/tsc'), '--noEmit', '-p', 'tsconfig.json']],
  ['lint', [bin('eslint', 'bin/eslint.js'), '.', '--max-warnings=0']],
  // Dead code stays dead: unused files, exports, types and dependencies (knip.json says what runs).
  ['dead code (knip)', [bin('knip', 'bin/knip.js'), '--no-progress']],
  ...(withFormat ? [['format', [bin('prettier', 'bin/prettier.cjs'), '--check', '.']]] : []),
].filter(([name]) => wanted(name));
const native = unbuiltNative();
const nativeDone = native && runBeside(...native);
// The compile is the longest of this stage and one process: the others yield it its core.
const besideNative = native ? 10 : 0;
// The browser tests' inputs (scripts/e2e-inputs.mjs) are made now too: their global setup then
// finds them up to date.
const browser = await findChromium();
const e2eInputsDone =
  wanted('e2e') && browser
    ? runBeside(
        "the browser tests' inputs (fixture GLBs, the SPA)",
        [join(root, 'scripts', 'e2e-inputs.mjs')],
        join(results, 'e2e-inputs.log'),
        { nice: besideNative },
      )
    : null;
const checksDone = checks.map(([name, args], i) =>
  runBeside(name, args, join(results, `check-${i}.log`), { nice: besideNative }),
);
for (const [i, done] of checksDone.entries()) {
  const ok = await done();
  const [name] = checks[i];
  if (ok) passed++;
  else failed++;
  summary.push(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
}
if (nativeDone && !(await nativeDone())) {
  failed++;
  summary.push(`FAIL ${native[0]}: the tests that open a database cannot run`);
}

const unitOut = fresh('vitest.json');
if (wanted('unit')) countVitest('unit', await run('unit (vitest)', vitestArgs(unitOut)), unitOut);

// The scale group: PostgreSQL, an S3-compatible server, two replicas and nginx, all started by
// the tests themselves. Missing services are a failure that says what to install, never a skip.
const missing = wanted('scale') ? scaleMissing() : null;
const scaleOut = fresh('vitest-scale.json');
const scaleDone =
  wanted('scale') && !missing
    ? serial
      ? await (async () => {
          const ok = await run(
            'scale (vitest: PostgreSQL, S3, replicas, nginx)',
            vitestArgs(scaleOut, '-c', 'vitest.scale.config.ts'),
          );
          return async () => ok;
        })()
      : runBeside(
          'scale (vitest: PostgreSQL, S3, replicas, nginx)',
          vitestArgs(scaleOut, '-c', 'vitest.scale.config.ts'),
          join(results, 'scale.log'),
        )
    : null;

const e2eOut = fresh('e2e.json');
// A failed input is said by the global setup, which tries again and stops the suite.
await e2eInputsDone?.();
const e2eOk =
  wanted('e2e') && browser
    ? await run('e2e (playwright)', [bin('@playwright/test', 'cli.js'), 'test'])
    : null;

if (wanted('e2e') && !browser) {
  console.error(`\n━━ e2e (playwright) ━━\n${NO_CHROMIUM_HELP}`);
  failed++;
  summary.push('FAIL e2e: no Chromium');
} else if (e2eOk !== null) countPlaywright(`e2e (${browser.kind} chromium)`, e2eOk, e2eOut);

if (missing) {
  console.error(`\n━━ scale ━━\n${missing}`);
  failed++;
  summary.push(`FAIL scale: ${missing}`);
}
if (scaleDone) {
  countVitest('scale', await scaleDone(), scaleOut);
  if (browser) {
    const out = fresh('e2e-scale.json');
    const ok = await run('scale e2e (playwright through nginx)', [
      bin('@playwright/test', 'cli.js'),
      'test',
      '-c',
      'playwright.scale.config.ts',
    ]);
    countPlaywright('scale e2e', ok, out);
  }
}

console.log(`\n━━ stage times ━━\n${timeTable()}`);
console.log(`\n━━ summary ━━\n${summary.join('\n')}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
