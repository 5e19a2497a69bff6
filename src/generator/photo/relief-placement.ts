// Where the relief's samples go in the model: outline samples moved out to the object's edge,
// the grid fitted to 1 unit high, the bulge scaled to the depth asked for.
import type { Mask } from './mask.ts';
import type { ReliefOptions } from './relief-types.ts';

/** Half-thickness of the rim wall, in samples: thin parts stay solid instead of collapsing. */
const RIM_HALF_DEPTH = 0.3;
/** Largest object size: 1 unit high, at most this wide. */
const MAX_WIDTH = 2;

/** Where each used sample goes in the model: its x and y (1 unit high, centred). */
export interface Placement {
  xOf: (s: number) => number;
  yOf: (s: number) => number;
  /** Per sample: the inflated half-depth (see `ProfileInput`). */
  halfDepth: Float32Array;
  /** One sample's size in model units. */
  sampleSize: number;
}

/**
 * Outline samples sit half a sample inside the object's true edge (a sample stands for its
 * whole cell): how far to move each out to the cell boundary, away from its background
 * neighbours (in samples).
 */
export function rimShifts(
  mask: Mask,
  used: Uint8Array,
  rim: Uint8Array,
): { shiftX: Float32Array; shiftY: Float32Array } {
  const { width, height } = mask;
  const sampleCount = width * height;
  const shiftX = new Float32Array(sampleCount);
  const shiftY = new Float32Array(sampleCount);
  for (let s = 0; s < sampleCount; s++) {
    if (!rim[s]) continue;
    const x = s % width;
    const y = (s - x) / width;
    let dx = 0;
    let dy = 0;
    for (let oy = -1; oy <= 1; oy++) {
      for (let ox = -1; ox <= 1; ox++) {
        const nx = x + ox;
        const ny = y + oy;
        const outside = nx < 0 || ny < 0 || nx >= width || ny >= height;
        if ((ox || oy) && (outside || !used[ny * width + nx])) {
          const len = Math.hypot(ox, oy);
          dx += ox / len;
          dy += oy / len;
        }
      }
    }
    const len = Math.hypot(dx, dy);
    if (len < 1e-6) continue;
    const ux = dx / len;
    const uy = dy / len;
    // The edge crosses the cell where its coverage says: at the boundary when fully covered,
    // at the centre when half covered, inside when barely (thin parts widened to be meshable).
    const cover = mask.coverage ? Math.min(1, mask.coverage[s]!) : 1;
    const reach = Math.max(-0.4, cover - 0.5) / Math.max(Math.abs(ux), Math.abs(uy));
    shiftX[s] = ux * reach;
    shiftY[s] = uy * reach;
  }
  return { shiftX, shiftY };
}

/**
 * Sample grid → pixel units (x right, y up), then fitted to 1 unit high; the bulge (not the rim)
 * scaled to the requested depth, or the natural one capped.
 */
export function placeSamples(
  mask: Mask,
  z: Float32Array,
  used: Uint8Array,
  { shiftX, shiftY }: { shiftX: Float32Array; shiftY: Float32Array },
  options: ReliefOptions,
): Placement {
  const { width, height } = mask;
  const sampleCount = width * height;
  const sx = options.pixelWidth / width;
  const sy = options.pixelHeight / height;
  const sz = (sx + sy) / 2;
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  let maxZ = 0;
  for (let s = 0; s < sampleCount; s++) {
    if (!used[s]) continue;
    const x = ((s % width) + 0.5 + shiftX[s]!) * sx;
    const y = -(Math.floor(s / width) + 0.5 + shiftY[s]!) * sy;
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
    maxZ = Math.max(maxZ, z[s]! * sz);
  }
  const scale = 1 / Math.max(maxY - minY, (maxX - minX) / MAX_WIDTH, 1e-9);
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  const rimZ = RIM_HALF_DEPTH * sz * scale;
  const natural = maxZ * scale;
  const modelWidth = (maxX - minX) * scale;
  const target = Math.max(
    options.halfDepth ?? Math.min(natural, 0.5),
    ((options.minDepthOverWidth ?? 0) * modelWidth) / 2,
  );
  const zScale = natural > 0 ? Math.max(0, target - rimZ) / natural : 0;

  const halfDepth = new Float32Array(sampleCount);
  for (let s = 0; s < sampleCount; s++)
    if (used[s]) halfDepth[s] = rimZ + z[s]! * sz * scale * zScale;
  return {
    xOf: (s) => (((s % width) + 0.5 + shiftX[s]!) * sx - cx) * scale,
    yOf: (s) => (-(Math.floor(s / width) + 0.5 + shiftY[s]!) * sy - cy) * scale,
    halfDepth,
    sampleSize: sz * scale,
  };
}
