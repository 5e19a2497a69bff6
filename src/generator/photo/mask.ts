/**
 * The object mask over a sample grid, and what every path does with one: the mask of a photo
 * with real transparency, cleaning specks and pinholes, bounds, and the cells the relief meshes.
 * (Masks of photos on a backdrop: background-mask.ts.)
 */
import type { SampleGrid } from '../core/raster.ts';
import { components, step8, touchingBorder } from './mask-regions.ts';
import type { Mask } from './mask-type.ts';

export type { Mask } from './mask-type.ts';

export interface Bounds {
  /** Inclusive sample indices. */
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * Object = samples whose (area-averaged) alpha is at least `threshold`, widened where the
 * object is thinner than the grid can mesh (see {@link widenThinParts}).
 */
export function maskFromAlpha(grid: SampleGrid, threshold = 0.3): Mask {
  const inside = new Uint8Array(grid.width * grid.height);
  for (let i = 0; i < inside.length; i++) inside[i] = grid.alpha[i]! >= threshold ? 1 : 0;
  return widenThinParts(
    { width: grid.width, height: grid.height, inside, coverage: grid.alpha },
    grid.alpha,
  );
}

/**
 * The mesh is made of grid cells with at least three object corners, so a line of object
 * samples one sample wide (a flamingo's leg) would produce no triangles at all. Samples that
 * belong to no 2×2 block of object samples get their partly covered neighbours added.
 */
export function widenThinParts(mask: Mask, coverage: Float32Array, minCoverage = 0.04): Mask {
  const { width, height, inside } = mask;
  const inBlock = new Uint8Array(width * height);
  for (let y = 0; y + 1 < height; y++) {
    for (let x = 0; x + 1 < width; x++) {
      const a = y * width + x;
      if (inside[a] && inside[a + 1] && inside[a + width] && inside[a + width + 1]) {
        inBlock[a] = inBlock[a + 1] = inBlock[a + width] = inBlock[a + width + 1] = 1;
      }
    }
  }
  const out = new Uint8Array(inside);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = y * width + x;
      if (!inside[s] || inBlock[s]) continue;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          const ny = y + dy;
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const n = ny * width + nx;
          if (coverage[n]! >= minCoverage) out[n] = 1;
        }
      }
    }
  }
  return { width, height, inside: out, coverage };
}

/** Enclosed background regions up to this share of the grid are pinholes in the matte, filled. */
const MAX_HOLE_SHARE = 0.001;

/** Islands within this many samples of the object are parts of it (if not specks). */
const NEAR_PART = 4;

/** The smallest such part, in samples. */
const MIN_NEAR_PART = 8;

/**
 * Removes specks: object islands much smaller than the largest one, and small enclosed
 * background holes (noise in a matte). Large enclosed holes, such as a teapot's handle
 * opening, are kept.
 */
export function cleanMask(mask: Mask): Mask {
  const { width, height } = mask;
  const inside = new Uint8Array(mask.inside);
  const area = width * height;

  const fg = components(mask, 1);
  const largest = Math.max(0, ...fg.sizes);
  const minIsland = Math.max(4, largest * 0.02);
  // A part cut off from the object by a stem thinner than a sample (a burger's sprig): close to
  // it, and more than a speck, it stays.
  const main = fg.sizes.indexOf(largest);
  const part = new Uint8Array(area);
  for (let s = 0; s < area; s++) part[s] = fg.labels[s] === main ? 1 : 0;
  const near = step8(part, width, height, true, NEAR_PART);
  const nearLabels = new Set<number>();
  for (let s = 0; s < area; s++) if (near[s] && fg.labels[s]! >= 0) nearLabels.add(fg.labels[s]!);
  const minNearPart = Math.max(MIN_NEAR_PART, largest * 0.002);
  for (let s = 0; s < area; s++) {
    const label = fg.labels[s]!;
    if (label < 0 || fg.sizes[label]! >= minIsland) continue;
    if (!(nearLabels.has(label) && fg.sizes[label]! >= minNearPart)) inside[s] = 0;
  }

  const cleaned: Mask = { ...mask, inside };
  const bg = components(cleaned, 0);
  const touchesBorder = touchingBorder(bg.labels, bg.sizes.length, width, height);
  const maxHole = Math.max(2, area * MAX_HOLE_SHARE);
  for (let s = 0; s < area; s++) {
    const label = bg.labels[s]!;
    if (label >= 0 && !touchesBorder[label] && bg.sizes[label]! <= maxHole) inside[s] = 1;
  }
  return cleaned;
}

/**
 * Number of grid cells with at least three object corners: the cells the relief mesh is made
 * of. An outline of isolated samples or one-sample lines has none.
 */
export function countMeshableCells(mask: Mask): number {
  const { width, height, inside } = mask;
  let cells = 0;
  for (let y = 0; y + 1 < height; y++) {
    for (let x = 0; x + 1 < width; x++) {
      const a = y * width + x;
      if (inside[a]! + inside[a + 1]! + inside[a + width]! + inside[a + width + 1]! >= 3) cells++;
    }
  }
  return cells;
}

export function maskBounds(mask: Mask): Bounds | undefined {
  const { width, height, inside } = mask;
  let x0 = width;
  let y0 = height;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!inside[y * width + x]) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? undefined : { x0, y0, x1, y1 };
}
