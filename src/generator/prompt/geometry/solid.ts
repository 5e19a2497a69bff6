/**
 * The solid under construction that every part of the kit builds: float64 positions, unit
 * normals and indices, closed and counter-clockwise seen from outside. Its bookkeeping (winding,
 * welded normals, merging, bounds, volume) and its conversion to the generator's `MeshData`.
 */
import { faceNormal, smoothVertexNormals, type MeshData } from '../../core/mesh.ts';

/** A mesh under construction: xyz positions, unit xyz normals, three indices a triangle. */
export interface Solid {
  positions: number[];
  normals: number[];
  indices: number[];
}

export type Vec3 = [number, number, number];

/** Flips triangles whose winding disagrees with their vertices' normals (faces outward). */
export function orientToNormals(s: Solid): Solid {
  const { positions, normals, indices } = s;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3];
    const [nx, ny, nz] = faceNormal(positions, a, b, c);
    let dot = 0;
    for (const v of [a, b, c])
      dot += nx * normals[v]! + ny * normals[v + 1]! + nz * normals[v + 2]!;
    if (dot < 0) {
      indices[t + 1] = indices[t + 2]!;
      indices[t + 2] = b / 3;
    }
  }
  return s;
}

/**
 * Signed volume enclosed by a triangle mesh (sum of the tetrahedra to the origin); positive
 * for a closed mesh wound counter-clockwise seen from outside.
 */
export function signedVolume(positions: ArrayLike<number>, indices: ArrayLike<number>): number {
  let volume = 0;
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3];
    const [ax, ay, az] = [positions[a]!, positions[a + 1]!, positions[a + 2]!];
    const [bx, by, bz] = [positions[b]!, positions[b + 1]!, positions[b + 2]!];
    const [cx, cy, cz] = [positions[c]!, positions[c + 1]!, positions[c + 2]!];
    volume += (ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)) / 6;
  }
  return volume;
}

/**
 * Area-weighted vertex normals of a welded mesh (the generator's one rule, see
 * `smoothVertexNormals`: a vertex whose faces cancel out gets +Z, never a zero normal).
 */
export function smoothNormals(positions: readonly number[], indices: readonly number[]): number[] {
  return Array.from(smoothVertexNormals(positions, indices));
}

/** Reverses every triangle when the mesh encloses a negative volume (wound inside out). */
export function turnOutward(positions: readonly number[], indices: number[]): void {
  if (signedVolume(positions, indices) < 0)
    for (let t = 0; t < indices.length; t += 3)
      [indices[t + 1], indices[t + 2]] = [indices[t + 2]!, indices[t + 1]!];
}

/** One solid holding all of `solids`' triangles (a union of closed meshes). */
export function merge(solids: readonly Solid[]): Solid {
  const out: Solid = { positions: [], normals: [], indices: [] };
  for (const s of solids) {
    const base = out.positions.length / 3;
    for (const v of s.positions) out.positions.push(v);
    for (const v of s.normals) out.normals.push(v);
    for (const v of s.indices) out.indices.push(base + v);
  }
  return out;
}

/** Axis-aligned bounds of some solids. */
export function bounds(solids: readonly Solid[]): { min: Vec3; max: Vec3 } {
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  for (const s of solids) {
    for (let v = 0; v < s.positions.length; v += 3) {
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, s.positions[v + k]!);
        max[k] = Math.max(max[k]!, s.positions[v + k]!);
      }
    }
  }
  return { min, max };
}

/** The float32 mesh of a solid. */
export function toMesh(s: Solid): MeshData {
  const normals = new Float32Array(s.normals.length);
  for (let v = 0; v < s.normals.length; v += 3) {
    const len = Math.hypot(s.normals[v]!, s.normals[v + 1]!, s.normals[v + 2]!) || 1;
    for (let k = 0; k < 3; k++) normals[v + k] = s.normals[v + k]! / len;
  }
  return {
    positions: Float32Array.from(s.positions),
    normals,
    indices: Uint32Array.from(s.indices),
  };
}

/** Splits every triangle off with its own face normal (a faceted look). */
export function flatShade(s: Solid): Solid {
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  for (let t = 0; t < s.indices.length; t += 3) {
    const vs = [s.indices[t]! * 3, s.indices[t + 1]! * 3, s.indices[t + 2]! * 3];
    const n = faceNormal(s.positions, vs[0]!, vs[1]!, vs[2]!);
    const len = Math.hypot(...n);
    for (const v of vs) {
      indices.push(positions.length / 3);
      positions.push(s.positions[v]!, s.positions[v + 1]!, s.positions[v + 2]!);
      normals.push(n[0] / len, n[1] / len, n[2] / len);
    }
  }
  return { positions, normals, indices };
}
