import { bleedTransparent, type Raster, type SampleGrid } from '../core/raster.ts';
import { distanceToBackground } from './distance-transform.ts';
import { maskBounds, type Mask } from './mask.ts';

/**
 * The back of a one-photo model: what the camera did not see. The front photo's features (a
 * face, buttons, a logo) do not belong there, but its colours do. The back is painted from the
 * object's dominant colours, region by region: the photo's colours are clustered, clusters that
 * cover little of the object (eyes, a mouth, buttons) give way to the surrounding dominant
 * ones, and a wide majority filter leaves broad regions of flat colour. Near the outline the
 * back blends into a blurred copy of the front's own colours there, so the rim (the wall that
 * joins front and back, textured from this band) continues the front without taking single
 * edge pixels' colours (no streaks in side views).
 */

export interface BackFillOptions {
  /** Colour clusters (dominant colours and minor ones). Default 6. */
  clusters?: number;
  /** A cluster covering less than this share of the object is a feature, not a region. Default 0.1. */
  minShare?: number;
  /**
   * Half-width of the majority filter, as a fraction of the object's long side (in samples).
   * Default 0.05.
   */
  radius?: number;
  /** Width of the band along the outline that blends into the front's colours, in samples. Default 4. */
  rimBand?: number;
}

const BACK_FILL_DEFAULTS = {
  clusters: 6,
  minShare: 0.1,
  radius: 0.05,
  rimBand: 4,
} as const;

const K_MEANS_PASSES = 8;

/** Normalised box blur (radius `r`, `passes` times) of RGB over the samples where `weight` > 0. */
function weightedBlur(
  rgb: Float32Array,
  weight: Float32Array,
  width: number,
  height: number,
  r: number,
  passes: number,
): Float32Array {
  let colour: Float32Array = new Float32Array(rgb.length);
  let w: Float32Array = new Float32Array(weight);
  for (let s = 0; s < weight.length; s++)
    for (let k = 0; k < 3; k++) colour[s * 3 + k] = rgb[s * 3 + k]! * weight[s]!;
  // Separable running sums along rows, then columns, on premultiplied colour and weight.
  const blur1d = (src: Float32Array, channels: number, horizontal: boolean): Float32Array => {
    const out = new Float32Array(src.length);
    const lines = horizontal ? height : width;
    const length = horizontal ? width : height;
    const stride = horizontal ? 1 : width;
    for (let line = 0; line < lines; line++) {
      const start = horizontal ? line * width : line;
      for (let c = 0; c < channels; c++) {
        let sum = 0;
        for (let i = 0; i < Math.min(r, length - 1) + 1; i++)
          sum += src[(start + i * stride) * channels + c]!;
        for (let i = 0; i < length; i++) {
          out[(start + i * stride) * channels + c] = sum;
          const add = i + r + 1;
          const drop = i - r;
          if (add < length) sum += src[(start + add * stride) * channels + c]!;
          if (drop >= 0) sum -= src[(start + drop * stride) * channels + c]!;
        }
      }
    }
    return out;
  };
  for (let p = 0; p < passes; p++) {
    colour = blur1d(blur1d(colour, 3, true), 3, false);
    w = blur1d(blur1d(w, 1, true), 1, false);
  }
  const out = new Float32Array(rgb.length);
  for (let s = 0; s < weight.length; s++) {
    const ws = w[s]!;
    for (let k = 0; k < 3; k++) out[s * 3 + k] = ws > 1e-6 ? colour[s * 3 + k]! / ws : 0;
  }
  return out;
}

/** Colours (RGB per sample) with the samples of zero weight filled from their surroundings. */
function filled(rgb: Float32Array, weight: Float32Array, width: number, height: number) {
  const data = new Uint8Array(width * height * 4);
  for (let s = 0; s < weight.length; s++) {
    if (weight[s]! <= 0) continue;
    for (let k = 0; k < 3; k++) data[s * 4 + k] = Math.round(rgb[s * 3 + k]!);
    data[s * 4 + 3] = 255;
  }
  const bled = bleedTransparent({ width, height, data }).data;
  const out = new Float32Array(width * height * 3);
  for (let s = 0; s < weight.length; s++)
    for (let k = 0; k < 3; k++) out[s * 3 + k] = bled[s * 4 + k]!;
  return out;
}

/** k-means over the source samples' colours, seeded at luminance quantiles (deterministic). */
function clusterColours(rgb: Float32Array, sources: number[], k: number) {
  const lum = (s: number) => 0.3 * rgb[s * 3]! + 0.59 * rgb[s * 3 + 1]! + 0.11 * rgb[s * 3 + 2]!;
  const sorted = [...sources].sort((a, b) => lum(a) - lum(b));
  const centres = new Float64Array(k * 3);
  for (let j = 0; j < k; j++) {
    const s = sorted[Math.floor(((j + 0.5) / k) * sorted.length)]!;
    for (let c = 0; c < 3; c++) centres[j * 3 + c] = rgb[s * 3 + c]!;
  }
  const label = new Int32Array(sources.length);
  const sums = new Float64Array(k * 4);
  for (let pass = 0; pass < K_MEANS_PASSES; pass++) {
    sums.fill(0);
    for (let i = 0; i < sources.length; i++) {
      const o = sources[i]! * 3;
      const r = rgb[o]!;
      const g = rgb[o + 1]!;
      const b = rgb[o + 2]!;
      let best = 0;
      let bestD = Infinity;
      for (let j = 0; j < k; j++) {
        const d =
          (r - centres[j * 3]!) ** 2 +
          (g - centres[j * 3 + 1]!) ** 2 +
          (b - centres[j * 3 + 2]!) ** 2;
        if (d < bestD) {
          best = j;
          bestD = d;
        }
      }
      label[i] = best;
      const o4 = best * 4;
      sums[o4] = sums[o4]! + r;
      sums[o4 + 1] = sums[o4 + 1]! + g;
      sums[o4 + 2] = sums[o4 + 2]! + b;
      sums[o4 + 3] = sums[o4 + 3]! + 1;
    }
    for (let j = 0; j < k; j++) {
      const n = sums[j * 4 + 3]!;
      if (n > 0) for (let c = 0; c < 3; c++) centres[j * 3 + c] = sums[j * 4 + c]! / n;
    }
  }
  const counts = Array.from({ length: k }, () => 0);
  for (const l of label) counts[l]!++;
  const colours = Array.from({ length: k }, (_, j) => [...centres.subarray(j * 3, j * 3 + 3)]);
  return { centres: colours, label, counts };
}

/**
 * Regions lying wholly inside another (eyes in a face, a logo on a mug, the upholstery in a
 * chair back's frame) are markings on that surface, not parts that reach round to the back:
 * each takes the label of the region around it (the one it borders most), until every region
 * left reaches the outline. In place.
 */
function absorbEnclosed(labels: Int32Array, mask: Mask): void {
  const { width, height, inside } = mask;
  const n = width * height;
  for (let round = 0; round < 8; round++) {
    const component = new Int32Array(n).fill(-1);
    let changed = false;
    const stack: number[] = [];
    for (let start = 0; start < n; start++) {
      if (!inside[start] || component[start] !== -1) continue;
      const label = labels[start]!;
      const members: number[] = [];
      let outline = false;
      const borders = new Map<number, number>();
      component[start] = start;
      stack.push(start);
      while (stack.length > 0) {
        const s = stack.pop()!;
        members.push(s);
        const x = s % width;
        const y = (s - x) / width;
        for (let dy = -1; dy <= 1; dy++)
          for (let dx = -1; dx <= 1; dx++) {
            if (!dx && !dy) continue;
            const nx = x + dx;
            const ny = y + dy;
            if (nx < 0 || ny < 0 || nx >= width || ny >= height) {
              outline = true;
              continue;
            }
            const t = ny * width + nx;
            if (!inside[t]) outline = true;
            else if (labels[t] !== label)
              borders.set(labels[t]!, (borders.get(labels[t]!) ?? 0) + 1);
            else if (component[t] === -1) {
              component[t] = start;
              stack.push(t);
            }
          }
      }
      if (outline || borders.size === 0) continue;
      let around = -1;
      let most = 0;
      for (const [l, c] of borders) if (c > most) [around, most] = [l, c];
      for (const s of members) labels[s] = around;
      changed = true;
    }
    if (!changed) break;
  }
}

/**
 * The back's colours on the mask's grid: RGBA, opaque over the object and transparent around
 * it (bleed before encoding). `grid` holds the object's colours (alpha-weighted: the photo's
 * alpha, or its matte on an opaque photo) on the same grid as the mask.
 */
export function backFill(mask: Mask, grid: SampleGrid, options: BackFillOptions = {}): Raster {
  const { clusters, minShare, radius, rimBand } = { ...BACK_FILL_DEFAULTS, ...options };
  const { width, height, inside } = mask;
  const n = width * height;
  const data = new Uint8Array(n * 4);
  const bounds = maskBounds(mask);
  if (!bounds) return { width, height, data };
  const dist = distanceToBackground(mask);

  const { weight, count } = sourceWeights(mask, grid, dist);
  if (count === 0) {
    for (let s = 0; s < n; s++) if (inside[s]) data.set([128, 128, 128, 255], s * 4);
    return { width, height, data };
  }
  const sources: number[] = [];
  for (let s = 0; s < n; s++) if (weight[s]) sources.push(s);

  // The front's own colours near the outline: blurred along it, filled where it has no sources.
  const insideWeight = Float32Array.from(inside);
  const front = weightedBlur(
    filled(grid.rgb, weight, width, height),
    insideWeight,
    width,
    height,
    3,
    2,
  );

  // Dominant colours, and which samples take which.
  const {
    centres,
    label: sourceLabel,
    counts,
  } = clusterColours(grid.rgb, sources, Math.min(clusters, sources.length));
  const largest = counts.indexOf(Math.max(...counts));
  const major = counts.map((c, j) => j === largest || c >= minShare * sources.length);
  const labels = spreadLabels(mask, sources, (i) =>
    major[sourceLabel[i]!] ? sourceLabel[i]! : -1,
  );
  for (let s = 0; s < n; s++) if (inside[s] && labels[s] === -1) labels[s] = largest;

  const r = Math.max(
    2,
    Math.round(radius * Math.max(bounds.x1 - bounds.x0, bounds.y1 - bounds.y0)),
  );
  const smooth = majorityFilter(labels, mask, major, r);

  absorbEnclosed(smooth, mask);

  // Flat region colours, softened at their borders, blended into the front's colours at the rim.
  const flat = new Float32Array(n * 3);
  for (let s = 0; s < n; s++) if (inside[s]) flat.set(centres[smooth[s]!]!, s * 3);
  const back = weightedBlur(flat, insideWeight, width, height, 1, 2);
  for (let s = 0; s < n; s++) {
    if (!inside[s]) continue;
    const t = Math.min(1, Math.max(0, (dist[s]! - 1) / rimBand));
    const blend = t * t * (3 - 2 * t);
    for (let k = 0; k < 3; k++) {
      const v = front[s * 3 + k]! * (1 - blend) + back[s * 3 + k]! * blend;
      data[s * 4 + k] = Math.max(0, Math.min(255, Math.round(v)));
    }
    data[s * 4 + 3] = 255;
  }
  return { width, height, data };
}

/**
 * Sources: samples wholly object (away from the outline, where the photo mixes in the
 * backdrop); when fewer than 16, every sample the object mostly covers.
 */
function sourceWeights(
  mask: Mask,
  grid: SampleGrid,
  dist: Float32Array,
): { weight: Float32Array; count: number } {
  const { inside } = mask;
  const n = inside.length;
  let weight = new Float32Array(n);
  let count = 0;
  for (let s = 0; s < n; s++)
    if (inside[s] && grid.alpha[s]! >= 0.9 && dist[s]! >= 1.5) {
      weight[s] = 1;
      count++;
    }
  if (count < 16) {
    weight = new Float32Array(n);
    count = 0;
    for (let s = 0; s < n; s++)
      if (inside[s] && grid.alpha[s]! > 0.3) {
        weight[s] = 1;
        count++;
      }
  }
  return { weight, count };
}

/**
 * Labels the `sources` (`labelOf(i)` for the i-th, −1 for none), then everything else inside
 * takes the nearest labelled region (breadth first, 8 neighbours); −1 where none reaches.
 */
function spreadLabels(
  mask: Mask,
  sources: readonly number[],
  labelOf: (i: number) => number,
): Int32Array {
  const { width, height, inside } = mask;
  const labels = new Int32Array(width * height).fill(-1);
  const queue: number[] = [];
  sources.forEach((s, i) => {
    const l = labelOf(i);
    if (l >= 0) {
      labels[s] = l;
      queue.push(s);
    }
  });
  for (let head = 0; head < queue.length; head++) {
    const s = queue[head]!;
    const x = s % width;
    const y = (s - x) / width;
    for (let dy = -1; dy <= 1; dy++)
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const t = ny * width + nx;
        if (!inside[t] || labels[t] !== -1) continue;
        labels[t] = labels[s]!;
        queue.push(t);
      }
  }
  return labels;
}

/**
 * Majority filter: each inside sample takes the `major` label most common in its window of
 * radius `r` (summed-area tables; ties keep its own label).
 */
function majorityFilter(
  labels: Int32Array,
  mask: Mask,
  major: readonly boolean[],
  r: number,
): Int32Array {
  const { width, height, inside } = mask;
  const w1 = width + 1;
  const tables = major.map((isMajor, j) => {
    if (!isMajor) return undefined;
    const table = new Int32Array(w1 * (height + 1));
    for (let y = 0; y < height; y++) {
      let row = 0;
      for (let x = 0; x < width; x++) {
        row += labels[y * width + x] === j ? 1 : 0;
        table[(y + 1) * w1 + x + 1] = table[y * w1 + x + 1]! + row;
      }
    }
    return table;
  });
  const smooth = new Int32Array(labels);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(height, y + r + 1);
    for (let x = 0; x < width; x++) {
      const s = y * width + x;
      if (!inside[s]) continue;
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(width, x + r + 1);
      let best = labels[s]!;
      let bestCount = -1;
      for (let j = 0; j < tables.length; j++) {
        const table = tables[j];
        if (!table) continue;
        const c =
          table[y1 * w1 + x1]! - table[y0 * w1 + x1]! - table[y1 * w1 + x0]! + table[y0 * w1 + x0]!;
        if (c > bestCount || (c === bestCount && j === labels[s])) {
          best = j;
          bestCount = c;
        }
      }
      smooth[s] = best;
    }
  }
  return smooth;
}
