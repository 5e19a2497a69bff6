// Prints where segmentation's outcome depends on how a photo reached the generator (issue 23,
// item 1): every fixture photo and backdrop composite, as sent (a file or a data: URI), as Kiln
// stores an upload, as a copy of that stored copy, and re-encoded as JPEG at quality 70 to 100,
// at each tier's grid.   npx tsx bench/segmentation-paths.ts
import { IMAGE_QUALITY, QUALITIES } from '../src/generator/index.ts';
import { IMAGE_TO_GLB_DEFAULTS } from '../src/generator/photo/image-to-glb.ts';
import { loadSubject } from '../src/generator/photo/subject.ts';
import { BACKDROPS, composite } from '../src/testing/backdrops.ts';
import { reEncodings } from '../src/testing/images.ts';
import { PHOTO_NAMES } from '../src/testing/fixtures.ts';
import { photo } from '../src/testing/generator.ts';

const outcome = async (bytes: Uint8Array, grid: number) => {
  try {
    await loadSubject(bytes, { gridLongSide: grid, thinGridFactor: 2 });
    return 'ok';
  } catch (err) {
    return `refused: ${(err as Error).message.slice(0, 70)}`;
  }
};

let flips = 0;
let cases = 0;
for (const name of PHOTO_NAMES) {
  const original = await photo(name);
  for (const backdrop of [null, ...BACKDROPS]) {
    const sent = backdrop ? await composite(original, backdrop) : original;
    // "as sent", "stored", "stored again", "jpeg 70" … as this bench has always labelled them.
    const variants = (await reEncodings(sent)).map(([how, bytes]): [string, Uint8Array] => [
      how === 'sent' ? 'as sent' : how,
      bytes,
    ]);
    for (const tier of QUALITIES) {
      const grid = IMAGE_QUALITY[tier].gridLongSide ?? IMAGE_TO_GLB_DEFAULTS.gridLongSide;
      const results = await Promise.all(
        variants.map(async ([label, b]) => [label, await outcome(b, grid)] as const),
      );
      cases++;
      const distinct = new Set(results.map(([, r]) => (r === 'ok' ? 'ok' : 'refused')));
      if (distinct.size > 1 || !distinct.has('ok')) {
        flips++;
        console.log(
          `${name} ${backdrop ?? '(alpha)'} ${tier}: ${results.map(([l, r]) => `${l}=${r}`).join(' | ')}`,
        );
      }
    }
  }
}
console.log(`${flips} of ${cases} photo × tier cases differ by path or are refused`);
