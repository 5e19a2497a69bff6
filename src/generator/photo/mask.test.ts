import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { SampleGrid } from '../core/raster.ts';
import {
  cleanMask,
  edgeCoverage,
  estimateBackground,
  maskFromBackground,
  type Mask,
} from './mask.ts';
import { loadSubject } from './subject.ts';

const W = 40;
const H = 40;

/** A mask from rows of text: '#' object, anything else background. */
function maskOf(rows: string[]): Mask {
  const width = rows[0]!.length;
  const inside = new Uint8Array(width * rows.length);
  rows.forEach((row, y) => {
    for (let x = 0; x < width; x++) inside[y * width + x] = row[x] === '#' ? 1 : 0;
  });
  return { width, height: rows.length, inside };
}

/** A W × H grid of a grey backdrop with `paint` giving each sample's colour. */
function gridOf(paint: (x: number, y: number) => [number, number, number]): SampleGrid {
  const rgb = new Float32Array(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) rgb.set(paint(x, y), (y * W + x) * 3);
  return { width: W, height: H, rgb, alpha: new Float32Array(W * H).fill(1) };
}

const GREY: [number, number, number] = [200, 200, 200];
const RED: [number, number, number] = [200, 30, 30];
const mix = (t: number): [number, number, number] => [
  GREY[0] + (RED[0] - GREY[0]) * t,
  GREY[1] + (RED[1] - GREY[1]) * t,
  GREY[2] + (RED[2] - GREY[2]) * t,
];

describe('cleanMask', () => {
  it("keeps a part cut off by a stem thinner than a sample (a burger's sprig), not a speck far away", () => {
    const row = (cells: [number, number][]) => {
      const r = Array.from({ length: 50 }, () => '.');
      for (const [a, b] of cells) for (let x = a; x <= b; x++) r[x] = '#';
      return r.join('');
    };
    const mask = maskOf([
      row([]),
      row([[44, 46]]),
      row([[44, 46]]),
      row([[44, 46]]),
      row([]),
      row([[16, 19]]),
      row([[16, 19]]),
      row([[16, 19]]),
      row([]),
      row([]),
      ...Array.from({ length: 20 }, () => row([[2, 33]])),
      row([]),
    ]);
    const cleaned = cleanMask(mask);
    const at = (x: number, y: number) => cleaned.inside[y * mask.width + x];
    // The leaf, two samples above the bun: kept. A speck about its size in the corner, far from
    // the object: dropped.
    expect(at(17, 6)).toBe(1);
    expect(at(45, 2)).toBe(0);
    expect(at(10, 15)).toBe(1);
  });
});

describe('edgeCoverage', () => {
  // A red bar from column 12 to 27 on grey; the outline samples hold a known share of red.
  const share = new Map([
    [11, 0.3],
    [28, 0.7],
  ]);
  const grid = gridOf((x, y) =>
    y < 8 || y >= 32 ? GREY : x >= 12 && x <= 27 ? RED : share.has(x) ? mix(share.get(x)!) : GREY,
  );
  const background = estimateBackground(grid)!;

  it("reads each outline sample's share of the object from its colour", () => {
    const mask = edgeCoverage(maskFromBackground(grid, background), grid, background);
    const coverage = (x: number) => mask.coverage![20 * W + x]!;
    expect(mask.inside[20 * W + 11]).toBe(1);
    expect(coverage(11)).toBeCloseTo(0.3, 1);
    expect(coverage(28)).toBeCloseTo(0.7, 1);
    // The distance-based guess it replaces called both fully covered.
    const before = maskFromBackground(grid, background).coverage!;
    expect(before[20 * W + 28]).toBe(1);
  });

  it('peels outline samples that are nearly all backdrop (ringing let in by the weak tolerance)', () => {
    // Two faint columns (5 % and 4 % red, 9 to 10 off the grey) left of the bar: joined to it
    // through the weak tolerance, they are peeled off one after the other.
    const ringing = gridOf((x, y) =>
      y < 8 || y >= 32
        ? GREY
        : x >= 12 && x <= 27
          ? RED
          : x === 11
            ? mix(0.05)
            : x === 10
              ? mix(0.045)
              : GREY,
    );
    const bg = estimateBackground(ringing)!;
    const found = maskFromBackground(ringing, bg);
    expect(found.inside[20 * W + 10]).toBe(1);
    const mask = edgeCoverage(found, ringing, bg);
    expect(mask.inside[20 * W + 10]).toBe(0);
    expect(mask.inside[20 * W + 11]).toBe(0);
    expect(mask.inside[20 * W + 12]).toBe(1);
  });
});

describe('thin objects', () => {
  async function subjectOf(svgBody: string) {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512">
      <rect width="512" height="512" fill="#e8e8e8"/>${svgBody}</svg>`;
    const png = new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
    return loadSubject(png, { gridLongSide: 160, thinGridFactor: 2 });
  }

  it('are looked at again on a grid twice as fine', async () => {
    // A wading bird's legs and neck: lines 5 px wide, mostly outline at 160 samples.
    const { mask } = await subjectOf(`<g stroke="#c0392b" stroke-width="5" fill="none">
      <path d="M 200 460 L 230 300 L 260 460"/><path d="M 230 300 Q 300 200 250 60"/></g>
      <ellipse cx="235" cy="290" rx="40" ry="18" fill="#c0392b"/>`);
    expect(mask.width).toBe(320);
  });

  it('a solid object is not', async () => {
    const { mask } = await subjectOf(
      '<rect x="140" y="120" width="230" height="300" fill="#2c3e50"/>',
    );
    expect(mask.width).toBe(160);
  });
});
