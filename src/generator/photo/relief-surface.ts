// The relief's height field: the mask inflated into a union of spheres, then smoothed.
import type { Mask } from './mask.ts';

/** Smoothing passes over the height field (removes creases where inflation spheres meet). */
const SMOOTHING_PASSES = 3;

/**
 * Height field of the inflated mask, in samples: the union of spheres centred on the
 * medial axis (each sample whose inscribed disk is not inside a neighbour's), i.e.
 * z(q) = max over centres c of sqrt(r_c² − |q − c|²). Cross-sections of thin strips are
 * semicircles and round blobs become hemispheres.
 */
export function inflate(mask: Mask, dist: Float32Array): Float32Array {
  const { width, height, inside } = mask;
  const z = new Float32Array(width * height);
  for (let cy = 0; cy < height; cy++) {
    for (let cx = 0; cx < width; cx++) {
      const c = cy * width + cx;
      if (!inside[c]) continue;
      // The outline runs about half a sample inside the nearest background sample centre.
      const r = dist[c]! - 0.5;
      if (r <= 0) continue;
      let maximal = true;
      for (let dy = -1; dy <= 1 && maximal; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = cx + dx;
          const ny = cy + dy;
          if ((dx === 0 && dy === 0) || nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          // This disk lies within the neighbour's: the neighbour's sphere covers this one.
          if (dist[ny * width + nx]! - 0.5 >= r + Math.hypot(dx, dy) - 1e-6) {
            maximal = false;
            break;
          }
        }
      }
      if (!maximal) continue;
      const reach = Math.floor(r);
      for (let y = Math.max(0, cy - reach); y <= Math.min(height - 1, cy + reach); y++) {
        for (let x = Math.max(0, cx - reach); x <= Math.min(width - 1, cx + reach); x++) {
          const q = y * width + x;
          if (!inside[q]) continue;
          const h2 = r * r - (x - cx) ** 2 - (y - cy) ** 2;
          if (h2 > 0) {
            const h = Math.sqrt(h2);
            if (h > z[q]!) z[q] = h;
          }
        }
      }
    }
  }
  return z;
}

/** Pins the outline to the rim and smooths the interior (Jacobi iterations over used samples). */
export function smoothInterior(
  z: Float32Array,
  used: Uint8Array,
  rim: Uint8Array,
  width: number,
): void {
  const sampleCount = z.length;
  for (let s = 0; s < sampleCount; s++) if (rim[s]) z[s] = 0;
  for (let pass = 0; pass < SMOOTHING_PASSES; pass++) {
    const prev = new Float32Array(z);
    for (let s = 0; s < sampleCount; s++) {
      if (!used[s] || rim[s]) continue;
      const x = s % width;
      let sum = 0;
      let n = 0;
      for (const t of [s - width, s + width, x > 0 ? s - 1 : -1, x + 1 < width ? s + 1 : -1]) {
        if (t >= 0 && t < sampleCount && used[t]) {
          sum += prev[t]!;
          n++;
        }
      }
      if (n > 0) z[s] = 0.5 * prev[s]! + (0.5 * sum) / n;
    }
  }
}
