// Issue 33: exact duplicate blocks (six or more identical lines, imports aside) in src/ stay at
// five or fewer; a new one past that fails here, naming both places.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { duplicateBlocks } from './duplicate-blocks.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MOST = 5;

describe('exact duplicate blocks in src/', () => {
  it(`are ${MOST} or fewer`, () => {
    const blocks = duplicateBlocks(join(ROOT, 'src'), ROOT);
    expect(
      blocks.length,
      blocks.map((b) => `${b.lines} lines: ${b.a} = ${b.b}`).join('\n'),
    ).toBeLessThanOrEqual(MOST);
  });

  it('finds a block of six lines written twice, and not imports or brackets', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiln-dup-'));
    mkdirSync(join(dir, 'a'));
    const body = [
      'const a = 1;',
      'const b = a + 1;',
      'log(a);',
      'log(b);',
      'save(a, b);',
      'done();',
    ];
    const imports = ['import {', '  one,', '  two,', '  three,', '  four,', "} from './x.ts';"];
    writeFileSync(join(dir, 'a', 'one.ts'), [...imports, ...body, '}', '}'].join('\n'));
    writeFileSync(join(dir, 'two.ts'), [...imports, 'other();', '', ...body].join('\n'));
    writeFileSync(join(dir, 'three.ts'), [...imports, '}', '})', '});', '}', '}', '}'].join('\n'));
    const found = duplicateBlocks(dir);
    expect(found).toEqual([{ a: 'a/one.ts:7', b: 'two.ts:9', lines: 6 }]);
  });
});
