import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from './errors.ts';

const SRC = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

describe('error codes', () => {
  it('are all listed in the contract: the server and the mock write none of their own', () => {
    const literal = /\bcode:\s*'([a-z_]+)'/g;
    const strays: string[] = [];
    for (const file of [...sources(join(SRC, 'server')), ...sources(join(SRC, 'mock'))])
      for (const m of readFileSync(file, 'utf8').matchAll(literal))
        if (m[1] !== 'custom') strays.push(`${file.slice(SRC.length)}: ${m[1]}`);
    expect(strays).toEqual([]);
  });

  it('are distinct snake_case words', () => {
    const codes = Object.values(ERROR_CODES);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of codes) expect(c).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
  });
});
