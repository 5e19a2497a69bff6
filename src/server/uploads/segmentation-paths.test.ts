// What works dropped works pasted (issue 23, item 1): every fixture photo and backdrop composite
// is told apart from its backdrop alike however it reached the generator (the bytes sent, a data:
// URI of them, Kiln's stored upload, a copy of that copy, JPEG re-encodes at quality 70 to 100),
// at each tier's grid (alpha, beta, gamma). bench/segmentation-paths.ts prints the same.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IMAGE_QUALITY, QUALITIES } from '../../generator/index.ts';
import { IMAGE_TO_GLB_DEFAULTS } from '../../generator/photo/image-to-glb.ts';
import { loadSubject } from '../../generator/photo/subject.ts';
import { BACKDROPS, composite } from '../../testing/backdrops.ts';
import { PHOTO_NAMES } from '../../testing/fixtures.ts';
import { photo } from '../../testing/generator.ts';
import { normaliseImage } from './normalise-image.ts';

const outcome = (bytes: Uint8Array, grid: number) =>
  loadSubject(bytes, { gridLongSide: grid, thinGridFactor: 2 }).then(
    () => 'an object',
    (err: Error) => err.message,
  );

describe('a photo is read alike however it reached the generator', () => {
  it.each(PHOTO_NAMES)(
    '%s, alone and on every backdrop, at every tier',
    async (name) => {
      const original = await photo(name);
      for (const backdrop of [null, ...BACKDROPS]) {
        const sent = backdrop ? await composite(original, backdrop) : original;
        const stored = (await normaliseImage(sent)).bytes;
        const variants: [string, Uint8Array][] = [
          ['the file (or its data: URI)', sent],
          ['Kiln’s stored upload', stored],
          ['a copy of the stored upload', (await normaliseImage(stored)).bytes],
          ...(await Promise.all(
            [70, 85, 100].map(
              async (q) =>
                [
                  `JPEG at quality ${q}`,
                  new Uint8Array(
                    await sharp(sent)
                      .flatten({ background: '#ffffff' })
                      .jpeg({ quality: q })
                      .toBuffer(),
                  ),
                ] as [string, Uint8Array],
            ),
          )),
        ];
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
    180_000,
  );
});
