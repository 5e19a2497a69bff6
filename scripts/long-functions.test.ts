// The lint rule against long functions (decision 0106), through Kiln's own eslint.config.js: it
// fires on logic of 81 lines and on a component of 121, not on one line less; describe callbacks
// (and functions that only declare describe blocks) are not measured but the tests in them are;
// and the files split for it pass.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: repo, overrideConfigFile: 'eslint.config.js' });

const RULE = 'kiln/max-lines-per-function';

/** What the rule says of `text` linted as the file `path` (relative to the repository). */
async function longFunctions(text: string, path: string): Promise<string[]> {
  const [result] = await eslint.lintText(text, { filePath: `${repo}${path}` });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

/** A function of `lines` code lines, with blank and comment lines that do not count. */
function logic(lines: number): string {
  const body = Array.from({ length: lines - 4 }, (_, i) => `  n += ${i};`);
  return [
    'export function long(): number {',
    '  // Comment lines do not count,',
    '',
    '  /* nor do blank ones. */',
    '  let n = 0;',
    ...body,
    '',
    '  return n;',
    '}',
    '',
  ].join('\n');
}

/** A React component of `lines` code lines. */
function component(lines: number): string {
  const rows = Array.from({ length: lines - 6 }, (_, i) => `      <p>row {${i}}</p>`);
  return [
    'export function Big() {',
    '  return (',
    '    <div>',
    ...rows,
    '    </div>',
    '  );',
    '}',
    '',
  ].join('\n');
}

/** A test file: a describe block of `cases` short tests, and one test of `longest` lines. */
function testFile(cases: number, longest: number): string {
  const short = Array.from(
    { length: cases },
    (_, i) => `  it('case ${i}', () => {\n    expect(${i}).toBe(${i});\n  });`,
  );
  const steps = Array.from({ length: longest - 2 }, (_, i) => `    expect(${i}).toBe(${i});`);
  return [
    "import { describe, expect, it } from 'vitest';",
    "describe('many cases', () => {",
    ...short,
    "  it('one long case', () => {",
    ...steps,
    '  });',
    '});',
    '',
  ].join('\n');
}

describe('kiln/max-lines-per-function in eslint.config.js', { timeout: 60_000 }, () => {
  it('fires on logic of 81 lines, naming the limit and the way out, not on 80', async () => {
    const messages = await longFunctions(logic(81), 'src/server/fixture-long.ts');
    expect(messages).toEqual([expect.stringContaining("Function 'long' has too many lines (81)")]);
    expect(messages[0]).toContain('Maximum allowed is 80');
    expect(messages[0]).toContain('LONG_FUNCTIONS');
    expect(await longFunctions(logic(80), 'src/server/fixture-long.ts')).toEqual([]);
    // The same holds outside the server: scripts, the mock, and a .ts file of src/web.
    expect(await longFunctions(logic(81), 'scripts/fixture-long.mjs')).toHaveLength(1);
    expect(await longFunctions(logic(81), 'src/web/lib/fixture-long.ts')).toHaveLength(1);
  });

  it('fires on a React component of 121 lines, not on 120', async () => {
    const messages = await longFunctions(component(121), 'src/web/ui/fixture-big.tsx');
    expect(messages).toEqual([expect.stringContaining("Function 'Big' has too many lines (121)")]);
    expect(messages[0]).toContain('Maximum allowed is 120');
    expect(await longFunctions(component(120), 'src/web/ui/fixture-big.tsx')).toEqual([]);
  });

  it('measures the tests in a describe block, not the block', async () => {
    // 40 short tests make a describe callback of over 120 lines: a list, not one function.
    expect(await longFunctions(testFile(40, 60), 'src/server/fixture.test.ts')).toEqual([]);
    const messages = await longFunctions(testFile(40, 81), 'src/server/fixture.test.ts');
    expect(messages).toEqual([expect.stringContaining('Arrow function has too many lines (81)')]);
    // A suite built by a named function that only declares describe blocks: the same.
    const built = testFile(40, 10).replace(
      "describe('many cases', () => {",
      "export function suite() {\n  describe('many cases', () => {",
    );
    expect(await longFunctions(`${built}}\n`, 'src/testing/fixture-suite.ts')).toEqual([]);
    // Playwright's test.describe too.
    const e2e = testFile(40, 10).replace("describe('many", "test.describe('many");
    expect(await longFunctions(e2e, 'e2e/fixture.spec.ts')).toEqual([]);
  });

  it('passes the files split for it, as they are on disk', async () => {
    const files = [
      'src/testing/storage-suite.ts',
      'src/testing/storage-suite/optimise-jobs.ts',
      'src/testing/viewer-fixtures.ts',
      'src/testing/viewer-fixtures/rigged-character.ts',
      'src/server/storage/collections.ts',
      'src/server/storage/collection-members.ts',
      'src/server/proxy/routes.ts',
      'src/server/proxy/create.ts',
      'src/server/library/routes.ts',
      'src/server/library/credits-route.ts',
      'src/generator/photo/relief.ts',
      'src/web/features/generate/generate-form.tsx',
      'src/web/features/generate/image-inputs.tsx',
      'src/web/features/generate/use-image-items.ts',
      'src/server/collections/routes.ts',
      'src/server/collections/owner-routes.ts',
      'src/server/optimise/routes.ts',
      'src/server/share/routes.ts',
      'src/server/uploads/routes.ts',
      'src/server/uploads/store-upload.ts',
      'src/mock/routes/generations.ts',
      'src/server/storage/idempotency.ts',
      'src/server/storage/library-list.ts',
      'src/server/storage/library-tasks.ts',
      'src/server/storage/optimise-jobs.ts',
      'src/server/storage/s3-blobs.ts',
      'src/server/storage/uploads.ts',
    ];
    const results = await eslint.lintFiles(files.map((f) => `${repo}${f}`));
    expect(results).toHaveLength(files.length);
    for (const r of results) expect(r.messages.filter((m) => m.ruleId === RULE)).toEqual([]);
  });
});
