/**
 * Masks of opaque photos: the backdrop fitted to the border (backdrop.ts) as a `Background`, how
 * far each sample is from it, the object as what is far enough, and a matte for the texture.
 */
import quickselect from 'quickselect';
import type { Raster, SampleGrid } from '../core/raster.ts';
import { fitBackdrop, grainDistance, type Backdrop } from './backdrop.ts';
import { widenThinParts, type Mask } from './mask.ts';

/**
 * The median of channel `k` of an RGB field of `n` samples, selected in linear time (sorting each
 * channel was most of a mask's time).
 */
function channelMedian(field: Float32Array, k: number, n: number): number {
  if (n === 0) return 0;
  const values = new Float64Array(n);
  for (let s = 0; s < n; s++) values[s] = field[s * 3 + k]!;
  quickselect(values as unknown as number[], n >> 1);
  return values[n >> 1]!;
}

/**
 * The backdrop an opaque photo's object stands on: its colour at each grid sample (a smooth
 * field, see backdrop.ts), its median colour, and how far (RGB distance) a pixel may be from it.
 */
export interface Background {
  colour: [number, number, number];
  threshold: number;
  /** RGB per grid sample, row-major. */
  field: Float32Array;
  /** How far border samples typically are from the field (its fit's 80th percentile). */
  noise: number;
  /** The row where a wall meets a table (the field steps there), when there is one. */
  horizon: number | null;
  /** The backdrop's grain, if any (backdrop.ts): distances weigh it down. */
  grain: Backdrop['grain'];
  /** The grid the field is over. */
  width: number;
  height: number;
}

/**
 * For opaque images: fits the backdrop to the border (a gradient, a vignette, a wall and a table
 * meeting at a horizon, light texture). Returns undefined when the border is no backdrop (a busy
 * photo), as no mask can then be guessed this way.
 */
export function estimateBackground(grid: SampleGrid): Background | undefined {
  const backdrop = fitBackdrop(grid);
  if (!backdrop) return undefined;
  const { field } = backdrop;
  const n = grid.width * grid.height;
  const colour = [0, 1, 2].map((k) => channelMedian(field, k, n)) as [number, number, number];
  return {
    colour,
    threshold: Math.min(70, Math.max(24, 3 * backdrop.noise + 12)),
    field,
    noise: backdrop.noise,
    horizon: backdrop.horizon,
    grain: backdrop.grain,
    width: grid.width,
    height: grid.height,
  };
}

/**
 * How far sample `s` is from the backdrop (its grain weighed down). Samples on the horizon
 * straddle the wall and the table (their colour is a mix, in any proportion): they are measured
 * against the colours between the row above it and the row below.
 */
export function backdropDistance(grid: SampleGrid, background: Background, s: number): number {
  const r = grid.rgb[s * 3]!;
  const g = grid.rgb[s * 3 + 1]!;
  const b = grid.rgb[s * 3 + 2]!;
  // Read in place (no colour array per sample): this runs for every sample, several times a mask.
  const f = background.field;
  const here = grainDistance(r - f[s * 3]!, g - f[s * 3 + 1]!, b - f[s * 3 + 2]!, background.grain);
  const { horizon, width, height } = background;
  const y = Math.floor(s / width);
  if (horizon === null || Math.abs(y - horizon) > 1) return here;
  const x = s - y * width;
  const above = backdropAt(background, Math.max(0, horizon - 2) * width + x);
  const below = backdropAt(background, Math.min(height - 1, horizon + 1) * width + x);
  // The nearest point of the segment from `above` to `below`.
  const d = [0, 1, 2].map((k) => below[k]! - above[k]!);
  const len2 = d[0]! ** 2 + d[1]! ** 2 + d[2]! ** 2;
  const t =
    len2 > 0
      ? Math.min(
          1,
          Math.max(
            0,
            ((r - above[0]) * d[0]! + (g - above[1]) * d[1]! + (b - above[2]) * d[2]!) / len2,
          ),
        )
      : 0;
  const mixed = above.map((v, k) => v + t * d[k]!);
  return Math.min(here, distanceTo(background, r, g, b, mixed));
}

/** The distance from a colour to a backdrop colour, the backdrop's grain weighed down. */
function distanceTo(
  background: Background,
  r: number,
  g: number,
  b: number,
  colour: readonly number[],
): number {
  return grainDistance(r - colour[0]!, g - colour[1]!, b - colour[2]!, background.grain);
}

/** The backdrop's colour at sample `s`. */
export function backdropAt(background: Background, s: number): [number, number, number] {
  const f = background.field;
  return [f[s * 3]!, f[s * 3 + 1]!, f[s * 3 + 2]!];
}

/**
 * The weak (hysteresis) tolerance is at least this (RGB distance). 8, not 0064's 12: the ringing
 * 12 kept out is now peeled off the outline by its colour (edgeCoverage), and a pale wing tip 8
 * to 12 off a flat backdrop of its hue is kept (decision 0073).
 */
const WEAK_FLOOR = 8;

/**
 * Object = samples whose colour is far enough from the background's, and (hysteresis) samples
 * joined to those through samples still clearly off the backdrop for its noise: the tolerance's
 * floor (kept for gradients and compression the field does not model) would otherwise punch holes
 * in parts a little off the backdrop's colour, such as a house's light walls on a light sweep.
 */
export function maskFromBackground(grid: SampleGrid, background: Background): Mask {
  const { width, height } = grid;
  const inside = new Uint8Array(width * height);
  const coverage = new Float32Array(width * height);
  const distance = new Float32Array(width * height);
  const queue: number[] = [];
  for (let s = 0; s < inside.length; s++) {
    const d = backdropDistance(grid, background, s);
    distance[s] = d;
    inside[s] = d > background.threshold ? 1 : 0;
    if (inside[s]) queue.push(s);
    // Half covered at the threshold, fully from twice it.
    coverage[s] = Math.min(1, Math.max(0, d / background.threshold - 0.5));
  }
  const low = Math.min(background.threshold, Math.max(WEAK_FLOOR, 3 * background.noise + 6));
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head]!;
    const x = s % width;
    for (const t of [s - width, s + width, x > 0 ? s - 1 : -1, x + 1 < width ? s + 1 : -1]) {
      if (t < 0 || t >= inside.length || inside[t] || distance[t]! <= low) continue;
      inside[t] = 1;
      coverage[t] = Math.min(1, Math.max(0, distance[t]! / low - 0.5));
      queue.push(t);
    }
  }
  return widenThinParts({ width, height, inside, coverage }, coverage);
}

/**
 * Gives an opaque raster an alpha channel: 0 for pixels outside the (sample-level) mask and
 * for backdrop-like pixels near the outline, 255 elsewhere. Background-coloured details
 * well inside the object are kept. Used to bleed object colour over the backdrop so the
 * texture has no backdrop fringe along the mesh outline.
 */
export function matteFromBackground(raster: Raster, mask: Mask, background: Background): Raster {
  const { width, height } = raster;
  const data = new Uint8Array(raster.data);
  // Samples that are outside, or touch an outside sample.
  const nearOutside = new Uint8Array(mask.width * mask.height);
  for (let y = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++) {
      if (mask.inside[y * mask.width + x]) continue;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx >= 0 && ny >= 0 && nx < mask.width && ny < mask.height) {
            nearOutside[ny * mask.width + nx] = 1;
          }
        }
      }
    }
  }
  // Twice the mask's tolerance: anti-aliased edge pixels, half backdrop, go too.
  const limit2 = (2 * background.threshold) ** 2;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(mask.height - 1, Math.floor((y * mask.height) / height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(mask.width - 1, Math.floor((x * mask.width) / width));
      const p = (y * width + x) * 4;
      const isBackdrop =
        distanceTo(
          background,
          data[p]!,
          data[p + 1]!,
          data[p + 2]!,
          backdropAt(background, sy * mask.width + sx),
        ) **
          2 <=
        limit2;
      data[p + 3] =
        !mask.inside[sy * mask.width + sx] || (isBackdrop && nearOutside[sy * mask.width + sx])
          ? 0
          : 255;
    }
  }
  return { width, height, data };
}
