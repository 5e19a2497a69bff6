// Before the suite: the viewer's fixture GLBs (Draco, Meshopt, KTX2, animated, large), made by
// scripts/make-viewer-fixtures.ts from Kiln's own generated models. Kept between runs while the
// script is unchanged, so this costs seconds only the first time.
import { execFileSync } from 'node:child_process';

export default function globalSetup() {
  execFileSync('npx', ['tsx', 'scripts/make-viewer-fixtures.ts'], { stdio: 'inherit' });
}
