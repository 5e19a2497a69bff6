import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { ISOLATED_TESTS } from './scripts/isolated-tests.mjs';
import { longestFirst } from './scripts/longest-first.ts';

const ALL = ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'];
// The scale group (PostgreSQL, S3, nginx, several replicas) runs on its own: vitest.scale.config.ts.
const EXCLUDED = ['**/node_modules/**', '**/*.scale.test.ts'];
// The generator's checks over every fixture and backdrop (90 s, 90 s, 40 s, 25 s of one core):
// started first, they do not end the stage with a core idle.
const LONGEST = [
  'src/generator/runtime/tier-budgets.test.ts',
  'src/server/uploads/segmentation-paths.test.ts',
  'src/generator/photo/backdrop-panels.test.ts',
  'src/generator/photo/backdrops.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    // One test file per core. Vitest's default (cores − 1) keeps a core for its main process,
    // which only waits: on a 2-core machine that ran every file one after another (decision 0109).
    maxWorkers: availableParallelism(),
    // Two files at once on two cores (and on a shared machine) make a generator test slower than
    // alone: a time limit only says when a hung test is given up, so it leaves room.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    sequence: { sequencer: longestFirst(LONGEST) },
    // Most files share their worker's modules with the files run before them there: each of
    // sharp, Hono, gltf-transform and the generator is imported once per worker, not once per
    // file (a fifth of the unit stage's CPU). Files that replace a module, a global, the clock or
    // the environment keep a fresh module graph each (scripts/isolated-tests.mjs; decision 0128).
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ALL,
          exclude: [...EXCLUDED, ...ISOLATED_TESTS],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED_TESTS, exclude: EXCLUDED, isolate: true },
      },
    ],
  },
});
