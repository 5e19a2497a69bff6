import { describe, expect, it } from 'vitest';
import { step8 } from './mask-regions.ts';

/** One 3 × 3 step as it was first written, sample by sample: the reference `step8` must match. */
function oneStep(inside: Uint8Array, width: number, height: number, grow: boolean): Uint8Array {
  const out = new Uint8Array(inside.length);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      let any = false;
      let all = true;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          const v =
            nx >= 0 && ny >= 0 && nx < width && ny < height && inside[ny * width + nx] === 1;
          any ||= v;
          all &&= v;
        }
      out[y * width + x] = (grow ? any : all) ? 1 : 0;
    }
  return out;
}

/** A seeded mask of blobs and specks, so a failure can be run again. */
function randomMask(width: number, height: number, seed: number, fill: number): Uint8Array {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const inside = new Uint8Array(width * height);
  for (let s = 0; s < inside.length; s++) inside[s] = next() < fill ? 1 : 0;
  return inside;
}

describe('step8: a square grown or shrunk by a radius', () => {
  it.each([
    [1, 1],
    [7, 1],
    [1, 9],
    [13, 11],
    [40, 23],
  ])('equals that many one-sample steps on a %i × %i grid, at every radius', (width, height) => {
    for (let seed = 1; seed <= 12; seed++)
      for (const fill of [0.05, 0.5, 0.95])
        for (const radius of [1, 2, 3, 5, 8])
          for (const grow of [true, false]) {
            const inside = randomMask(width, height, seed, fill);
            let expected = inside;
            for (let i = 0; i < radius; i++) expected = oneStep(expected, width, height, grow);
            expect(
              Array.from(step8(inside, width, height, grow, radius)),
              `${grow ? 'grow' : 'shrink'} by ${radius}, seed ${seed}, fill ${fill}`,
            ).toEqual(Array.from(expected));
          }
  });

  it('leaves a full grid full when grown and clears its frame when shrunk', () => {
    const full = new Uint8Array(5 * 4).fill(1);
    expect(Array.from(step8(full, 5, 4, true, 2))).toEqual(Array.from(full));
    expect(Array.from(step8(full, 5, 4, false, 1))).toEqual([
      0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0,
    ]);
  });
});
