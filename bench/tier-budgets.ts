// Prints, for every tier, the triangles and the largest texture side of every fixture photo and
// backdrop composite (one photo), and of the fixtures as views, against the tier's budget.
//   npx tsx bench/tier-budgets.ts
import { IMAGE_QUALITY, QUALITIES, VIEWS_QUALITY } from '../src/generator/index.ts';
import { imageToGlb } from '../src/generator/photo/image-to-glb.ts';
import { IMAGE_TO_GLB_DEFAULTS } from '../src/generator/photo/image-to-glb.ts';
import { VIEWS_TO_GLB_DEFAULTS, viewsToGlb } from '../src/generator/views/views-to-glb.ts';
import { BACKDROPS, composite } from '../src/testing/backdrops.ts';
import { PHOTO_NAMES } from '../src/testing/fixtures.ts';
import { inspectGlb, photo } from '../src/testing/generator.ts';

const rows: string[] = [];
let over = 0;
async function measure(label: string, tier: string, budget: number, glb: Uint8Array) {
  const g = await inspectGlb(glb);
  const side = Math.max(
    0,
    ...g.doc
      .getRoot()
      .listTextures()
      .map((t) => Math.max(...(t.getSize() ?? [0]))),
  );
  const ok = g.triangles <= budget;
  if (!ok) over++;
  rows.push(
    `${ok ? '  ' : '✗ '}${tier.padEnd(8)} ${label.padEnd(36)} ${String(g.triangles).padStart(7)} / ${budget}  tex ${side}`,
  );
}

for (const tier of QUALITIES) {
  const budget = IMAGE_QUALITY[tier].maxTriangles ?? IMAGE_TO_GLB_DEFAULTS.maxTriangles;
  for (const name of PHOTO_NAMES) {
    const bytes = await photo(name);
    await measure(name, tier, budget, await imageToGlb(bytes, IMAGE_QUALITY[tier])).catch((e) =>
      rows.push(`! ${tier} ${name} ${String(e)}`),
    );
    for (const b of BACKDROPS)
      await measure(
        `${name} on ${b}`,
        tier,
        budget,
        await imageToGlb(await composite(bytes, b), IMAGE_QUALITY[tier]),
      ).catch((e) => rows.push(`! ${tier} ${name} ${b} ${String(e).slice(0, 80)}`));
  }
  const vbudget = VIEWS_QUALITY[tier].maxTriangles ?? VIEWS_TO_GLB_DEFAULTS.maxTriangles;
  const all = await Promise.all(PHOTO_NAMES.map(photo));
  for (let i = 0; i + 1 < all.length; i++)
    for (const n of [2, 4]) {
      const views = all.slice(i, i + n);
      if (views.length < n) continue;
      await measure(
        `views ${PHOTO_NAMES.slice(i, i + n).join('+')}`,
        tier,
        vbudget,
        await viewsToGlb(views, VIEWS_QUALITY[tier]),
      ).catch((e) => rows.push(`! ${tier} views ${String(e).slice(0, 80)}`));
    }
}
console.log(rows.join('\n'));
console.log(`${over} over budget`);
