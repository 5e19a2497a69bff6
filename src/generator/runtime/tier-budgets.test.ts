// Each tier keeps the triangle and texture budget it promises (issue 23), on every fixture photo
// and every backdrop composite of it, and on the fixtures as 2 and 4 views. bench/tier-budgets.ts
// prints the same figures.
import { describe, expect, it } from 'vitest';
import { IMAGE_TO_GLB_DEFAULTS, imageToGlb } from '../photo/image-to-glb.ts';
import { VIEWS_TO_GLB_DEFAULTS, viewsToGlb } from '../views/views-to-glb.ts';
import { BACKDROPS, composite } from '../../testing/backdrops.ts';
import { PHOTO_NAMES } from '../../testing/fixtures.ts';
import { inspectGlb, photo } from '../../testing/generator.ts';
import { IMAGE_QUALITY, QUALITIES, VIEWS_QUALITY } from './quality.ts';

async function measured(glb: Uint8Array) {
  const g = await inspectGlb(glb);
  const textureSide = Math.max(
    0,
    ...g.doc
      .getRoot()
      .listTextures()
      .map((t) => Math.max(...(t.getSize() ?? [0]))),
  );
  return { triangles: g.triangles, textureSide };
}

describe.each(QUALITIES)('the %s tier keeps its budget', (tier) => {
  const image = { ...IMAGE_TO_GLB_DEFAULTS, ...IMAGE_QUALITY[tier] };
  const views = { ...VIEWS_TO_GLB_DEFAULTS, ...VIEWS_QUALITY[tier] };

  it.each(PHOTO_NAMES)(
    'one photo, %s, alone and on every backdrop',
    async (name) => {
      const bytes = await photo(name);
      const inputs = [bytes, ...(await Promise.all(BACKDROPS.map((b) => composite(bytes, b))))];
      for (const [i, input] of inputs.entries()) {
        const what = i === 0 ? name : `${name} on ${BACKDROPS[i - 1]}`;
        const m = await measured(await imageToGlb(input, IMAGE_QUALITY[tier]));
        expect(m.triangles, what).toBeLessThanOrEqual(image.maxTriangles);
        expect(m.textureSide, what).toBeLessThanOrEqual(image.textureMaxSide);
      }
    },
    120_000,
  );

  it('several views: the fixtures two and four at a time', async () => {
    const all = await Promise.all(PHOTO_NAMES.map(photo));
    for (let i = 0; i + 1 < all.length; i++)
      for (const n of [2, 4]) {
        if (i + n > all.length) continue;
        const what = PHOTO_NAMES.slice(i, i + n).join(' + ');
        const m = await measured(await viewsToGlb(all.slice(i, i + n), VIEWS_QUALITY[tier]));
        expect(m.triangles, what).toBeLessThanOrEqual(views.maxTriangles);
        expect(m.textureSide, what).toBeLessThanOrEqual(views.textureSize);
      }
  }, 180_000);
});
