import type { Bounds, Mask } from '../photo/mask.ts';

/**
 * Visual hull of 2–4 silhouettes on a voxel grid. Object frame: Y up, the object's front faces
 * +Z. Every view is an orthographic projection along a horizontal axis:
 * - 0 front: camera on +Z looking at −Z, image x → +X;
 * - 1 right: camera on +X looking at −X, image x → −Z;
 * - 2 back: camera on −Z, image x → −X;
 * - 3 left: camera on −X, image x → +Z;
 * image y (down) → −Y in all of them. Each silhouette's bounding box is stretched over the
 * object's extent: its full height, and its width along the view's horizontal axis, so photos
 * taken at different zoom and framing still line up.
 */

export type ViewSide = 0 | 1 | 2 | 3;

export interface Silhouette {
  side: ViewSide;
  mask: Mask;
  /** The object's bounding box in the mask (inclusive sample indices). */
  bounds: Bounds;
}

/** The object's size in metres (it spans x ∈ ±x/2, y ∈ [0, y], z ∈ ±z/2). */
export interface Extents {
  x: number;
  y: number;
  z: number;
}

/** Mask samples around the object's bounding box over which distances are computed. */
const SDF_MARGIN = 8;

/** Unit vector from the object towards each view's camera. */
export const VIEW_DIRECTIONS: readonly (readonly [number, number, number])[] = [
  [0, 0, 1],
  [1, 0, 0],
  [0, 0, -1],
  [-1, 0, 0],
];

/** Whether a view's horizontal image axis runs along X (front, back) or Z (right, left). */
function alongX(side: ViewSide): boolean {
  return side === 0 || side === 2;
}

/** Sign of the world coordinate along the view's image x: +X, −Z, −X, +Z. */
function imageSign(side: ViewSide): 1 | -1 {
  return side === 0 || side === 3 ? 1 : -1;
}

/**
 * Where a world point lands in a view's mask, in continuous mask coordinates (0..width,
 * 0..height, sample edges at integers; row 0 on top).
 */
export function projectToMask(
  view: Silhouette,
  extents: Extents,
  x: number,
  y: number,
  z: number,
): [number, number] {
  const { side, bounds: b } = view;
  const extent = alongX(side) ? extents.x : extents.z;
  const w = alongX(side) ? x : z;
  const t = (imageSign(side) * w + extent / 2) / extent;
  const r = (extents.y - y) / extents.y;
  return [b.x0 + t * (b.x1 + 1 - b.x0), b.y0 + r * (b.y1 + 1 - b.y0)];
}

/** A scalar field sampled on a regular grid with one outside layer of padding on every side. */
export interface VoxelGrid {
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
 * Chamfer distance (weights 1 and √2, two passes) from every sample centre to the nearest
 * sample centre of the target set, `edge` for samples on the grid's border (the distance to
 * whatever lies beyond it). Exact along rows, columns and diagonals, within 8 % elsewhere:
 * plenty near an outline, which is where the distance matters.
 */
function chamfer(width: number, height: number, target: Uint8Array, edge: number): Float32Array {
  const d = new Float32Array(width * height);
  const far = width + height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = y * width + x;
      d[s] = target[s] ? 0 : x === 0 || y === 0 || x === width - 1 || y === height - 1 ? edge : far;
    }
  }
  const diagonal = Math.SQRT2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const s = y * width + x;
      let v = d[s]!;
      if (x > 0) v = Math.min(v, d[s - 1]! + 1);
      if (y > 0) {
        v = Math.min(v, d[s - width]! + 1);
        if (x > 0) v = Math.min(v, d[s - width - 1]! + diagonal);
        if (x < width - 1) v = Math.min(v, d[s - width + 1]! + diagonal);
      }
      d[s] = v;
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const s = y * width + x;
      let v = d[s]!;
      if (x < width - 1) v = Math.min(v, d[s + 1]! + 1);
      if (y < height - 1) {
        v = Math.min(v, d[s + width]! + 1);
        if (x < width - 1) v = Math.min(v, d[s + width + 1]! + diagonal);
        if (x > 0) v = Math.min(v, d[s + width - 1]! + diagonal);
      }
      d[s] = v;
    }
  }
  return d;
}

/**
 * Signed distance (in samples, positive inside) from each sample centre to the mask's
 * outline, which runs halfway between inside and outside samples; beyond the grid is outside.
 * Computed within the object's bounding box and a margin of `margin` samples only; elsewhere
 * the value is −margin (outside, at least that far).
 */
function signedDistance(mask: Mask, bounds: Bounds, margin: number): Float32Array {
  const { width, height, inside } = mask;
  const x0 = Math.max(0, bounds.x0 - margin);
  const y0 = Math.max(0, bounds.y0 - margin);
  const cw = Math.min(width, bounds.x1 + 1 + margin) - x0;
  const ch = Math.min(height, bounds.y1 + 1 + margin) - y0;
  const crop = new Uint8Array(cw * ch);
  const cropOutside = new Uint8Array(cw * ch);
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const v = inside[(y + y0) * width + x + x0]!;
      crop[y * cw + x] = v;
      cropOutside[y * cw + x] = v ? 0 : 1;
    }
  }
  // The crop's border is the grid's border or margin samples away from the object: outside.
  const toOutside = chamfer(cw, ch, cropOutside, 1);
  const toInside = chamfer(cw, ch, crop, cw + ch);
  const out = new Float32Array(width * height).fill(-margin);
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const c = y * cw + x;
      out[(y + y0) * width + x + x0] = crop[c] ? toOutside[c]! - 0.5 : 0.5 - toInside[c]!;
    }
  }
  return out;
}

/** Summed-area table of the mask: entry (x, y) counts inside samples left of x and above y. */
function summedArea(mask: Mask): Int32Array {
  const { width, height, inside } = mask;
  const w1 = width + 1;
  const table = new Int32Array(w1 * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    for (let x = 0; x < width; x++) {
      row += inside[y * width + x]!;
      table[(y + 1) * w1 + x + 1] = table[y * w1 + x + 1]! + row;
    }
  }
  return table;
}

/**
 * One view's field over its image plane at voxel resolution: `cols` samples along the view's
 * horizontal world axis (in world order, not image order) × `rows` along Y. Values in metres.
 */
function viewField(
  view: Silhouette,
  extents: Extents,
  cols: number,
  rows: number,
  colWorld: (a: number) => number,
  rowWorld: (j: number) => number,
  colStep: number,
  rowStep: number,
): Float32Array {
  const { mask, bounds: b, side } = view;
  const { width, height } = mask;
  const sdf = signedDistance(mask, b, SDF_MARGIN);
  const area = summedArea(mask);
  const w1 = width + 1;
  const extent = alongX(side) ? extents.x : extents.z;
  // Metres per mask sample (horizontally and vertically; averaged for distances).
  const mx = extent / (b.x1 + 1 - b.x0);
  const my = extents.y / (b.y1 + 1 - b.y0);
  const metresPerSample = (mx + my) / 2;
  const sign = imageSign(side);
  const toMaskX = (w: number): number =>
    b.x0 + ((sign * w + extent / 2) / extent) * (b.x1 + 1 - b.x0);
  const toMaskY = (y: number): number => b.y0 + ((extents.y - y) / extents.y) * (b.y1 + 1 - b.y0);

  const sample = (px: number, py: number): number => {
    // Bilinear over sample centres; beyond the grid, the distance past its edge counts too.
    const fx = px - 0.5;
    const fy = py - 0.5;
    const cx = Math.min(width - 1, Math.max(0, fx));
    const cy = Math.min(height - 1, Math.max(0, fy));
    const x0 = Math.min(width - 2, Math.floor(cx));
    const y0 = Math.min(height - 2, Math.floor(cy));
    const tx = cx - x0;
    const ty = cy - y0;
    const s = y0 * width + x0;
    const v =
      (sdf[s]! * (1 - tx) + sdf[s + 1]! * tx) * (1 - ty) +
      (sdf[s + width]! * (1 - tx) + sdf[s + width + 1]! * tx) * ty;
    const beyond = Math.hypot(fx - cx, fy - cy);
    return beyond > 0 ? Math.min(v, -beyond) : v;
  };
  const touches = (ax: number, bx: number, ay: number, by: number): boolean => {
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx)));
    const x1 = Math.min(width, Math.ceil(Math.max(ax, bx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by)));
    const y1 = Math.min(height, Math.ceil(Math.max(ay, by)));
    if (x1 <= x0 || y1 <= y0) return false;
    return (
      area[y1 * w1 + x1]! - area[y0 * w1 + x1]! - area[y1 * w1 + x0]! + area[y0 * w1 + x0]! > 0
    );
  };

  const field = new Float32Array(cols * rows);
  const touched = new Uint8Array(cols * rows);
  for (let j = 0; j < rows; j++) {
    const y = rowWorld(j);
    const py = toMaskY(y);
    const pyA = toMaskY(y + rowStep / 2);
    const pyB = toMaskY(y - rowStep / 2);
    for (let a = 0; a < cols; a++) {
      const w = colWorld(a);
      const o = j * cols + a;
      field[o] = sample(toMaskX(w), py) * metresPerSample;
      touched[o] = touches(toMaskX(w - colStep / 2), toMaskX(w + colStep / 2), pyA, pyB) ? 1 : 0;
    }
  }
  // Thin parts: where the silhouette is narrower than about a voxel, no sample centre may fall
  // inside it. Samples whose footprint holds some of the silhouette, with no clearly inside
  // neighbour, are raised to a little inside, so chair legs and wires survive, about one
  // voxel thick. Outlines of larger parts always have a clearly inside neighbour: unchanged.
  const thin = 0.3 * Math.min(colStep, rowStep);
  const raised: number[] = [];
  for (let j = 0; j < rows; j++) {
    for (let a = 0; a < cols; a++) {
      const o = j * cols + a;
      if (!touched[o] || field[o]! >= thin) continue;
      let thick = false;
      for (let dj = -1; dj <= 1 && !thick; dj++) {
        for (let da = -1; da <= 1; da++) {
          const jj = j + dj;
          const aa = a + da;
          if (jj < 0 || aa < 0 || jj >= rows || aa >= cols) continue;
          if (field[jj * cols + aa]! > thin) {
            thick = true;
            break;
          }
        }
      }
      if (!thick) raised.push(o);
    }
  }
  for (const o of raised) field[o] = thin;
  return field;
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
  const h = Math.max(extents.x, extents.y, extents.z) / resolution;
  const cells = (e: number): number => Math.max(2, Math.round(e / h));
  const cx = cells(extents.x);
  const cy = cells(extents.y);
  const cz = cells(extents.z);
  const step: [number, number, number] = [extents.x / cx, extents.y / cy, extents.z / cz];
  // Sample centres at the cell centres, plus one padding sample beyond each end.
  const nx = cx + 2;
  const ny = cy + 2;
  const nz = cz + 2;
  const origin: [number, number, number] = [
    -extents.x / 2 - step[0] / 2,
    -step[1] / 2,
    -extents.z / 2 - step[2] / 2,
  ];
  const xOf = (i: number): number => origin[0] + i * step[0];
  const yOf = (j: number): number => origin[1] + j * step[1];
  const zOf = (k: number): number => origin[2] + k * step[2];

  const fields = views.map((view) =>
    alongX(view.side)
      ? viewField(view, extents, nx, ny, xOf, yOf, step[0], step[1])
      : viewField(view, extents, nz, ny, zOf, yOf, step[2], step[1]),
  );
  // Combine views of the same plane; padding rows and columns are outside.
  const combine = (cols: number, byX: boolean): Float32Array => {
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
  };
  const fb = wellComposed(combine(nx, true), nx, ny, 0.05 * Math.min(...step));
  const rl = wellComposed(combine(nz, false), nz, ny, 0.05 * Math.min(...step));

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

  // Per row: the extent of the inside samples of each combined plane. The hull's inside is
  // { fb(x, y) > 0 and rl(z, y) > 0 }, so seen from the front the nearest surface in row y is
  // at the row's largest inside z, whatever x: visibility is per row.
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
  const xRange = rowRange(fb, nx, xOf);
  const zRange = rowRange(rl, nz, zOf);
  const visible = (side: ViewSide, x: number, y: number, z: number, tolerance: number): boolean => {
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

  // How much of each view's own silhouette the hull still explains.
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
  const coverage = views.map((view, v) => {
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

  return { grid: { nx, ny, nz, origin, step, field }, insideCount, coverage, visible };
}
