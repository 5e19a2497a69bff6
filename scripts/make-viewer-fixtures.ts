// Makes the viewer's test fixtures (draco, meshopt, animated, large, ktx2 GLBs) from Kiln's own
// generated models; the work is in src/testing/viewer-fixtures.ts.
// Usage: npx tsx scripts/make-viewer-fixtures.ts [outDir]   (default fixtures/viewer/)
import { resolve } from 'node:path';
import {
  DEFAULT_OUT_DIR,
  formatTable,
  makeViewerFixtures,
} from '../src/testing/viewer-fixtures.ts';

const outDir = process.argv[2] ?? DEFAULT_OUT_DIR;
const started = performance.now();
const fixtures = await makeViewerFixtures(outDir);
console.log(formatTable(fixtures));
console.log(
  `\n${fixtures.length} fixtures in ${resolve(outDir)} (${((performance.now() - started) / 1000).toFixed(1)} s).`,
);
