import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageToGlb } from '../index.ts';
import { BACKDROPS, composite } from '../../testing/backdrops.ts';
import {
  expectCleanModel,
  inspectGlb,
  iou,
  normaliseMask,
  photo,
  renderSilhouette,
} from '../../testing/generator.ts';
import { loadSubject } from './subject.ts';

const PHOTOS = ['chair', 'flamingo', 'hamburger', 'horse', 'robot'] as const;

describe('objects on real backdrops (composites of the alpha photos; the alpha is the truth)', () => {
  it.each(PHOTOS)('%s: the mask matches the alpha on every backdrop', async (name) => {
    const bytes = await photo(`${name}.png`);
    const truth = (await loadSubject(bytes)).mask;
    const scores: string[] = [];
    for (const backdrop of BACKDROPS) {
      const subject = await loadSubject(await composite(bytes, backdrop));
      expect(subject.usesAlpha).toBe(false);
      const score = iou(subject.mask, truth);
      scores.push(`${backdrop} ${score.toFixed(2)}`);
      // Every composite, the flamingo's thin legs on wood grain and on a table too (decision 0064).
      expect(score, `${backdrop}: ${scores.join(', ')}`).toBeGreaterThanOrEqual(0.9);
    }
  });

  it.each([
    ['chair', 'two-tone-horizon'],
    ['robot', 'vertical-gradient'],
    ['horse', 'wall-with-shadow'],
    ['hamburger', 'jpeg-70'],
  ] as const)('%s on %s: a clean model whose front matches the alpha', async (name, backdrop) => {
    const bytes = await photo(`${name}.png`);
    const glb = await inspectGlb(await imageToGlb(await composite(bytes, backdrop)));
    expectCleanModel(glb);
    const { data, info } = await sharp(bytes)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const inside = new Uint8Array(info.width * info.height);
    for (let i = 0; i < inside.length; i++) inside[i] = data[i * 4 + 3]! >= 128 ? 1 : 0;
    const expected = normaliseMask({ width: info.width, height: info.height, inside }, 256, 256);
    expect(iou(renderSilhouette(glb.doc, 'front', 256, 256), expected)).toBeGreaterThanOrEqual(0.9);
  });

  it("keeps backdrop-coloured parts at the base (a skate's grey frame), and drops the shadow", async () => {
    // A roller skate on a light grey sweep: a dark red boot, a grey frame under it (the
    // backdrop's colour, darker: a shadow's colours, where a shadow would be), dark wheels, and
    // a soft shadow on the ground spreading wider than the skate.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">
      <defs><filter id="b"><feGaussianBlur stdDeviation="10"/></filter></defs>
      <rect width="400" height="400" fill="#d8d8d8"/>
      <ellipse cx="200" cy="332" rx="160" ry="18" fill="#9a9a9a" filter="url(#b)"/>
      <rect x="130" y="80" width="140" height="190" rx="20" fill="#8a1c1c"/>
      <rect x="130" y="270" width="140" height="24" fill="#a8a8a8"/>
      <circle cx="160" cy="310" r="18" fill="#222"/>
      <circle cx="240" cy="310" r="18" fill="#222"/>
    </svg>`;
    const png = new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
    const { mask } = await loadSubject(png);
    const at = (x: number, y: number) =>
      mask.inside[
        Math.floor((y / 400) * mask.height) * mask.width + Math.floor((x / 400) * mask.width)
      ];
    // The frame, across its width, is kept.
    for (const x of [140, 170, 200, 230, 260]) expect(at(x, 282), `frame at ${x}`).toBe(1);
    // The shadow beyond the skate is not.
    for (const x of [60, 90, 310, 340]) expect(at(x, 334), `shadow at ${x}`).toBe(0);
  });
});
