import { faceNormal, type MeshData } from './mesh.ts';

/** A point of a lathe profile in the (radius, height) half-plane. */
export interface ProfilePoint {
  r: number;
  y: number;
  /** A sharp edge: the surface normal is not smoothed across this point. */
  crease?: boolean;
}

/** Flips triangles whose winding disagrees with their vertices' normals (faces outward). */
function orientToNormals(positions: Float32Array, normals: Float32Array, indices: number[]): void {
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
}

/**
 * Revolves a profile around the Y axis. The profile runs from the bottom to the top (for a
 * solid, starting and ending on the axis), or is a closed loop (`closed`, e.g. a torus).
 * Normals come from the profile's tangents, split at creases; rings on the axis become fans,
 * so there are no degenerate triangles.
 */
export function lathe(
  profile: readonly ProfilePoint[],
  segments: number,
  closed = false,
): MeshData {
  // Expand creases into two rings with one-sided normals.
  const rings: { r: number; y: number; nr: number; ny: number }[] = [];
  const n = profile.length;
  const tangentNormal = (from: ProfilePoint, to: ProfilePoint): [number, number] => {
    const dr = to.r - from.r;
    const dy = to.y - from.y;
    const len = Math.hypot(dr, dy) || 1;
    // Walking up the profile, the outside is on the right: (dy, −dr).
    return [dy / len, -dr / len];
  };
  for (let i = 0; i < n; i++) {
    const p = profile[i]!;
    const prev = closed ? profile[(i - 1 + n) % n]! : profile[i - 1];
    const next = closed ? profile[(i + 1) % n]! : profile[i + 1];
    if (p.crease || !prev || !next) {
      if (prev) rings.push({ r: p.r, y: p.y, ...asNormal(tangentNormal(prev, p)) });
      if (next) rings.push({ r: p.r, y: p.y, ...asNormal(tangentNormal(p, next)) });
    } else {
      rings.push({ r: p.r, y: p.y, ...asNormal(tangentNormal(prev, next)) });
    }
  }
  const positions = new Float32Array(rings.length * segments * 3);
  const normals = new Float32Array(rings.length * segments * 3);
  rings.forEach((ring, k) => {
    for (let s = 0; s < segments; s++) {
      const phi = (2 * Math.PI * s) / segments;
      const cos = Math.cos(phi);
      const sin = Math.sin(phi);
      const v = (k * segments + s) * 3;
      positions.set([ring.r * cos, ring.y, ring.r * sin], v);
      normals.set([ring.nr * cos, ring.ny, ring.nr * sin], v);
    }
  });
  const indices: number[] = [];
  const ringCount = closed ? rings.length : rings.length - 1;
  for (let k = 0; k < ringCount; k++) {
    const k2 = (k + 1) % rings.length;
    const lo = rings[k]!;
    const hi = rings[k2]!;
    if (lo.r === hi.r && lo.y === hi.y) continue; // the two halves of a crease
    for (let s = 0; s < segments; s++) {
      const s2 = (s + 1) % segments;
      const a = k * segments + s;
      const b = k * segments + s2;
      const c = k2 * segments + s;
      const d = k2 * segments + s2;
      if (lo.r > 0) indices.push(a, c, b);
      if (hi.r > 0) indices.push(b, c, d);
    }
  }
  orientToNormals(positions, normals, indices);
  return { positions, normals, indices: Uint32Array.from(indices) };
}

function asNormal([nr, ny]: [number, number]): { nr: number; ny: number } {
  return { nr, ny };
}

/** An axis-aligned box centred at the origin with flat faces. */
export function box(width: number, height: number, depth: number): MeshData {
  const [hx, hy, hz] = [width / 2, height / 2, depth / 2];
  // For each face: normal, and two in-plane axes.
  const faces: [number[], number[], number[]][] = [
    [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    [
      [-1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    [
      [0, 1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ],
    [
      [0, -1, 0],
      [1, 0, 0],
      [0, 0, 1],
    ],
    [
      [0, 0, 1],
      [1, 0, 0],
      [0, 1, 0],
    ],
    [
      [0, 0, -1],
      [1, 0, 0],
      [0, 1, 0],
    ],
  ];
  const positions = new Float32Array(24 * 3);
  const normals = new Float32Array(24 * 3);
  const indices: number[] = [];
  const half = [hx, hy, hz];
  faces.forEach(([normal, u, v], f) => {
    const corners = [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ];
    corners.forEach(([cu, cv], i) => {
      const p = [0, 1, 2].map(
        (axis) => (normal[axis]! + cu! * u[axis]! + cv! * v[axis]!) * half[axis]!,
      );
      positions.set(p, (f * 4 + i) * 3);
      normals.set(normal, (f * 4 + i) * 3);
    });
    indices.push(f * 4, f * 4 + 1, f * 4 + 2, f * 4, f * 4 + 2, f * 4 + 3);
  });
  orientToNormals(positions, normals, indices);
  return { positions, normals, indices: Uint32Array.from(indices) };
}

/** Profile of a sphere of radius `radius` centred at the origin. */
export function sphereProfile(radius: number, steps = 24): ProfilePoint[] {
  return Array.from({ length: steps + 1 }, (_, i) => {
    const theta = Math.PI * (i / steps) - Math.PI / 2;
    return {
      r: i === 0 || i === steps ? 0 : radius * Math.cos(theta),
      y: radius * Math.sin(theta),
    };
  });
}

/** Profile of a circle (the tube of a torus), as a closed loop. */
export function circleProfile(centreR: number, radius: number, steps = 24): ProfilePoint[] {
  return Array.from({ length: steps }, (_, i) => {
    const t = (2 * Math.PI * i) / steps;
    return { r: centreR + radius * Math.cos(t), y: radius * Math.sin(t) };
  });
}
