import type { MeshData } from './mesh.ts';

/** A mesh before normals and texture coordinates: MeshData's positions and indices. */
export type TriangleMesh = Pick<MeshData, 'positions' | 'indices'>;

/** Corner c of a cell is offset by (c & 1, c >> 1 & 1, c >> 2 & 1). */
const cornerOffset = (c: number, axis: number): number => (c >> axis) & 1;

/** The 12 cell edges as pairs of corners (flat: a0, b0, a1, b1, …). */
const EDGES: Uint8Array = (() => {
  const edges: number[] = [];
  for (let c = 0; c < 8; c++) {
    for (const bit of [1, 2, 4]) if (!(c & bit)) edges.push(c, c | bit);
  }
  return Uint8Array.from(edges);
})();

/** A growable typed array of numbers. */
class Growable<T extends Float32Array | Uint32Array> {
  length = 0;
  constructor(
    public data: T,
    private readonly make: (n: number) => T,
  ) {}
  reserve(extra: number): void {
    if (this.length + extra <= this.data.length) return;
    const next = this.make(Math.max(this.data.length * 2, this.length + extra));
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
  result(): T {
    return this.data.slice(0, this.length) as T;
  }
}

/**
 * Naive surface nets over a scalar field on an nx × ny × nz grid (sample (i, j, k) at index
 * i + nx · (j + ny · k); value > 0 inside). One vertex per cell the surface crosses, at the
 * mean of the crossings (linearly interpolated) on the cell's edges; one quad (two triangles,
 * split along the shorter diagonal) per grid edge with a sign change. Triangles wind
 * counter-clockwise seen from outside. The outermost samples must be outside (≤ 0), which
 * makes the surface closed. Positions are in grid units (sample (i, j, k) at (i, j, k)).
 */
export function surfaceNets(field: Float32Array, nx: number, ny: number, nz: number): TriangleMesh {
  const cx = nx - 1;
  const cy = ny - 1;
  const cz = nz - 1;
  const sxy = nx * ny;
  // Only read for cells with a vertex, which are written first.
  const vertexOf = new Uint32Array(cx * cy * cz);
  const positions = new Growable(new Float32Array(3 * 4096), (n) => new Float32Array(n));
  const indices = new Growable(new Uint32Array(6 * 4096), (n) => new Uint32Array(n));
  const corner = new Float64Array(8);
  const offsets = Array.from(
    { length: 8 },
    (_, c) => cornerOffset(c, 0) + nx * (cornerOffset(c, 1) + ny * cornerOffset(c, 2)),
  );
  // Quad a, b, c, d counter-clockwise about its normal (reversed when `flip`).
  const quad = (a: number, b: number, c: number, d: number, flip: boolean): void => {
    if (flip) {
      const t = b;
      b = d;
      d = t;
    }
    const p = positions.data;
    const ac =
      (p[a * 3]! - p[c * 3]!) ** 2 +
      (p[a * 3 + 1]! - p[c * 3 + 1]!) ** 2 +
      (p[a * 3 + 2]! - p[c * 3 + 2]!) ** 2;
    const bd =
      (p[b * 3]! - p[d * 3]!) ** 2 +
      (p[b * 3 + 1]! - p[d * 3 + 1]!) ** 2 +
      (p[b * 3 + 2]! - p[d * 3 + 2]!) ** 2;
    indices.reserve(6);
    const out = indices.data;
    const o = indices.length;
    indices.length += 6;
    if (ac <= bd) {
      out[o] = a;
      out[o + 1] = b;
      out[o + 2] = c;
      out[o + 3] = a;
      out[o + 4] = c;
      out[o + 5] = d;
    } else {
      out[o] = a;
      out[o + 1] = b;
      out[o + 2] = d;
      out[o + 3] = b;
      out[o + 4] = c;
      out[o + 5] = d;
    }
  };

  for (let k = 0; k < cz; k++) {
    for (let j = 0; j < cy; j++) {
      const row = nx * (j + ny * k);
      const cellRow = cx * (j + cy * k);
      // Inside bits of the cell's corners: its x = i face in bits 0, 2, 4, 6 (the y, z
      // corners), its x = i + 1 face in bits 1, 3, 5, 7; each face is the next cell's other.
      const face = (s: number): number =>
        (field[s]! > 0 ? 1 : 0) |
        (field[s + nx]! > 0 ? 4 : 0) |
        (field[s + sxy]! > 0 ? 16 : 0) |
        (field[s + sxy + nx]! > 0 ? 64 : 0);
      let low = face(row);
      for (let i = 0; i < cx; i++) {
        const high = face(row + i + 1);
        const bits = low | (high << 1);
        low = high;
        if (bits === 0 || bits === 255) continue;
        const base = row + i;
        for (let c = 0; c < 8; c++) corner[c] = field[base + offsets[c]!]!;
        let sx = 0;
        let sy = 0;
        let sz = 0;
        let n = 0;
        for (let e = 0; e < 24; e += 2) {
          const a = EDGES[e]!;
          const b = EDGES[e + 1]!;
          if (((bits >> a) & 1) === ((bits >> b) & 1)) continue;
          const va = corner[a]!;
          const t = va / (va - corner[b]!);
          // a and b differ in one bit: along that axis the crossing is at t, elsewhere at a's.
          const axis = (a ^ b) >> 1;
          sx += axis === 0 ? t : a & 1;
          sy += axis === 1 ? t : (a >> 1) & 1;
          sz += axis === 2 ? t : (a >> 2) & 1;
          n++;
        }
        const cell = cellRow + i;
        const v = positions.length / 3;
        vertexOf[cell] = v;
        positions.reserve(3);
        positions.data[positions.length] = i + sx / n;
        positions.data[positions.length + 1] = j + sy / n;
        positions.data[positions.length + 2] = k + sz / n;
        positions.length += 3;
        // The edges from corner 0 along +x, +y, +z: each with a sign change gets the quad of
        // the four cells around it, all visited by now (cells listed counter-clockwise about
        // the axis: +x: y then z; +y: z then x; +z: x then y; flipped when corner 0 is
        // outside). Edges on the grid's outer faces have both ends outside.
        const flip = (bits & 1) === 0;
        const dy = cx;
        const dz = cx * cy;
        if (j > 0 && k > 0 && (bits & 1) !== ((bits >> 1) & 1)) {
          quad(vertexOf[cell - dy - dz]!, vertexOf[cell - dz]!, v, vertexOf[cell - dy]!, flip);
        }
        if (i > 0 && k > 0 && (bits & 1) !== ((bits >> 2) & 1)) {
          quad(vertexOf[cell - 1 - dz]!, vertexOf[cell - 1]!, v, vertexOf[cell - dz]!, flip);
        }
        if (i > 0 && j > 0 && (bits & 1) !== ((bits >> 4) & 1)) {
          quad(vertexOf[cell - 1 - dy]!, vertexOf[cell - dy]!, v, vertexOf[cell - 1]!, flip);
        }
      }
    }
  }
  return { positions: positions.result(), indices: indices.result() };
}

/**
 * Taubin smoothing (a shrinking Laplacian step λ, then an inflating step μ, per iteration),
 * which evens out the voxel staircase without shrinking the mesh much. Uniform weights over
 * each vertex's edge neighbours. Returns new positions.
 */
export function taubinSmooth(
  mesh: TriangleMesh,
  iterations: number,
  lambda = 0.5,
  mu = -0.53,
): Float32Array {
  const { indices } = mesh;
  const count = mesh.positions.length / 3;
  // Neighbour lists (compressed rows); an edge shared by two triangles is listed twice, which
  // weighs every neighbour alike on a closed mesh.
  const degree = new Uint32Array(count + 1);
  for (let t = 0; t < indices.length; t++) degree[indices[t]! + 1]! += 2;
  for (let v = 0; v < count; v++) degree[v + 1]! += degree[v]!;
  const start = degree.slice();
  const neighbours = new Uint32Array(indices.length * 2);
  for (let t = 0; t < indices.length; t += 3) {
    for (let e = 0; e < 3; e++) {
      const a = indices[t + e]!;
      const b = indices[t + ((e + 1) % 3)]!;
      const c = indices[t + ((e + 2) % 3)]!;
      neighbours[start[a]!++] = b;
      neighbours[start[a]!++] = c;
    }
  }
  let current = new Float32Array(mesh.positions);
  let next = new Float32Array(current.length);
  const pass = (factor: number): void => {
    for (let v = 0; v < count; v++) {
      const from = degree[v]!;
      const to = degree[v + 1]!;
      if (to === from) {
        next[v * 3] = current[v * 3]!;
        next[v * 3 + 1] = current[v * 3 + 1]!;
        next[v * 3 + 2] = current[v * 3 + 2]!;
        continue;
      }
      let sx = 0;
      let sy = 0;
      let sz = 0;
      for (let n = from; n < to; n++) {
        const u = neighbours[n]! * 3;
        sx += current[u]!;
        sy += current[u + 1]!;
        sz += current[u + 2]!;
      }
      const inv = 1 / (to - from);
      for (let k = 0; k < 3; k++) {
        const p = current[v * 3 + k]!;
        const mean = (k === 0 ? sx : k === 1 ? sy : sz) * inv;
        next[v * 3 + k] = p + factor * (mean - p);
      }
    }
    [current, next] = [next, current];
  };
  for (let it = 0; it < iterations; it++) {
    pass(lambda);
    pass(mu);
  }
  return current;
}
