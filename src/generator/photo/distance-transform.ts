/** The exact Euclidean distance transform of a mask (how deep inside the object each sample is). */
import type { Mask } from './mask.ts';

/** Stands in for "infinitely far" in the distance transform (finite keeps the maths simple). */
const FAR = 1e20;

/**
 * One-dimensional squared Euclidean distance transform (Felzenszwalb & Huttenlocher), in place
 * over the `n` values of `f` starting at `offset`, `stride` apart. `v`, `z`, `d` are scratch.
 */
function edt1d(
  f: Float64Array,
  offset: number,
  stride: number,
  n: number,
  v: Int32Array,
  z: Float64Array,
  d: Float64Array,
): void {
  const at = (q: number): number => f[offset + q * stride]!;
  let k = 0;
  v[0] = 0;
  z[0] = -Infinity;
  z[1] = Infinity;
  for (let q = 1; q < n; q++) {
    // z[0] = -Infinity and all values are finite, so k never drops below 0.
    let s = (at(q) + q * q - (at(v[k]!) + v[k]! * v[k]!)) / (2 * q - 2 * v[k]!);
    while (s <= z[k]!) {
      k--;
      s = (at(q) + q * q - (at(v[k]!) + v[k]! * v[k]!)) / (2 * q - 2 * v[k]!);
    }
    k++;
    v[k] = q;
    z[k] = s;
    z[k + 1] = Infinity;
  }
  k = 0;
  for (let q = 0; q < n; q++) {
    while (z[k + 1]! < q) k++;
    const p = v[k]!;
    d[q] = (q - p) * (q - p) + at(p);
  }
  for (let q = 0; q < n; q++) f[offset + q * stride] = d[q]!;
}

/**
 * Euclidean distance (in samples) from each object sample to the nearest background sample,
 * counting everything beyond the grid's edge as background. Background samples get 0.
 */
export function distanceToBackground(mask: Mask): Float32Array {
  const { width, height, inside } = mask;
  // Pad by one sample of background on every side.
  const pw = width + 2;
  const ph = height + 2;
  const f = new Float64Array(pw * ph);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (inside[y * width + x]) f[(y + 1) * pw + x + 1] = FAR;
    }
  }
  const n = Math.max(pw, ph);
  const v = new Int32Array(n);
  const z = new Float64Array(n + 1);
  const d = new Float64Array(n);
  for (let x = 0; x < pw; x++) edt1d(f, x, pw, ph, v, z, d);
  for (let y = 0; y < ph; y++) edt1d(f, y * pw, 1, pw, v, z, d);
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) out[y * width + x] = Math.sqrt(f[(y + 1) * pw + x + 1]!);
  }
  return out;
}
