import { describe, expect, it } from 'vitest';
import { cleanMask, type Mask } from './mask.ts';

/** A mask from rows of text: '#' object, anything else background. */
function maskOf(rows: string[]): Mask {
  const width = rows[0]!.length;
  const inside = new Uint8Array(width * rows.length);
  rows.forEach((row, y) => {
    for (let x = 0; x < width; x++) inside[y * width + x] = row[x] === '#' ? 1 : 0;
  });
  return { width, height: rows.length, inside };
}

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
