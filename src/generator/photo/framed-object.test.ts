import { describe, expect, it } from 'vitest';
import { framedObject } from './framed-object.ts';
import type { Mask } from './mask.ts';

/** A 100 × 80 mask with the given rectangles (inclusive sample ranges) set. */
function maskOf(...rects: [number, number, number, number][]): Mask {
  const width = 100;
  const height = 80;
  const inside = new Uint8Array(width * height);
  for (const [x0, y0, x1, y1] of rects)
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) inside[y * width + x] = 1;
  return { width, height, inside };
}
const count = (m: Mask) => m.inside.reduce((a, b) => a + b, 0);
const at = (m: Mask, x: number, y: number) => m.inside[y * m.width + x];

describe('framedObject', () => {
  it('keeps a lone object as it is', () => {
    const mask = maskOf([30, 20, 70, 60]);
    expect(framedObject(mask)).toEqual({ kind: 'one', mask, dropped: 0 });
  });

  it('drops a table top that spans the frame (three sides touched)', () => {
    const found = framedObject(maskOf([35, 10, 65, 55], [0, 62, 99, 79]));
    expect(found.kind).toBe('one');
    if (found.kind !== 'one') return;
    expect(at(found.mask, 50, 30)).toBe(1);
    expect(at(found.mask, 50, 70)).toBe(0);
  });

  it('drops a small thing apart in a corner, keeps a part beside the object', () => {
    const found = framedObject(
      maskOf([30, 20, 60, 60], [64, 45, 72, 60], /* corner */ [90, 2, 97, 9]),
    );
    expect(found.kind).toBe('one');
    if (found.kind !== 'one') return;
    expect(at(found.mask, 68, 50)).toBe(1); // the saucer beside the cup
    expect(at(found.mask, 93, 5)).toBe(0);
    expect(count(found.mask)).toBe(31 * 41 + 9 * 16);
  });

  it("drops a thing the frame cuts inside the object's box but apart from it; keeps one touching it", () => {
    // A burger on a wide plate (the plate reaches right), a watermelon cut by the frame's right
    // edge above the plate: inside the burger's bounding box, nowhere near its samples (issue 32).
    const burger: [number, number, number, number][] = [
      [20, 20, 60, 60],
      [60, 55, 92, 60],
    ];
    const apart = framedObject(maskOf(...burger, [75, 30, 99, 45]));
    expect(apart.kind).toBe('one');
    if (apart.kind !== 'one') return;
    expect(at(apart.mask, 90, 40)).toBe(0);
    expect(apart.dropped).toBe(1);
    // One sample's gap: the same thing, broken by the outline's cleaning.
    const touching = framedObject(maskOf(...burger, [62, 30, 99, 45]));
    expect(touching.kind === 'one' && at(touching.mask, 90, 40)).toBe(1);
  });

  it('keeps two apples side by side together', () => {
    const found = framedObject(maskOf([25, 30, 47, 52], [52, 30, 74, 52]));
    expect(found.kind).toBe('one');
  });

  it('calls separate objects of the same weight, far apart, several', () => {
    expect(framedObject(maskOf([5, 25, 30, 55], [68, 25, 93, 55]))).toEqual({
      kind: 'several',
      count: 2,
    });
  });
});

describe('a photo of several objects', () => {
  it('is refused (at no cost) with what would work; a lone object in it is not', async () => {
    const { default: sharp } = await import('sharp');
    const { loadSubject } = await import('./subject.ts');
    const svg = (shapes: string) =>
      sharp(
        Buffer.from(
          `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#f2f2f2"/>${shapes}</svg>`,
        ),
      )
        .png()
        .toBuffer();
    const two = await svg(
      '<circle cx="90" cy="150" r="60" fill="#c0392b"/><circle cx="310" cy="150" r="60" fill="#2c3e50"/>',
    );
    await expect(loadSubject(new Uint8Array(two))).rejects.toThrow(
      /shows 2 separate objects of about the same size; crop it to the one to model/,
    );
    const one = await svg(
      '<circle cx="200" cy="150" r="80" fill="#c0392b"/><circle cx="380" cy="20" r="8" fill="#2c3e50"/>',
    );
    const { mask } = await loadSubject(new Uint8Array(one));
    // The speck in the corner is not part of the model.
    expect(
      mask.inside[
        Math.floor((20 / 300) * mask.height) * mask.width + Math.floor((380 / 400) * mask.width)
      ],
    ).toBe(0);
  });
});
