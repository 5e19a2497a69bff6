// Before the suite: the viewer's fixture GLBs (Draco, Meshopt, KTX2, animated, large), made by
// scripts/make-viewer-fixtures.ts from Kiln's own generated models, kept between runs while the
// script is unchanged (seconds only the first time); and the SPA, built once here so that the
// workers' `npm start`s find it up to date instead of building it side by side.
import { execFileSync } from 'node:child_process';
import { buildWebIfStale } from '../scripts/build-web.mjs';

export default function globalSetup() {
  execFileSync('npx', ['tsx', 'scripts/make-viewer-fixtures.ts'], { stdio: 'inherit' });
  if (buildWebIfStale() !== 0) throw new Error('The SPA did not build (vite build failed)');
}
