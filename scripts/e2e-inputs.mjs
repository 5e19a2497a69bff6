#!/usr/bin/env node
// What the browser tests need before their first worker starts: the viewer's fixture GLBs (Draco,
// Meshopt, KTX2, animated, large), made by scripts/make-viewer-fixtures.ts from Kiln's own
// generated models and kept while that script is unchanged; and the SPA, built once so that the
// workers' `npm start`s find it up to date instead of building it side by side. Playwright's
// global setup calls this; `npm test` runs it earlier, beside its static checks (decision 0127),
// and the global setup then finds both up to date.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWebIfStale } from './build-web.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

export function prepareE2eInputs() {
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/make-viewer-fixtures.ts'],
    { cwd: root, stdio: 'inherit' },
  );
  if (buildWebIfStale() !== 0) throw new Error('The SPA did not build (vite build failed)');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) prepareE2eInputs();
