import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginQuery from '@tanstack/eslint-plugin-query';
import globals from 'globals';
import { kilnPlugin } from './scripts/no-feature-cycle.mjs';
import { maxLinesPerFunction } from './scripts/long-functions.mjs';

/** Kiln's own rules: features never in a circle (0107), functions that fit in one head (0106). */
const kiln = {
  rules: { ...kilnPlugin.rules, 'max-lines-per-function': maxLinesPerFunction },
};

/** How lines are counted: code only, blank and comment lines not. */
const COUNTING = { skipBlankLines: true, skipComments: true, IIFEs: true };
/** The longest a function may run (decision 0106): logic, and a React component of src/web. */
const LOGIC_MAX = 80;
const COMPONENT_MAX = 120;

// Reasons shared by several files of LONG_FUNCTIONS.
const JOURNEY = 'one user journey in one page: its steps share the page and read top to bottom';
const BENCH = 'a benchmark run, read top to bottom: not product code';
const SCENARIO = 'one test whose steps share their state: a long scenario, not long logic';
const RECIPE = "a prompt subject's recipe: its parts placed one after another, a line each";

/**
 * Files with a function longer than the rule allows: [file, ceiling, reason]. The ceiling is its
 * longest function today, so nothing in it grows; the reason says why it is not split yet.
 * Shrink this list; never add to it without a reason a reviewer accepts.
 */
const LONG_FUNCTIONS = [
  ['bench/gallery.ts', 120, BENCH],
  ['bench/generator.ts', 95, BENCH],
  ['bench/grabcut.ts', 141, BENCH],
  ['bench/viewer.ts', 92, BENCH],
  ['e2e/batch.spec.ts', 102, JOURNEY],
  ['e2e/collections.spec.ts', 188, JOURNEY],
  ['e2e/gallery.spec.ts', 166, JOURNEY],
  ['e2e/names.spec.ts', 112, JOURNEY],
  ['e2e/optimise.spec.ts', 99, JOURNEY],
  ['e2e/share-phone.spec.ts', 99, JOURNEY],
  ['e2e/share.spec.ts', 132, JOURNEY],
  ['e2e/studio.spec.ts', 82, JOURNEY],
  ['e2e/viewer.spec.ts', 123, JOURNEY],
  [
    'src/generator/core/surface-nets.ts',
    106,
    'one numeric kernel (surface nets) over shared typed arrays, kept whole for speed',
  ],
  [
    'src/generator/photo/backdrop-panels.ts',
    100,
    'one region-growing pass whose steps share its frontier',
  ],
  [
    'src/generator/photo/depth-cues.ts',
    99,
    'one search for a support under the object, its steps sharing the scan',
  ],
  ['src/generator/prompt/creatures.ts', 118, RECIPE],
  ['src/generator/prompt/furniture.ts', 83, RECIPE],
  [
    'src/generator/prompt/geometry/boxes.ts',
    81,
    'one numeric kernel (a union of boxes) over shared typed arrays',
  ],
  ['src/generator/prompt/machines.ts', 119, RECIPE],
  ['src/generator/prompt/produce.ts', 123, RECIPE],
  [
    'src/generator/prompt/understand.ts',
    113,
    'the prompt reader: one pass over the words whose clauses share running state',
  ],
  [
    'src/generator/views/views-to-glb.ts',
    98,
    'the multi-view pipeline in order: its options checked, then each step one call',
  ],
  [
    'src/net/exchange.ts',
    83,
    'one guarded read of a response body (limits, time-out, abort), its steps sharing the reader',
  ],
  [
    'src/net/safe-fetch.test.ts',
    97,
    'a scripted test server: one switch over the paths it answers',
  ],
  ['src/server/app.ts', 177, "the app's composition: every mount in its order, read as one list"],
  ['src/server/collections/preview.test.ts', 84, SCENARIO],
  ['src/server/collections/replicas.scale.test.ts', 99, SCENARIO],
  ['src/server/collections/routes.test.ts', 175, SCENARIO],
  [
    'src/server/library/archive.ts',
    99,
    'the archiver: one lease-guarded loop with its back-off, to be split by step',
  ],
  [
    'src/server/library/ledger.ts',
    140,
    'the balance derivation: one pass over the ledger whose cases share running totals',
  ],
  [
    'src/server/library/service.ts',
    124,
    'the library service: to be split into parts by concern, as the stores are',
  ],
  ['src/server/ops/metrics.ts', 92, 'the metrics registry: one declaration per metric'],
  ['src/server/optimise/job-record.ts', 89, "a job's write-through record over one shared state"],
  [
    'src/server/optimise/jobs.ts',
    122,
    'optimise admission, polls and draining over one shared queue state',
  ],
  [
    'src/server/services.ts',
    86,
    "the services' composition: each made from the ones before it, in order",
  ],
  [
    'src/server/share/preview.ts',
    87,
    'one card composed in order (picture, title, subtitle, mark) into one list of layers',
  ],
  [
    'src/testing/render-views.ts',
    114,
    'one view rasterised in software: its steps share the triangle buffers',
  ],
  [
    'src/testing/server.ts',
    95,
    "the test server's set-up: every part started in order and torn down together",
  ],
  [
    'src/testing/stack.ts',
    96,
    "the scaled stack's start: services started in order and stopped together",
  ],
  ['src/workers/pool.ts', 88, 'the worker pool: its queue, workers and shutdown share one state'],
];

/** The folders of src/web/features. */
const WEB_FEATURES = readdirSync(new URL('./src/web/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

export default tseslint.config(
  { ignores: ['dist', 'build', 'node_modules', '.data', 'test-results', 'playwright-report'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...pluginQuery.configs['flat/recommended'],
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { kiln },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      'kiln/max-lines-per-function': ['error', { max: LOGIC_MAX, ...COUNTING }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // A React component may run longer than logic: its JSX is a picture of what it shows.
    files: ['src/web/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    rules: { 'kiln/max-lines-per-function': ['error', { max: COMPONENT_MAX, ...COUNTING }] },
  },
  ...LONG_FUNCTIONS.map(([file, max]) => ({
    files: [file],
    rules: { 'kiln/max-lines-per-function': ['error', { max, ...COUNTING }] },
  })),
  {
    // The composition root (main.ts, and kiln-config.ts, which reads its environment) puts the
    // server and the built-in mock together; nothing else in the server knows the mock.
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/main.ts', 'src/server/kiln-config.ts', '**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/mock/**', '**/generator/**', '**/web/**'] },
      ],
    },
  },
  {
    files: ['src/mock/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/server/**', '**/web/**', '**/client/**'] },
      ],
    },
  },
  {
    // What the server and the mock answer alike (decision 0082): the contract and Hono only.
    files: ['src/http/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '**/server/**',
            '**/mock/**',
            '**/web/**',
            '**/client/**',
            '**/generator/**',
            'node:*',
          ],
        },
      ],
    },
  },
  {
    // The generator is a package of its own: its folders use each other, and nothing of Kiln's.
    files: ['src/generator/**/*.{ts,mjs}'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/contract/**',
                '**/client/**',
                '**/web/**',
                '**/server/**',
                '**/mock/**',
                '**/net/**',
                '**/db/**',
                '**/testing/**',
                '**/async/**',
              ],
              message:
                'The generator imports nothing of Kiln’s but src/formats (dependency-free format knowledge) and src/workers (the worker-thread pool): it is used by the mock, not part of it.',
            },
          ],
        },
      ],
    },
  },
  {
    // The worker-thread pool is shared by the generator and the server: nothing of Kiln's.
    files: ['src/workers/**/*.{ts,mjs}'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*'],
              message:
                'src/workers imports nothing of Kiln’s: the generator and the server both use it.',
            },
          ],
        },
      ],
    },
  },
  {
    // A browser spec runs against its worker's own Kiln (e2e/fixtures.ts): Playwright's bare
    // `test` has no server behind its baseURL.
    files: ['e2e/**/*.spec.ts'],
    ignores: ['e2e/**/*.scale.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test', 'expect'],
              message: "Import test and expect from './fixtures.ts': each worker has its own Kiln.",
            },
          ],
        },
      ],
    },
  },
  {
    // Format knowledge is isomorphic and dependency-free: nothing of Kiln's, nothing of Node's.
    files: ['src/formats/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['../*', 'node:*', 'sharp', 'zod', 'react', 'three'] },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Imports flow one way: web → client → contract (tests may reach the mock).
    files: ['src/web/**/*.{ts,tsx}', 'src/client/**/*.ts', 'src/contract/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/server/**', '**/mock/**', '**/generator/**', 'node:*'] },
      ],
    },
  },
  // The shared layers sit under the features: api, lib and ui import no feature and no page.
  {
    files: ['src/web/{api,lib,ui}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/mock/**', '**/generator/**', 'node:*'] },
            {
              group: ['../features/**', '../app/**'],
              message: 'src/web/{api,lib,ui} are shared by the features: they import none of them.',
            },
          ],
        },
      ],
    },
  },
  // One way out: only src/web/api/transport.ts talks HTTP (decision 0080).
  {
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['src/web/api/transport.ts', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'EventSource', 'WebSocket'].map((name) => ({
          name,
          message:
            'Only src/web/api/transport.ts talks HTTP: use (or add) a function of a resource file in src/web/api.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...['window', 'globalThis', 'self'].flatMap((object) =>
          ['fetch', 'XMLHttpRequest'].map((property) => ({
            object,
            property,
            message: 'Only src/web/api/transport.ts talks HTTP.',
          })),
        ),
      ],
    },
  },
  // A feature imports no other feature's insides: what several need lives in src/web/{api,lib,ui}.
  // A feature's index.ts is its public entry (the viewer, the share button, the studio's parts):
  // that one file may be imported. Every page lives in a feature (features/studio composes the
  // generate form and the tasks through their index.ts).
  // …and never in a circle (decision 0107): a feature imports no feature that reaches it back,
  // through any number of index.ts files (a file-level cycle check cannot see this).
  {
    files: ['src/web/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'kiln/no-feature-cycle': 'error' },
  },
  ...WEB_FEATURES.map((feature) => ({
    files: [`src/web/features/${feature}/**/*.{ts,tsx}`],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/mock/**', '**/generator/**', 'node:*'] },
            ...WEB_FEATURES.filter((other) => other !== feature).map((other) => ({
              group: [
                `../${other}/**`,
                `../../${other}/**`,
                `**/features/${other}/**`,
                `!../${other}/index.ts`,
                `!../../${other}/index.ts`,
                `!**/features/${other}/index.ts`,
              ],
              message: `A feature imports no other feature's insides: use its public index.ts (features/${other}/index.ts), or move what both need to src/web/{api,lib,ui}.`,
            })),
            {
              group: ['../../app/**', '../../../app/**', '**/web/app/**'],
              message: 'The app composes the features; a feature does not import the app.',
            },
          ],
        },
      ],
      // The same two rules for import() (no-restricted-imports reads static imports only).
      'no-restricted-syntax': [
        'error',
        {
          selector: `ImportExpression[source.value=/^(\\.\\.\\/)+(features\\/)?(${WEB_FEATURES.filter((o) => o !== feature).join('|')})\\/(?!index\\.ts$)/]`,
          message:
            'A feature imports no other feature’s insides, lazily or not (its index.ts only).',
        },
        {
          selector: 'ImportExpression[source.value=/^(\\.\\.\\/)+app\\//]',
          message: 'The app composes the features; a feature does not import the app.',
        },
      ],
    },
  })),
);
