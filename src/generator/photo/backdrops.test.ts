import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageToGlb } from '../index.ts';
import { BACKDROPS, composite } from '../../testing/backdrops.ts';
import {
  alphaSilhouette,
  expectCleanModel,
  inspectGlb,
  iou,
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

  // The model's front silhouette, normalised by its bounding box, against the alpha: a harsher
  // measure than the mask's, as a part missed or added at the object's extremes moves the box
  // (decision 0073). The flamingo on the radial vignette and on JPEG-70 pass by a few thousandths.
  it.each(PHOTOS)(
    '%s: a clean model whose front matches the alpha on every backdrop',
    async (name) => {
      const bytes = await photo(`${name}.png`);
      const expected = (await alphaSilhouette(bytes))!;
      const scores: string[] = [];
      for (const backdrop of BACKDROPS) {
        const glb = await inspectGlb(await imageToGlb(await composite(bytes, backdrop)));
        expectCleanModel(glb);
        const score = iou(renderSilhouette(glb.doc, 'front', 256, 256), expected);
        scores.push(`${backdrop} ${score.toFixed(3)}`);
        expect(score, scores.join(', ')).toBeGreaterThanOrEqual(0.9);
      }
    },
  );

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

  /** The mask of an SVG drawing, and a look-up of its value at a pixel of the 400 × 400 drawing. */
  async function maskOf(svg: string) {
    const png = new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
    const { mask } = await loadSubject(png);
    const at = (x: number, y: number) =>
      mask.inside[
        Math.floor((y / 400) * mask.height) * mask.width + Math.floor((x / 400) * mask.width)
      ];
    return { png, mask, at };
  }

  it('keeps parts lighter than the backdrop at the base (a white sole and wheels), and drops the shadow', async () => {
    const { png, at } =
      await maskOf(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">
      <defs><filter id="b"><feGaussianBlur stdDeviation="10"/></filter>
      <linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#e4e4e4"/>
      <stop offset="1" stop-color="#c4c4c8"/></linearGradient></defs>
      <rect width="400" height="400" fill="url(#g)"/>
      <ellipse cx="200" cy="318" rx="160" ry="16" fill="#8a8a8a" filter="url(#b)"/>
      <rect x="130" y="80" width="140" height="190" rx="20" fill="#1d2a4a"/>
      <rect x="126" y="270" width="148" height="22" rx="6" fill="#fbfbfb"/>
      <circle cx="160" cy="304" r="14" fill="#f0f0f0"/><circle cx="240" cy="304" r="14" fill="#f0f0f0"/>
    </svg>`);
    for (const x of [132, 170, 200, 230, 268]) expect(at(x, 281), `sole at ${x}`).toBe(1);
    for (const x of [160, 240]) expect(at(x, 304), `wheel at ${x}`).toBe(1);
    for (const x of [50, 80, 320, 350]) expect(at(x, 318), `shadow at ${x}`).toBe(0);
    expectCleanModel(await inspectGlb(await imageToGlb(png)));
  });

  it("does not turn a headphone's grey logo ring (the backdrop's grey) into a hole", async () => {
    const { png, at } =
      await maskOf(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">
      <rect width="400" height="400" fill="#d6d6d6"/>
      <path d="M 110 230 A 90 110 0 0 1 290 230" fill="none" stroke="#1a1a1a" stroke-width="22"/>
      <rect x="80" y="210" width="62" height="110" rx="26" fill="#202020"/>
      <rect x="258" y="210" width="62" height="110" rx="26" fill="#202020"/>
      <circle cx="111" cy="265" r="18" fill="none" stroke="#d2d2d2" stroke-width="6"/>
      <circle cx="289" cy="265" r="18" fill="none" stroke="#d2d2d2" stroke-width="6"/>
    </svg>`);
    // The rings (and what they enclose) stay object; the space between the cups does not.
    for (const [x, y] of [
      [93, 265],
      [129, 265],
      [111, 265],
      [271, 265],
      [307, 265],
      [289, 265],
      [111, 247],
      [289, 283],
    ] as const)
      expect(at(x, y), `ring at ${x},${y}`).toBe(1);
    expect(at(200, 290)).toBe(0);
    expectCleanModel(await inspectGlb(await imageToGlb(png)));
  });

  it("keeps a house's light walls whole (a little off the backdrop's colour), with no holes", async () => {
    const { png, at } =
      await maskOf(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">
      <defs><filter id="n"><feTurbulence baseFrequency="0.9" numOctaves="1" seed="3"/>
      <feColorMatrix values="0 0 0 0 0.93 0 0 0 0 0.93 0 0 0 0 0.94 0 0 0 0.12 0"/></filter></defs>
      <rect width="400" height="400" fill="#ededee"/>
      <rect width="400" height="400" filter="url(#n)"/>
      <rect x="90" y="170" width="220" height="170" fill="#f6efe2"/>
      <polygon points="70,175 200,70 330,175" fill="#8b2d22"/>
      <rect x="120" y="200" width="40" height="40" fill="#3a5a7a"/>
      <rect x="240" y="200" width="40" height="40" fill="#3a5a7a"/>
      <rect x="180" y="260" width="40" height="80" fill="#5a3a22"/>
    </svg>`);
    // The walls differed from the sweep by 15 (its noise under 1), below the tolerance's floor:
    // 76 % of them were holes.
    let holes = 0;
    for (let y = 175; y < 340; y += 4) for (let x = 95; x < 305; x += 4) holes += at(x, y) ? 0 : 1;
    expect(holes).toBe(0);
    for (const [x, y] of [
      [30, 370],
      [370, 30],
      [40, 200],
      [360, 300],
    ] as const)
      expect(at(x, y), `backdrop at ${x},${y}`).toBe(0);
    expectCleanModel(await inspectGlb(await imageToGlb(png)));
  });
});
