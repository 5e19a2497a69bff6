/**
 * One view's silhouette as a field over its image plane at voxel resolution: signed distance to
 * the outline (chamfer), with thin parts kept about a voxel thick.
 */
import type { Bounds, Mask } from '../photo/mask.ts';
import { alongX, imageSign, type Extents, type Silhouette } from './view-frame.ts';

/** Mask samples around the object's bounding box over which distances are computed. */
const SDF_MARGIN = 8;

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
export function viewField(
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
  raiseThinParts(field, touched, cols, rows, 0.3 * Math.min(colStep, rowStep));
  return field;
}

/**
 * Thin parts: where the silhouette is narrower than about a voxel, no sample centre may fall
 * inside it. Samples whose footprint holds some of the silhouette (`touched`), with no clearly
 * inside neighbour, are raised to `thin` (a little inside), so chair legs and wires survive,
 * about one voxel thick. Outlines of larger parts always have a clearly inside neighbour:
 * unchanged.
 */
function raiseThinParts(
  field: Float32Array,
  touched: Uint8Array,
  cols: number,
  rows: number,
  thin: number,
): void {
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
}
