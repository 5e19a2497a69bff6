/**
 * Visual hull of 2–4 silhouettes on a voxel grid (the frame: view-frame.ts). Each silhouette's
 * bounding box is stretched over the object's extent, so photos taken at different zoom and
 * framing still line up.
 */
import { alongX, type Extents, type Silhouette, type ViewSide } from './view-frame.ts';
import { viewField } from './view-field.ts';

/** A scalar field sampled on a regular grid with one outside layer of padding on every side. */
interface VoxelGrid {
  nx: number;
  ny: number;
  nz: number;
  /** World position of sample (0, 0, 0). */
  origin: [number, number, number];
  /** Sample spacing per axis, metres. */
  step: [number, number, number];
  /**
   * Approximate signed distance to the hull surface in metres, positive inside; sample
   * (i, j, k) at index i + nx · (j + ny · k). The padding layers are outside.
   */
  field: Float32Array;
}

export interface Hull {
  grid: VoxelGrid;
  /** Samples inside the hull. */
  insideCount: number;
  /**
   * Per given view (in input order): the share of its silhouette (at voxel resolution) that
   * the hull, seen from that view, still covers. Near 1 for views of one object.
   */
  coverage: number[];
  /**
   * Per view side (index = side): whether a world point is seen by that view's camera on the
   * hull (not hidden behind another part of it), within `tolerance` metres.
   */
  visible: (side: ViewSide, x: number, y: number, z: number, tolerance: number) => boolean;
}

/**
 * Removes diagonal-only contacts from a plane's inside samples (a 2 × 2 block with two inside
 * samples on one diagonal and two outside on the other): each such block gets its outside sample
 * nearest to inside raised to `inside`, until none is left. The hull is a product of the two
 * planes per row, so with both planes free of these blocks no grid cell is ambiguous, and
 * surface nets make every edge shared by exactly two faces (edge-manifold). In place; returns
 * the plane.
 */
export function wellComposed(
  plane: Float32Array,
  cols: number,
  rows: number,
  inside: number,
): Float32Array {
  for (let pass = 0; pass < 16; pass++) {
    let changed = false;
    for (let j = 0; j + 1 < rows; j++) {
      for (let a = 0; a + 1 < cols; a++) {
        const s = j * cols + a;
        const q = [s, s + 1, s + cols, s + cols + 1] as const;
        const i0 = plane[q[0]]! > 0;
        const i1 = plane[q[1]]! > 0;
        const i2 = plane[q[2]]! > 0;
        const i3 = plane[q[3]]! > 0;
        if (i0 !== i3 || i1 !== i2 || i0 === i1) continue;
        // Diagonal-only: raise the outside sample of the pair closer to inside.
        const [u, v] = i0 ? [q[1], q[2]] : [q[0], q[3]];
        plane[plane[u]! >= plane[v]! ? u : v] = inside;
        changed = true;
      }
    }
    if (!changed) break;
  }
  return plane;
}

/**
 * Carves the visual hull of the silhouettes (at least a front, index 0, and a right view)
 * on a grid with `resolution` samples along the object's largest extent. Where a side is seen
 * twice (front and back, right and left), a point must lie inside both silhouettes.
 */
export function carveHull(
  views: readonly Silhouette[],
  extents: Extents,
  resolution: number,
): Hull {
  const grid = hullGrid(extents, resolution);
  const { nx, ny, nz, step } = grid;
  const fields = views.map((view) =>
    alongX(view.side)
      ? viewField(view, extents, nx, ny, grid.xOf, grid.yOf, step[0], step[1])
      : viewField(view, extents, nz, ny, grid.zOf, grid.yOf, step[2], step[1]),
  );
  const fb = wellComposed(
    combinePlane(views, fields, nx, ny, true, step),
    nx,
    ny,
    0.05 * Math.min(...step),
  );
  const rl = wellComposed(
    combinePlane(views, fields, nz, ny, false, step),
    nz,
    ny,
    0.05 * Math.min(...step),
  );

  const field = new Float32Array(nx * ny * nz);
  let insideCount = 0;
  for (let k = 0; k < nz; k++) {
    for (let j = 0; j < ny; j++) {
      const r = rl[j * nz + k]!;
      const base = nx * (j + ny * k);
      const row = j * nx;
      for (let i = 0; i < nx; i++) {
        const v = Math.min(fb[row + i]!, r);
        field[base + i] = v;
        if (v > 0) insideCount++;
      }
    }
  }
  return {
    grid: { nx, ny, nz, origin: grid.origin, step, field },
    insideCount,
    coverage: viewCoverage(views, fields, fb, rl, grid),
    visible: visibility(fb, rl, grid),
  };
}

/** The hull's sampling: its size, spacing, origin, and each index's world coordinate. */
interface HullGrid {
  nx: number;
  ny: number;
  nz: number;
  origin: [number, number, number];
  step: [number, number, number];
  xOf: (i: number) => number;
  yOf: (j: number) => number;
  zOf: (k: number) => number;
}

/**
 * `resolution` samples along the largest extent, at the cell centres, plus one padding sample
 * beyond each end.
 */
function hullGrid(extents: Extents, resolution: number): HullGrid {
  const h = Math.max(extents.x, extents.y, extents.z) / resolution;
  const cells = (e: number): number => Math.max(2, Math.round(e / h));
  const cx = cells(extents.x);
  const cy = cells(extents.y);
  const cz = cells(extents.z);
  const step: [number, number, number] = [extents.x / cx, extents.y / cy, extents.z / cz];
  const origin: [number, number, number] = [
    -extents.x / 2 - step[0] / 2,
    -step[1] / 2,
    -extents.z / 2 - step[2] / 2,
  ];
  return {
    nx: cx + 2,
    ny: cy + 2,
    nz: cz + 2,
    origin,
    step,
    xOf: (i) => origin[0] + i * step[0],
    yOf: (j) => origin[1] + j * step[1],
    zOf: (k) => origin[2] + k * step[2],
  };
}

/**
 * The views of one plane (front and back: `byX`; right and left) combined: a point must lie
 * inside every one. Padding rows and columns are outside.
 */
function combinePlane(
  views: readonly Silhouette[],
  fields: readonly Float32Array[],
  cols: number,
  ny: number,
  byX: boolean,
  step: readonly [number, number, number],
): Float32Array {
  const out = new Float32Array(cols * ny).fill(Infinity);
  views.forEach((view, v) => {
    if (alongX(view.side) !== byX) return;
    const f = fields[v]!;
    for (let s = 0; s < out.length; s++) out[s] = Math.min(out[s]!, f[s]!);
  });
  const outside = -0.5 * Math.min(...step);
  for (let j = 0; j < ny; j++) {
    for (let a = 0; a < cols; a++) {
      if (j === 0 || a === 0 || j === ny - 1 || a === cols - 1) {
        const s = j * cols + a;
        out[s] = Math.min(out[s]!, outside);
      }
    }
  }
  return out;
}

/**
 * Per row: the extent of the inside samples of each combined plane. The hull's inside is
 * { fb(x, y) > 0 and rl(z, y) > 0 }, so seen from the front the nearest surface in row y is
 * at the row's largest inside z, whatever x: visibility is per row.
 */
function visibility(fb: Float32Array, rl: Float32Array, grid: HullGrid): Hull['visible'] {
  const { nx, ny, nz, origin, step } = grid;
  const rowRange = (plane: Float32Array, cols: number, at: (a: number) => number): Float64Array => {
    const out = new Float64Array(ny * 2);
    for (let j = 0; j < ny; j++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let a = 0; a < cols; a++) {
        if (plane[j * cols + a]! > 0) {
          lo = Math.min(lo, at(a));
          hi = Math.max(hi, at(a));
        }
      }
      out[j * 2] = lo;
      out[j * 2 + 1] = hi;
    }
    return out;
  };
  const xRange = rowRange(fb, nx, grid.xOf);
  const zRange = rowRange(rl, nz, grid.zOf);
  return (side: ViewSide, x: number, y: number, z: number, tolerance: number): boolean => {
    const j = Math.min(ny - 1, Math.max(0, Math.round((y - origin[1]) / step[1])));
    const range = alongX(side) ? zRange : xRange;
    const lo = range[j * 2]!;
    const hi = range[j * 2 + 1]!;
    if (lo > hi) return true;
    const half = (alongX(side) ? step[2] : step[0]) / 2;
    switch (side) {
      case 0:
        return z >= hi + half - tolerance;
      case 1:
        return x >= hi + half - tolerance;
      case 2:
        return z <= lo - half + tolerance;
      case 3:
        return x <= lo - half + tolerance;
    }
  };
}

/** How much of each view's own silhouette the hull still explains (see {@link Hull}). */
function viewCoverage(
  views: readonly Silhouette[],
  fields: readonly Float32Array[],
  fb: Float32Array,
  rl: Float32Array,
  grid: HullGrid,
): number[] {
  const { nx, ny, nz } = grid;
  const rowHas = (plane: Float32Array, cols: number): Uint8Array => {
    const out = new Uint8Array(ny);
    for (let j = 0; j < ny; j++) {
      for (let a = 0; a < cols; a++) {
        if (plane[j * cols + a]! > 0) {
          out[j] = 1;
          break;
        }
      }
    }
    return out;
  };
  const fbRows = rowHas(fb, nx);
  const rlRows = rowHas(rl, nz);
  return views.map((view, v) => {
    const own = fields[v]!;
    const byX = alongX(view.side);
    const plane = byX ? fb : rl;
    const otherRows = byX ? rlRows : fbRows;
    let total = 0;
    let kept = 0;
    for (let s = 0; s < own.length; s++) {
      if (own[s]! <= 0) continue;
      total++;
      const j = Math.floor(s / (byX ? nx : nz));
      if (plane[s]! > 0 && otherRows[j]) kept++;
    }
    return total === 0 ? 0 : kept / total;
  });
}
