// The repository stands alone: a clone with nothing beside it installs, starts and passes its tests.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PHOTO_NAMES, PHOTOS_DIR } from '../src/testing/fixtures.ts';

const ROOT = join(import.meta.dirname, '..');

describe('the repository stands alone', () => {
  it('has no tracked file that reaches outside it for the shared folder', () => {
    const outside = ['..', 'shared'].join('/'); // spelt apart so this file does not match itself
    let hits = '';
    try {
      hits = execFileSync('git', ['grep', '-l', '-F', outside], {
        cwd: ROOT,
        encoding: 'utf8',
      });
    } catch (err) {
      if ((err as { status?: number }).status !== 1) throw err; // 1: no match
    }
    expect(hits.trim().split('\n').filter(Boolean)).toEqual([]);
  });

  it('carries its fixture photos with their licence, and the API spec', () => {
    for (const name of PHOTO_NAMES) expect(existsSync(join(PHOTOS_DIR, name)), name).toBe(true);
    expect(existsSync(join(PHOTOS_DIR, 'LICENSE-TripoSR.txt'))).toBe(true);
    expect(existsSync(join(ROOT, 'docs', 'spec', 'image-to-3d-api.md'))).toBe(true);
  });
});
