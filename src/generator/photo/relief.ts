import { distanceToBackground } from './distance-transform.ts';
import type { Mask } from './mask.ts';
import { computeVertexNormals } from '../core/mesh.ts';

/**
 * The "inflated billboard": a closed mesh whose outline follows an object mask. Its front
 * (+Z) and mirrored back (−Z) surfaces bulge with distance from the outline, so thin parts
 * become tubes and broad parts become domes; a narrow wall joins them along the outline.
 *
 * Vertices sit at the mask's sample centres. All three triangle sets index one shared vertex
 * array; `sampleOf` tells which mask sample each vertex came from (for texture coordinates).
 */
export interface Relief {
  positions: Float32Array;
  normals: Float32Array;
  /**
   * Vertex → sample index (y * width + x) in the mask. The first half of the relief's own
   * vertices are the front's, the second half the back's; the copies' vertices follow.
   */
  sampleOf: Int32Array;
  /** Vertices before this one are the front's. */
  frontCount: number;
  front: Uint32Array;
  back: Uint32Array;
  walls: Uint32Array;
  /** Closed copies of parts placed elsewhere in depth (hidden legs behind the seen ones). */
  extra: Uint32Array;
}

/** What a depth profile is told about the inflated relief (model units: the object is 1 high). */
export interface ProfileInput {
  /** The mask the relief is built on (pinches filled). */
  mask: Mask;
  /** Per sample: the inflated half-depth (front at +h, back at −h); 0 off the object. */
  halfDepth: Float32Array;
  /** One sample's size. */
  sampleSize: number;
}

/** Where the surfaces lie in depth, per sample, and which parts are repeated further back. */
export interface DepthProfile {
  /** Per sample: the front surface's z. */
  front: Float32Array;
  /** Per sample: the back surface's z (at most `front`'s). */
  back: Float32Array;
  /** Parts repeated elsewhere in depth: their samples, each closed, at their own depths. */
  copies?: { inside: Uint8Array; front: Float32Array; back: Float32Array }[];
}

export interface ReliefOptions {
  /** Size in pixels of the image area the mask covers (it sets the aspect ratio). */
  pixelWidth: number;
  pixelHeight: number;
  /**
   * Half of the thickness at the thickest point, in output units (the object is 1 high).
   * Default: whatever the inflation gives, capped at 0.5.
   */
  halfDepth?: number;
  /**
   * Lower bound of the whole thickness as a fraction of the width (a flat outline, such as a
   * thin wide plate, is still given this much body). Default 0.
   */
  minDepthOverWidth?: number;
  /** Moves the front and back surfaces (depth cues); default: the symmetric inflation. */
  profile?: (input: ProfileInput) => DepthProfile;
}

/** Half-thickness of the rim wall, in samples: thin parts stay solid instead of collapsing. */
const RIM_HALF_DEPTH = 0.3;
/** Smoothing passes over the height field (removes creases where inflation spheres meet). */
const SMOOTHING_PASSES = 3;
/** Largest object size: 1 unit high, at most this wide. */
const MAX_WIDTH = 2;

/**
 * Height field of the inflated mask, in samples: the union of spheres centred on the
 * medial axis (each sample whose inscribed disk is not inside a neighbour's), i.e.
 * z(q) = max over centres c of sqrt(r_c² − |q − c|²). Cross-sections of thin strips are
 * semicircles and round blobs become hemispheres.
 */
function inflate(mask: Mask, dist: Float32Array): Float32Array {
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

/** Cell triangulation: each cell's corners (a b / c d) with 4 or 3 corners inside. */
function triangulate(mask: Mask, z: Float32Array): number[] {
  const { width, height, inside } = mask;
  const tris: number[] = [];
  for (let y = 0; y + 1 < height; y++) {
    for (let x = 0; x + 1 < width; x++) {
      const a = y * width + x;
      const b = a + 1;
      const c = a + width;
      const d = c + 1;
      const ia = inside[a]!;
      const ib = inside[b]!;
      const ic = inside[c]!;
      const id = inside[d]!;
      const n = ia + ib + ic + id;
      // Counter-clockwise seen from +Z, with image rows running down (−Y).
      if (n === 4) {
        // Split along the diagonal with the smaller height difference: smoother surface.
        if (Math.abs(z[a]! - z[d]!) <= Math.abs(z[b]! - z[c]!)) tris.push(a, c, d, a, d, b);
        else tris.push(a, c, b, b, c, d);
      } else if (n === 3) {
        // Cut the missing corner off: outlines get 45° steps instead of staircases.
        if (!ia) tris.push(b, c, d);
        else if (!ib) tris.push(a, c, d);
        else if (!ic) tris.push(a, d, b);
        else tris.push(a, c, b);
      }
    }
  }
  return tris;
}

/** Directed outline edges: edges used by exactly one triangle, in that triangle's direction. */
function outlineEdges(tris: readonly number[], sampleCount: number): [number, number][] {
  const edges = new Map<number, [number, number] | null>();
  for (let t = 0; t < tris.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const u = tris[t + k]!;
      const v = tris[t + ((k + 1) % 3)]!;
      const key = Math.min(u, v) * sampleCount + Math.max(u, v);
      edges.set(key, edges.has(key) ? null : [u, v]);
    }
  }
  return [...edges.values()].filter((e): e is [number, number] => e !== null);
}

/**
 * Fills the background samples around "pinch" points, where two parts of the outline touch
 * at a single sample: the rim wall there would share an edge among four faces. Afterwards
 * every outline sample starts exactly one outline edge, so the closed mesh is edge-manifold.
 */
function withoutPinches(mask: Mask): Mask {
  const { width, height } = mask;
  let inside = mask.inside;
  const flat = new Float32Array(width * height);
  for (let round = 0; round < 8; round++) {
    const outline = outlineEdges(triangulate({ ...mask, inside }, flat), width * height);
    const starts = new Uint8Array(width * height);
    const pinches: number[] = [];
    for (const [u] of outline) if (++starts[u]! === 2) pinches.push(u);
    if (pinches.length === 0) break;
    inside = new Uint8Array(inside);
    for (const s of pinches) {
      const x = s % width;
      const y = (s - x) / width;
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++) {
        for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
          inside[ny * width + nx] = 1;
        }
      }
    }
  }
  return inside === mask.inside ? mask : { ...mask, inside };
}

/** Where each used sample goes in the model: its x and y (1 unit high, centred). */
interface Placement {
  xOf: (s: number) => number;
  yOf: (s: number) => number;
  /** Per sample: the inflated half-depth (see {@link ProfileInput}). */
  halfDepth: Float32Array;
  /** One sample's size in model units. */
  sampleSize: number;
}

export function buildRelief(input: Mask, options: ReliefOptions): Relief {
  const mask = withoutPinches(input);
  const sampleCount = mask.width * mask.height;
  const z = inflate(mask, distanceToBackground(mask));
  const tris = triangulate(mask, z);
  const outline = outlineEdges(tris, sampleCount);

  const used = new Uint8Array(sampleCount);
  for (const s of tris) used[s] = 1;
  const rim = new Uint8Array(sampleCount);
  for (const [u, v] of outline) rim[u] = rim[v] = 1;

  smoothInterior(z, used, rim, mask.width);
  const place = placeSamples(mask, z, used, rimShifts(mask, used, rim), options);
  let profile: DepthProfile = {
    front: place.halfDepth,
    back: place.halfDepth.map((h) => -h),
  };
  if (options.profile)
    profile = options.profile({ mask, halfDepth: place.halfDepth, sampleSize: place.sampleSize });

  // Front copies first, then back copies, of every used sample.
  const vertexOf = new Int32Array(sampleCount).fill(-1);
  const samples: number[] = [];
  for (let s = 0; s < sampleCount; s++) {
    if (used[s]) {
      vertexOf[s] = samples.length;
      samples.push(s);
    }
  }
  const n = samples.length;
  const positions: number[] = new Array<number>(n * 6);
  const sampleOf: number[] = new Array<number>(n * 2);
  samples.forEach((s, i) => {
    const x = place.xOf(s);
    const y = place.yOf(s);
    positions[i * 3] = positions[(n + i) * 3] = x;
    positions[i * 3 + 1] = positions[(n + i) * 3 + 1] = y;
    positions[i * 3 + 2] = profile.front[s]!;
    positions[(n + i) * 3 + 2] = profile.back[s]!;
    sampleOf[i] = sampleOf[n + i] = s;
  });

  const front = new Uint32Array(tris.length);
  const back = new Uint32Array(tris.length);
  for (let t = 0; t < tris.length; t += 3) {
    const a = vertexOf[tris[t]!]!;
    const b = vertexOf[tris[t + 1]!]!;
    const c = vertexOf[tris[t + 2]!]!;
    front.set([a, b, c], t);
    back.set([n + a, n + c, n + b], t); // mirrored: reversed winding faces −Z
  }
  // Each outline edge u→v (interior on its left, seen from +Z) gets an outward-facing quad.
  const walls = new Uint32Array(outline.length * 6);
  outline.forEach(([su, sv], e) => {
    const u = vertexOf[su]!;
    const v = vertexOf[sv]!;
    walls.set([u, n + u, v, v, n + u, n + v], e * 6);
  });

  const extra = addCopies(profile.copies ?? [], mask, z, used, place, positions, sampleOf);

  const all = new Uint32Array(front.length + back.length + walls.length + extra.length);
  all.set(front, 0);
  all.set(back, front.length);
  all.set(walls, front.length + back.length);
  all.set(extra, front.length + back.length + walls.length);
  const outPositions = Float32Array.from(positions);
  const normals = computeVertexNormals(outPositions, all);
  return {
    positions: outPositions,
    normals,
    sampleOf: Int32Array.from(sampleOf),
    frontCount: n,
    front,
    back,
    walls,
    extra: Uint32Array.from(extra),
  };
}

/** Pins the outline to the rim and smooths the interior (Jacobi iterations over used samples). */
function smoothInterior(z: Float32Array, used: Uint8Array, rim: Uint8Array, width: number): void {
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

/**
 * Outline samples sit half a sample inside the object's true edge (a sample stands for its
 * whole cell): how far to move each out to the cell boundary, away from its background
 * neighbours (in samples).
 */
function rimShifts(
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
function placeSamples(
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

/**
 * The profile's copies, each its own closed relief over its samples at its own depths: their
 * vertices appended to `positions` and `sampleOf`, their triangles returned.
 */
function addCopies(
  copies: NonNullable<DepthProfile['copies']>,
  mask: Mask,
  z: Float32Array,
  used: Uint8Array,
  place: Placement,
  positions: number[],
  sampleOf: number[],
): number[] {
  const sampleCount = mask.width * mask.height;
  const extra: number[] = [];
  for (const copy of copies) {
    const part = withoutPinches({ ...mask, inside: copy.inside });
    const partTris = triangulate(part, z);
    const partOutline = outlineEdges(partTris, sampleCount);
    const local = new Int32Array(sampleCount).fill(-1);
    const partSamples: number[] = [];
    for (const s of partTris) {
      if (local[s] !== -1) continue;
      if (!used[s]) {
        partSamples.length = 0; // a pinch filled outside the object: leave this copy out
        break;
      }
      local[s] = partSamples.length;
      partSamples.push(s);
    }
    if (partSamples.length === 0) continue;
    const base = positions.length / 3;
    const m = partSamples.length;
    for (const [side, zs] of [
      [0, copy.front],
      [1, copy.back],
    ] as const)
      partSamples.forEach((s, i) => {
        const o = (base + side * m + i) * 3;
        positions[o] = place.xOf(s);
        positions[o + 1] = place.yOf(s);
        positions[o + 2] = zs[s]!;
        sampleOf[base + side * m + i] = s;
      });
    for (let t = 0; t < partTris.length; t += 3) {
      const a = base + local[partTris[t]!]!;
      const b = base + local[partTris[t + 1]!]!;
      const c = base + local[partTris[t + 2]!]!;
      extra.push(a, b, c, m + a, m + c, m + b);
    }
    for (const [su, sv] of partOutline) {
      const u = base + local[su]!;
      const v = base + local[sv]!;
      extra.push(u, m + u, v, v, m + u, m + v);
    }
  }
  return extra;
}
