/** An indexed triangle mesh with per-vertex normals and optional texture coordinates. */
export interface MeshData {
  /** xyz per vertex. */
  positions: Float32Array;
  /** Unit xyz per vertex. */
  normals: Float32Array;
  /** uv per vertex (glTF convention: v = 0 at the top of the image). */
  uvs?: Float32Array;
  /** Three vertex indices per triangle, counter-clockwise seen from outside. */
  indices: Uint32Array;
}

/**
 * Area-weighted smooth vertex normals, in float64: the generator's one rule for them. A vertex
 * whose faces cancel out (or that belongs to no face) gets `fallback`, so every normal is unit
 * length as glTF requires.
 */
export function smoothVertexNormals(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  fallback: readonly [number, number, number] = [0, 0, 1],
): Float64Array {
  const count = positions.length / 3;
  const normals = new Float64Array(count * 3);
  for (let t = 0; t < indices.length; t += 3) {
    const a = indices[t]! * 3;
    const b = indices[t + 1]! * 3;
    const c = indices[t + 2]! * 3;
    // The cross product's length is twice the area: larger faces weigh more.
    const [nx, ny, nz] = faceNormal(positions, a, b, c);
    for (const v of [a, b, c]) {
      normals[v] = normals[v]! + nx;
      normals[v + 1] = normals[v + 1]! + ny;
      normals[v + 2] = normals[v + 2]! + nz;
    }
  }
  for (let v = 0; v < count * 3; v += 3) {
    const len = Math.hypot(normals[v]!, normals[v + 1]!, normals[v + 2]!);
    if (len > 1e-12) {
      normals[v] = normals[v]! / len;
      normals[v + 1] = normals[v + 1]! / len;
      normals[v + 2] = normals[v + 2]! / len;
    } else {
      normals.set(fallback, v);
    }
  }
  return normals;
}

/** {@link smoothVertexNormals} as the float32 a {@link MeshData} holds. */
export function computeVertexNormals(
  positions: ArrayLike<number>,
  indices: ArrayLike<number>,
  fallback: readonly [number, number, number] = [0, 0, 1],
): Float32Array {
  return Float32Array.from(smoothVertexNormals(positions, indices, fallback));
}

/**
 * Extracts the triangles `indices` (into a larger vertex set) as a standalone mesh holding only
 * the vertices they use. `uvOf(v)` supplies each kept vertex's texture coordinates.
 */
export function extractSubmesh(
  positions: ArrayLike<number>,
  normals: ArrayLike<number>,
  indices: ArrayLike<number>,
  uvOf?: (vertex: number) => readonly [number, number],
): MeshData {
  const remap = new Map<number, number>();
  const local = new Uint32Array(indices.length);
  for (let i = 0; i < indices.length; i++) {
    const v = indices[i]!;
    let n = remap.get(v);
    if (n === undefined) {
      n = remap.size;
      remap.set(v, n);
    }
    local[i] = n;
  }
  const outPositions = new Float32Array(remap.size * 3);
  const outNormals = new Float32Array(remap.size * 3);
  const outUvs = uvOf ? new Float32Array(remap.size * 2) : undefined;
  for (const [v, n] of remap) {
    for (let k = 0; k < 3; k++) {
      outPositions[n * 3 + k] = positions[v * 3 + k]!;
      outNormals[n * 3 + k] = normals[v * 3 + k]!;
    }
    if (outUvs && uvOf) outUvs.set(uvOf(v), n * 2);
  }
  return {
    positions: outPositions,
    normals: outNormals,
    ...(outUvs ? { uvs: outUvs } : {}),
    indices: local,
  };
}

/** The (unnormalised) normal of the triangle whose vertices start at offsets a, b, c. */
export function faceNormal(
  positions: ArrayLike<number>,
  a: number,
  b: number,
  c: number,
): [number, number, number] {
  const ux = positions[b]! - positions[a]!;
  const uy = positions[b + 1]! - positions[a + 1]!;
  const uz = positions[b + 2]! - positions[a + 2]!;
  const vx = positions[c]! - positions[a]!;
  const vy = positions[c + 1]! - positions[a + 1]!;
  const vz = positions[c + 2]! - positions[a + 2]!;
  return [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
}
