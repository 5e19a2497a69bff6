import { describe, expect, it } from 'vitest';
import type { SampleGrid } from '../core/raster.ts';
import { estimateBackground, maskFromBackground } from './background-mask.ts';
import { edgeCoverage } from './edge-coverage.ts';

const W = 40;
const H = 40;

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
