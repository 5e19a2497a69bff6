// Unit test files share their worker's modules unless listed in scripts/isolated-tests.mjs
// (decision 0128). A file that replaces a module, a global, the environment or the clock, or runs
// in a DOM environment, would leave that to the files after it: it must be listed.
import { readFileSync, readdirSync } from 'node:fs';
import { join, matchesGlob, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ISOLATED_TESTS } from './isolated-tests.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));

/** What a test file may change for the files after it, by the words that do it. */
const LEAKS: [string, RegExp][] = [
  ['replaces a module', /\bvi\.(do)?mock\(/],
  ['replaces a global', /\bvi\.stubGlobal\(|\bglobalThis\.\w+\s*=[^=]|defineProperty\(globalThis/],
  [
    'changes the environment',
    /\bvi\.stubEnv\(|\bprocess\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env/,
  ],
  ['replaces the clock', /\bvi\.useFakeTimers\(|\bsetSystemTime\(/],
  ['spies on a module', /\bvi\.spyOn\(/],
  ['runs in a DOM', /@vitest-environment/],
];

function testFiles(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.test\.tsx?$/.test(e.name) && !e.name.includes('.scale.'))
    .map((e) => relative(repo, join(e.parentPath, e.name)));
}

const isolated = (file: string) => ISOLATED_TESTS.some((glob) => matchesGlob(file, glob));

/** Why `text` must run isolated: the leaks it has. */
function leaksOf(text: string): string[] {
  return LEAKS.filter(([, pattern]) => pattern.test(text)).map(([why]) => why);
}

describe('test files that change what the next file meets run isolated', () => {
  it('finds each kind of change', () => {
    expect(leaksOf("vi.mock('../x.ts')")).toEqual(['replaces a module']);
    expect(leaksOf("vi.stubGlobal('fetch', f)")).toEqual(['replaces a global']);
    expect(leaksOf('process.env.PORT = "1"')).toEqual(['changes the environment']);
    expect(leaksOf('vi.useFakeTimers()')).toEqual(['replaces the clock']);
    expect(leaksOf('if (process.env.CI === "true") {}')).toEqual([]);
  });

  it('every such file is listed in scripts/isolated-tests.mjs', () => {
    const files = ['src', 'scripts', 'bench'].flatMap(testFiles);
    expect(files.length).toBeGreaterThan(100);
    const unlisted = files
      .filter((f) => f !== 'scripts/isolated-tests.test.ts' && !isolated(f))
      .map((f) => [f, leaksOf(readFileSync(join(repo, f), 'utf8'))] as const)
      .filter(([, why]) => why.length > 0)
      .map(([f, why]) => `${f}: ${why.join(', ')}`);
    expect(unlisted).toEqual([]);
  });
});
