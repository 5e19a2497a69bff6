// What works dropped works pasted (issue 23, item 1): every fixture photo and backdrop composite
// is told apart from its backdrop alike however it reached the generator (the bytes sent, a data:
// URI of them, Kiln's stored upload, a copy of that copy, JPEG re-encodes at quality 70 to 100),
// at each tier's grid (alpha, beta, gamma). bench/segmentation-paths.ts prints the same.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IMAGE_QUALITY, QUALITIES } from '../../generator/index.ts';
import { IMAGE_TO_GLB_DEFAULTS } from '../../generator/photo/image-to-glb.ts';
import { loadSubject } from '../../generator/photo/subject.ts';
import { BACKDROPS, composite } from '../../testing/backdrops.ts';
import { reEncodings, type ReEncoding } from '../../testing/images.ts';
import { PHOTO_NAMES } from '../../testing/fixtures.ts';
import { photo } from '../../testing/generator.ts';

const read = (bytes: Uint8Array, grid: number) =>
  loadSubject(bytes, { gridLongSide: grid, thinGridFactor: 2 }).then(
    () => 'an object',
    (err: Error) => err.message,
  );

/**
 * The verdict on these bytes at this grid. Paths that deliver the very same bytes (a composite
 * is stored as sent; storing a stored upload again changes nothing) are read once: the reading
 * is a pure function of the bytes and the grid, and each path is still asserted on by name.
 */
const verdicts = new Map<string, Promise<string>>();
function outcome(bytes: Uint8Array, grid: number): Promise<string> {
  const key = `${createHash('sha256').update(bytes).digest('hex')}@${grid}`;
  let verdict = verdicts.get(key);
  if (!verdict) verdicts.set(key, (verdict = read(bytes, grid)));
  return verdict;
}

/** What each re-encoding is called in a failure message. */
const WORDS: Record<ReEncoding, string> = {
  sent: 'the file (or its data: URI)',
  stored: 'Kiln’s stored upload',
  'stored again': 'a copy of the stored upload',
  'jpeg 70': 'JPEG at quality 70',
  'jpeg 85': 'JPEG at quality 85',
  'jpeg 100': 'JPEG at quality 100',
};

describe('a photo is read alike however it reached the generator', () => {
  it.each(PHOTO_NAMES)(
    '%s, alone and on every backdrop, at every tier',
    async (name) => {
      const original = await photo(name);
      for (const backdrop of [null, ...BACKDROPS]) {
        const sent = backdrop ? await composite(original, backdrop) : original;
        const variants = (await reEncodings(sent)).map(([how, bytes]): [string, Uint8Array] => [
          WORDS[how],
          bytes,
        ]);
        for (const tier of QUALITIES) {
          const grid = IMAGE_QUALITY[tier].gridLongSide ?? IMAGE_TO_GLB_DEFAULTS.gridLongSide;
          for (const [how, bytes] of variants)
            expect(
              await outcome(bytes, grid),
              `${name} on ${backdrop ?? 'its alpha'}, ${how}, ${tier}`,
            ).toBe('an object');
        }
      }
    },
    // Each tier reads the photo on the standard grid first (decision 0098): about 1.4× the work.
    360_000,
  );
});
