/**
 * A small kit of closed, outward-facing solids for the prompt templates: lathes, boxes,
 * extruded polygons, arc tubes and star-shaped surfaces, with affine transforms and merging.
 *
 * Every solid is a closed triangle mesh whose triangles are counter-clockwise seen from
 * outside, with unit vertex normals and no degenerate triangles or unused vertices. Parts
 * are built in float64 (`Solid`) and only converted to the generator's float32 `MeshData`
 * (no uvs) at the end.
 */
import { faceNormal, type MeshData } from '../core/mesh.ts';

/** A mesh under construction: xyz positions, unit xyz normals, three indices a triangle. */
export interface Solid {
  positions: number[];
  normals: number[];
  indices: number[];
}

export type Vec3 = [number, number, number];

/** A point of a lathe profile in the (radius, height) half-plane. */
export interface ProfilePoint {
  r: number;
  y: number;
  /** A sharp edge: the surface normal is not smoothed across this point. */
  crease?: boolean;
}

/** Flips triangles whose winding disagrees with their vertices' normals (faces outward). */
function orientToNormals(s: Solid): Solid {
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
 * Revolves a profile around the Y axis. The profile runs from the bottom to the top (for a
 * solid, starting and ending on the axis), or is a closed loop (`closed`, e.g. a torus).
 * Normals come from the profile's tangents, split at creases; rings on the axis become fans,
 * so there are no degenerate triangles. The first segment lies on +X.
 */
export function latheSolid(
  profile: readonly ProfilePoint[],
  segments: number,
  closed = false,
): Solid {
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
  const push = (p: ProfilePoint, [nr, ny]: [number, number]): void => {
    rings.push({ r: p.r, y: p.y, nr, ny });
  };
  for (let i = 0; i < n; i++) {
    const p = profile[i]!;
    const prev = closed ? profile[(i - 1 + n) % n]! : profile[i - 1];
    const next = closed ? profile[(i + 1) % n]! : profile[i + 1];
    if (p.crease || !prev || !next) {
      if (prev) push(p, tangentNormal(prev, p));
      if (next) push(p, tangentNormal(p, next));
    } else {
      const [ar, ay] = tangentNormal(prev, p);
      const [br, by] = tangentNormal(p, next);
      const len = Math.hypot(ar + br, ay + by) || 1;
      push(p, [(ar + br) / len, (ay + by) / len]);
    }
  }
  const positions: number[] = [];
  const normals: number[] = [];
  for (const ring of rings) {
    for (let s = 0; s < segments; s++) {
      const phi = (2 * Math.PI * s) / segments;
      const cos = Math.cos(phi);
      const sin = Math.sin(phi);
      positions.push(ring.r * cos, ring.y, ring.r * sin);
      normals.push(ring.nr * cos, ring.ny, ring.nr * sin);
    }
  }
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
  return compact(orientToNormals({ positions, normals, indices }));
}

/** Drops vertices no triangle uses (e.g. the extra copies of an axis point). */
function compact(s: Solid): Solid {
  const count = s.positions.length / 3;
  const used = new Int32Array(count).fill(-1);
  let next = 0;
  for (const v of s.indices) if (used[v] === -1) used[v] = next++;
  if (next === count) return s;
  const positions = new Array<number>(next * 3);
  const normals = new Array<number>(next * 3);
  for (let v = 0; v < count; v++) {
    const n = used[v]!;
    if (n < 0) continue;
    for (let k = 0; k < 3; k++) {
      positions[n * 3 + k] = s.positions[v * 3 + k]!;
      normals[n * 3 + k] = s.normals[v * 3 + k]!;
    }
  }
  return { positions, normals, indices: s.indices.map((v) => used[v]!) };
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

/** An axis-aligned box centred at the origin with flat faces. */
export function boxSolid(width: number, height: number, depth: number): Solid {
  const half = [width / 2, height / 2, depth / 2];
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  // For each face: normal, and two in-plane axes.
  const faces: [Vec3, Vec3, Vec3][] = [
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
  faces.forEach(([normal, u, v], f) => {
    for (const [cu, cv] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ] as const) {
      for (let axis = 0; axis < 3; axis++)
        positions.push((normal[axis]! + cu * u[axis]! + cv * v[axis]!) * half[axis]!);
      normals.push(...normal);
    }
    indices.push(f * 4, f * 4 + 1, f * 4 + 2, f * 4, f * 4 + 2, f * 4 + 3);
  });
  return orientToNormals({ positions, normals, indices });
}

/** An axis-aligned box spanning [x0, x1] × [y0, y1] × [z0, z1]. */
export function cuboid(x0: number, y0: number, z0: number, x1: number, y1: number, z1: number) {
  return translate(
    boxSolid(Math.abs(x1 - x0), Math.abs(y1 - y0), Math.abs(z1 - z0)),
    (x0 + x1) / 2,
    (y0 + y1) / 2,
    (z0 + z1) / 2,
  );
}

/** A solid cylinder (or, with `top` ≠ `bottom`, a truncated cone) on the XZ plane, y from y0 to y1. */
export function cylinder(bottom: number, top: number, y0: number, y1: number, segments = 32) {
  const profile: ProfilePoint[] = [{ r: 0, y: y0 }];
  if (bottom > 0) profile.push({ r: bottom, y: y0, crease: true });
  if (top > 0) profile.push({ r: top, y: y1, crease: true });
  profile.push({ r: 0, y: y1 });
  return latheSolid(profile, segments);
}

/** A UV sphere of radius `radius` centred at (x, y, z). */
export function sphere(radius: number, x = 0, y = 0, z = 0, rings = 16, segments = 24) {
  return translate(latheSolid(sphereProfile(radius, rings), segments), x, y, z);
}

/** Twice the signed area of a 2-D polygon (positive when counter-clockwise). */
function area2(poly: readonly (readonly [number, number])[]): number {
  let a = 0;
  for (let i = 0; i < poly.length; i++) {
    const [x0, y0] = poly[i]!;
    const [x1, y1] = poly[(i + 1) % poly.length]!;
    a += x0 * y1 - x1 * y0;
  }
  return a;
}

/** Ear-clipping triangulation of a simple counter-clockwise polygon (indices into it). */
function triangulate(poly: readonly (readonly [number, number])[]): number[] {
  const idx = poly.map((_, i) => i);
  const out: number[] = [];
  const cross = (a: number, b: number, c: number): number => {
    const [ax, ay] = poly[a]!;
    const [bx, by] = poly[b]!;
    const [cx, cy] = poly[c]!;
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  };
  const inside = (p: number, a: number, b: number, c: number): boolean =>
    cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0;
  let guard = poly.length * poly.length;
  while (idx.length > 3 && guard-- > 0) {
    for (let i = 0; i < idx.length; i++) {
      const a = idx[(i - 1 + idx.length) % idx.length]!;
      const b = idx[i]!;
      const c = idx[(i + 1) % idx.length]!;
      if (cross(a, b, c) <= 1e-12) continue;
      if (idx.some((p) => p !== a && p !== b && p !== c && inside(p, a, b, c))) continue;
      out.push(a, b, c);
      idx.splice(i, 1);
      break;
    }
  }
  if (idx.length !== 3) throw new Error('triangulate: not a simple polygon');
  out.push(idx[0]!, idx[1]!, idx[2]!);
  return out;
}

/**
 * A simple polygon in the XY plane extruded along Z from −depth/2 to depth/2, with flat
 * faces (the polygon may be given in either orientation).
 */
export function prism(polygon: readonly (readonly [number, number])[], depth: number): Solid {
  const poly = area2(polygon) < 0 ? [...polygon].reverse() : [...polygon];
  const n = poly.length;
  const tris = triangulate(poly);
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  const hz = depth / 2;
  // Caps: front (+z) keeps the polygon's counter-clockwise order, back (−z) reverses it.
  for (const side of [1, -1]) {
    const base = positions.length / 3;
    for (const [x, y] of poly) {
      positions.push(x, y, side * hz);
      normals.push(0, 0, side);
    }
    for (let t = 0; t < tris.length; t += 3) {
      const [a, b, c] = [tris[t]!, tris[t + 1]!, tris[t + 2]!];
      if (side > 0) indices.push(base + a, base + b, base + c);
      else indices.push(base + a, base + c, base + b);
    }
  }
  // Sides: one flat quad per edge.
  for (let i = 0; i < n; i++) {
    const [x0, y0] = poly[i]!;
    const [x1, y1] = poly[(i + 1) % n]!;
    const len = Math.hypot(x1 - x0, y1 - y0);
    const [nx, ny] = [(y1 - y0) / len, -(x1 - x0) / len];
    const base = positions.length / 3;
    positions.push(x0, y0, -hz, x1, y1, -hz, x1, y1, hz, x0, y0, hz);
    for (let k = 0; k < 4; k++) normals.push(nx, ny, 0);
    indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  return orientToNormals({ positions, normals, indices });
}

/**
 * A round tube of radius `radius` following an arc of radius `arcRadius` around the origin in
 * the XY plane, from angle `from` to `to` (radians, counter-clockwise from +X), with flat caps.
 */
export function arcTube(
  arcRadius: number,
  radius: number,
  from: number,
  to: number,
  steps = 16,
  sides = 12,
): Solid {
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  const frame = (a: number): { c: Vec3; n1: Vec3; t: Vec3 } => ({
    c: [arcRadius * Math.cos(a), arcRadius * Math.sin(a), 0],
    n1: [Math.cos(a), Math.sin(a), 0],
    t: [-Math.sin(a), Math.cos(a), 0],
  });
  const ringPoint = (c: Vec3, n1: Vec3, b: number): { p: Vec3; n: Vec3 } => {
    const n: Vec3 = [Math.cos(b) * n1[0], Math.cos(b) * n1[1], Math.sin(b)];
    return { p: [c[0] + radius * n[0], c[1] + radius * n[1], c[2] + radius * n[2]], n };
  };
  for (let k = 0; k <= steps; k++) {
    const { c, n1 } = frame(k === steps ? to : from + ((to - from) * k) / steps);
    for (let j = 0; j < sides; j++) {
      const { p, n } = ringPoint(c, n1, (2 * Math.PI * j) / sides);
      positions.push(...p);
      normals.push(...n);
    }
  }
  for (let k = 0; k < steps; k++) {
    for (let j = 0; j < sides; j++) {
      const j2 = (j + 1) % sides;
      const a = k * sides + j;
      const b = k * sides + j2;
      const c = (k + 1) * sides + j;
      const d = (k + 1) * sides + j2;
      indices.push(a, c, b, b, c, d);
    }
  }
  // Caps: a fan around a centre vertex, facing backwards along the arc at the start.
  for (const [angle, dir] of [
    [from, to > from ? -1 : 1],
    [to, to > from ? 1 : -1],
  ] as const) {
    const { c, n1, t } = frame(angle);
    const cap: Vec3 = [t[0] * dir, t[1] * dir, t[2] * dir];
    const centre = positions.length / 3;
    positions.push(...c);
    normals.push(...cap);
    for (let j = 0; j < sides; j++) {
      positions.push(...ringPoint(c, n1, (2 * Math.PI * j) / sides).p);
      normals.push(...cap);
    }
    for (let j = 0; j < sides; j++)
      indices.push(centre, centre + 1 + j, centre + 1 + ((j + 1) % sides));
  }
  return orientToNormals({ positions, normals, indices });
}

/**
 * A closed, star-shaped surface sampled on a (u, v) grid: `point(u, v)` for u in [0, 1]
 * (u = 0 and u = 1 are the two poles, sampled once at v = 0) and v in [0, 1) around.
 * Vertices are shared, so normals are smooth (area-weighted); the winding is chosen so the
 * enclosed volume is positive.
 */
export function polarSurface(
  rings: number,
  segments: number,
  point: (u: number, v: number) => Vec3,
): Solid {
  const positions: number[] = [...point(0, 0)];
  for (let i = 1; i < rings; i++)
    for (let j = 0; j < segments; j++) positions.push(...point(i / rings, j / segments));
  positions.push(...point(1, 0));
  const top = (rings - 1) * segments + 1;
  const at = (i: number, j: number): number => 1 + (i - 1) * segments + (j % segments);
  const indices: number[] = [];
  for (let j = 0; j < segments; j++) {
    indices.push(0, at(1, j + 1), at(1, j));
    indices.push(top, at(rings - 1, j), at(rings - 1, j + 1));
    for (let i = 1; i < rings - 1; i++)
      indices.push(
        at(i, j),
        at(i, j + 1),
        at(i + 1, j),
        at(i, j + 1),
        at(i + 1, j + 1),
        at(i + 1, j),
      );
  }
  if (signedVolume(positions, indices) < 0)
    for (let t = 0; t < indices.length; t += 3)
      [indices[t + 1], indices[t + 2]] = [indices[t + 2]!, indices[t + 1]!];
  return { positions, normals: smoothNormals(positions, indices), indices };
}

/** Area-weighted vertex normals of a welded mesh. */
function smoothNormals(positions: readonly number[], indices: readonly number[]): number[] {
  const acc = new Array<number>(positions.length).fill(0);
  for (let t = 0; t < indices.length; t += 3) {
    const [a, b, c] = [indices[t]! * 3, indices[t + 1]! * 3, indices[t + 2]! * 3];
    const n = faceNormal(positions, a, b, c);
    for (const v of [a, b, c]) for (let k = 0; k < 3; k++) acc[v + k]! += n[k]!;
  }
  for (let v = 0; v < acc.length; v += 3) {
    const len = Math.hypot(acc[v]!, acc[v + 1]!, acc[v + 2]!) || 1;
    for (let k = 0; k < 3; k++) acc[v + k]! /= len;
  }
  return acc;
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

/**
 * Applies x' = L·x + t (L row-major 3×3). Normals get the inverse transpose and are
 * renormalised; a mirroring L also flips the winding so faces still point outward.
 */
export function transform(s: Solid, L: readonly number[], t: Vec3 = [0, 0, 0]): Solid {
  const [a, b, c, d, e, f, g, h, i] = L as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  // Cofactor matrix = det · L^{-T}.
  const cof = [
    e * i - f * h,
    f * g - d * i,
    d * h - e * g,
    c * h - b * i,
    a * i - c * g,
    b * g - a * h,
    b * f - c * e,
    c * d - a * f,
    a * e - b * d,
  ];
  const det = a * cof[0]! + b * cof[1]! + c * cof[2]!;
  const sign = det < 0 ? -1 : 1;
  const positions = new Array<number>(s.positions.length);
  const normals = new Array<number>(s.normals.length);
  for (let v = 0; v < s.positions.length; v += 3) {
    const [x, y, z] = [s.positions[v]!, s.positions[v + 1]!, s.positions[v + 2]!];
    positions[v] = a * x + b * y + c * z + t[0];
    positions[v + 1] = d * x + e * y + f * z + t[1];
    positions[v + 2] = g * x + h * y + i * z + t[2];
    const [nx, ny, nz] = [s.normals[v]!, s.normals[v + 1]!, s.normals[v + 2]!];
    const mx = sign * (cof[0]! * nx + cof[1]! * ny + cof[2]! * nz);
    const my = sign * (cof[3]! * nx + cof[4]! * ny + cof[5]! * nz);
    const mz = sign * (cof[6]! * nx + cof[7]! * ny + cof[8]! * nz);
    const len = Math.hypot(mx, my, mz) || 1;
    normals[v] = mx / len;
    normals[v + 1] = my / len;
    normals[v + 2] = mz / len;
  }
  const indices = [...s.indices];
  if (det < 0)
    for (let k = 0; k < indices.length; k += 3)
      [indices[k + 1], indices[k + 2]] = [indices[k + 2]!, indices[k + 1]!];
  return { positions, normals, indices };
}

export function translate(s: Solid, x: number, y: number, z: number): Solid {
  return transform(s, [1, 0, 0, 0, 1, 0, 0, 0, 1], [x, y, z]);
}

export function scale(s: Solid, x: number, y: number, z: number): Solid {
  return transform(s, [x, 0, 0, 0, y, 0, 0, 0, z]);
}

/** Rotation about the X axis (right-handed: +Y towards +Z). */
export function rotateX(s: Solid, angle: number): Solid {
  const [c, n] = [Math.cos(angle), Math.sin(angle)];
  return transform(s, [1, 0, 0, 0, c, -n, 0, n, c]);
}

/** Rotation about the Y axis (right-handed: +Z towards +X). */
export function rotateY(s: Solid, angle: number): Solid {
  const [c, n] = [Math.cos(angle), Math.sin(angle)];
  return transform(s, [c, 0, n, 0, 1, 0, -n, 0, c]);
}

/** Rotation about the Z axis (right-handed: +X towards +Y). */
export function rotateZ(s: Solid, angle: number): Solid {
  const [c, n] = [Math.cos(angle), Math.sin(angle)];
  return transform(s, [c, -n, 0, n, c, 0, 0, 0, 1]);
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

/** Row-major rotation taking +Y to the unit vector `d` (Rodrigues, about the axis Y × d). */
function rotationFromY(d: Vec3): number[] {
  const [x, y, z] = d;
  const s = Math.hypot(x, z);
  if (s < 1e-12) return y > 0 ? [1, 0, 0, 0, 1, 0, 0, 0, 1] : [1, 0, 0, 0, -1, 0, 0, 0, -1];
  const [kx, kz] = [z / s, -x / s];
  const c = y;
  const t = 1 - c;
  return [
    c + t * kx * kx,
    -s * kz,
    t * kx * kz,
    s * kz,
    c,
    -s * kx,
    t * kx * kz,
    s * kx,
    c + t * kz * kz,
  ];
}

/** Stands a solid built along +Y (from y = 0 up) on the segment from `a` towards `b`. */
export function along(s: Solid, a: Vec3, b: Vec3): Solid {
  const d: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
  const len = Math.hypot(...d) || 1;
  return transform(s, rotationFromY([d[0] / len, d[1] / len, d[2] / len]), a);
}

/** Distance between two points. */
export function distance(a: Vec3, b: Vec3): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
}

/** A capsule (a cylinder with round ends) of radius `radius` whose end centres are `a` and `b`. */
export function capsule(a: Vec3, b: Vec3, radius: number, segments = 16): Solid {
  const len = distance(a, b);
  const steps = 6;
  const profile: ProfilePoint[] = [];
  for (let k = 0; k <= steps; k++) {
    const t = (Math.PI / 2) * (k / steps - 1);
    profile.push({ r: k === 0 ? 0 : radius * Math.cos(t), y: radius * Math.sin(t) });
  }
  for (let k = 0; k <= steps; k++) {
    const t = (Math.PI / 2) * (k / steps);
    profile.push({ r: k === steps ? 0 : radius * Math.cos(t), y: len + radius * Math.sin(t) });
  }
  return along(latheSolid(profile, segments), a, b);
}

/** An ellipsoid with semi-axes rx, ry, rz centred at (x, y, z). */
export function ellipsoid(
  rx: number,
  ry: number,
  rz: number,
  x = 0,
  y = 0,
  z = 0,
  rings = 16,
  segments = 24,
): Solid {
  return translate(scale(latheSolid(sphereProfile(1, rings), segments), rx, ry, rz), x, y, z);
}

/** Points of a quadratic Bézier curve from a to c pulled towards b (steps + 1 points). */
export function bezier(a: Vec3, b: Vec3, c: Vec3, steps: number): Vec3[] {
  return Array.from({ length: steps + 1 }, (_, i) => {
    const t = i / steps;
    const [u, v, w] = [(1 - t) * (1 - t), 2 * t * (1 - t), t * t];
    return [
      u * a[0] + v * b[0] + w * c[0],
      u * a[1] + v * b[1] + w * c[1],
      u * a[2] + v * b[2] + w * c[2],
    ] as Vec3;
  });
}

/**
 * A round tube along `path` (two or more points) with radius `radius(t)`, t in [0, 1] along the
 * path's length. An end whose radius is 0 closes in a point; any other end gets a flat cap.
 * Frames are carried along the path without twisting (parallel transport).
 */
export function tube(
  path: readonly Vec3[],
  radius: number | ((t: number) => number),
  sides = 12,
): Solid {
  const radiusAt = typeof radius === 'number' ? () => radius : radius;
  const n = path.length;
  const lengths = [0];
  for (let i = 1; i < n; i++) lengths.push(lengths[i - 1]! + distance(path[i - 1]!, path[i]!));
  const total = lengths[n - 1]! || 1;
  const sub = (a: Vec3, b: Vec3): Vec3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
  const norm = (v: Vec3): Vec3 => {
    const l = Math.hypot(...v) || 1;
    return [v[0] / l, v[1] / l, v[2] / l];
  };
  const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
  const cross = (a: Vec3, b: Vec3): Vec3 => [
    a[1] * b[2] - a[2] * b[1],
    a[2] * b[0] - a[0] * b[2],
    a[0] * b[1] - a[1] * b[0],
  ];
  const tangents = path.map((_, i) =>
    norm(sub(path[Math.min(n - 1, i + 1)]!, path[Math.max(0, i - 1)]!)),
  );
  const t0 = tangents[0]!;
  // A skew reference, so tubes leaving one point in different directions (the spokes of a
  // wheel, the bones of a wing) start their rings at different places: no shared edges.
  const skew: Vec3 = [0.31, 0.83, 0.47];
  let normal = norm(cross(t0, Math.abs(dot(t0, norm(skew))) < 0.95 ? skew : [1, 0, 0]));
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  const rings: { index: number; centre: Vec3; tangent: Vec3; r: number }[] = [];
  for (let i = 0; i < n; i++) {
    const t = tangents[i]!;
    normal = norm(
      sub(normal, [t[0] * dot(normal, t), t[1] * dot(normal, t), t[2] * dot(normal, t)]),
    );
    const binormal = cross(t, normal);
    const r = radiusAt(lengths[i]! / total);
    // The slope of the radius tilts the normals (a cone's normals lean towards its tip).
    const dr =
      (radiusAt(lengths[Math.min(n - 1, i + 1)]! / total) -
        radiusAt(lengths[Math.max(0, i - 1)]! / total)) /
      (lengths[Math.min(n - 1, i + 1)]! - lengths[Math.max(0, i - 1)]! || 1);
    const tilt = Math.atan(dr);
    if (r <= 0) {
      rings.push({ index: -1, centre: path[i]!, tangent: t, r: 0 });
      continue;
    }
    const index = positions.length / 3;
    for (let j = 0; j < sides; j++) {
      const a = (2 * Math.PI * j) / sides;
      const radial: Vec3 = [
        Math.cos(a) * normal[0] + Math.sin(a) * binormal[0],
        Math.cos(a) * normal[1] + Math.sin(a) * binormal[1],
        Math.cos(a) * normal[2] + Math.sin(a) * binormal[2],
      ];
      positions.push(...path[i]!.map((c, k) => c + r * radial[k]!));
      normals.push(
        ...norm([
          Math.cos(tilt) * radial[0] - Math.sin(tilt) * t[0],
          Math.cos(tilt) * radial[1] - Math.sin(tilt) * t[1],
          Math.cos(tilt) * radial[2] - Math.sin(tilt) * t[2],
        ]),
      );
    }
    rings.push({ index, centre: path[i]!, tangent: t, r });
  }
  for (let i = 0; i + 1 < n; i++) {
    const lo = rings[i]!;
    const hi = rings[i + 1]!;
    if (lo.index < 0 && hi.index < 0) throw new Error('tube: two zero-radius points in a row');
    if (lo.index < 0 || hi.index < 0) {
      const ring = lo.index < 0 ? hi : lo;
      const pole = lo.index < 0 ? lo : hi;
      const p = positions.length / 3;
      positions.push(...pole.centre);
      normals.push(...pole.tangent.map((c) => (lo.index < 0 ? -c : c)));
      // Outward by construction (rings run counter-clockwise about the tangent): the pole at
      // the start runs against the ring, the one at the end with it.
      for (let j = 0; j < sides; j++) {
        const [a, b] = [ring.index + j, ring.index + ((j + 1) % sides)];
        if (lo.index < 0) indices.push(p, b, a);
        else indices.push(p, a, b);
      }
      continue;
    }
    for (let j = 0; j < sides; j++) {
      const j2 = (j + 1) % sides;
      indices.push(
        lo.index + j,
        lo.index + j2,
        hi.index + j,
        lo.index + j2,
        hi.index + j2,
        hi.index + j,
      );
    }
  }
  for (const [ring, sign] of [
    [rings[0]!, -1],
    [rings[n - 1]!, 1],
  ] as const) {
    if (ring.index < 0) continue;
    const cap: Vec3 = [ring.tangent[0] * sign, ring.tangent[1] * sign, ring.tangent[2] * sign];
    const centre = positions.length / 3;
    positions.push(...ring.centre);
    normals.push(...cap);
    for (let j = 0; j < sides; j++) {
      for (let k = 0; k < 3; k++) positions.push(positions[(ring.index + j) * 3 + k]!);
      normals.push(...cap);
    }
    for (let j = 0; j < sides; j++) {
      const [a, b] = [centre + 1 + j, centre + 1 + ((j + 1) % sides)];
      if (sign < 0) indices.push(centre, b, a);
      else indices.push(centre, a, b);
    }
  }
  // Winding by construction, not per triangle: a tube bent tighter than its radius folds, and
  // per-triangle flips there would break the shell's consistency.
  if (signedVolume(positions, indices) < 0)
    for (let t = 0; t < indices.length; t += 3)
      [indices[t + 1], indices[t + 2]] = [indices[t + 2]!, indices[t + 1]!];
  return { positions, normals, indices };
}

/**
 * A solid through closed cross-sections (each a loop of the same number of points, in the same
 * order), with flat caps on the first and last section. The sides are smooth, except along the
 * loop indices in `sharp` (a hull's deck edge, a sail's rims), where they crease.
 */
export function loft(sections: readonly (readonly Vec3[])[], sharp: readonly number[] = []): Solid {
  const m = sections[0]!.length;
  const k = sections.length;
  for (const section of sections)
    if (section.length !== m) throw new Error('loft: sections differ in size');
  // The sides in strips between sharp columns, each with its own copies of its vertices.
  const cuts = [...new Set(sharp)].sort((a, b) => a - b);
  const strips: { columns: number[]; closed: boolean }[] = cuts.length
    ? cuts.map((a, i) => {
        const b = cuts[(i + 1) % cuts.length]!;
        const count = ((b - a + m) % m || m) + 1;
        return { columns: Array.from({ length: count }, (_, c) => (a + c) % m), closed: false };
      })
    : [{ columns: Array.from({ length: m }, (_, c) => c), closed: true }];
  const positions: number[] = [];
  const indices: number[] = [];
  const stripRanges: { first: number; count: number; tris: [number, number] }[] = [];
  for (const { columns, closed } of strips) {
    const first = positions.length / 3;
    const n = columns.length;
    for (const section of sections) for (const c of columns) positions.push(...section[c]!);
    const t0 = indices.length;
    for (let i = 0; i + 1 < k; i++) {
      for (let j = 0; j < (closed ? n : n - 1); j++) {
        const j2 = (j + 1) % n;
        const [a, b, c, d] = [i * n + j, i * n + j2, (i + 1) * n + j, (i + 1) * n + j2].map(
          (v) => first + v,
        ) as [number, number, number, number];
        indices.push(a, c, b, b, c, d);
      }
    }
    stripRanges.push({ first, count: n * k, tris: [t0, indices.length] });
  }
  const sideEnd = indices.length;
  // Caps: each end section triangulated in its own plane (ear clipping: a sail's thin, curved
  // end is not star-shaped about its centre).
  const caps: { start: number; count: number }[] = [];
  // The sides run (section step) × (loop step); the first cap follows the loop, the last one
  // runs against it, so all three agree (the whole is turned outward below).
  for (const [s, reverse] of [
    [0, false],
    [k - 1, true],
  ] as const) {
    const section = sections[s]!;
    const normal: Vec3 = [0, 0, 0];
    for (let j = 0; j < m; j++) {
      const [p, q] = [section[j]!, section[(j + 1) % m]!];
      normal[0] += (p[1] - q[1]) * (p[2] + q[2]);
      normal[1] += (p[2] - q[2]) * (p[0] + q[0]);
      normal[2] += (p[0] - q[0]) * (p[1] + q[1]);
    }
    const nl = Math.hypot(...normal) || 1;
    const nn = normal.map((c) => c / nl) as Vec3;
    const ref: Vec3 = Math.abs(nn[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    const u: Vec3 = [
      nn[1] * ref[2] - nn[2] * ref[1],
      nn[2] * ref[0] - nn[0] * ref[2],
      nn[0] * ref[1] - nn[1] * ref[0],
    ];
    const ul = Math.hypot(...u);
    const uu = u.map((c) => c / ul) as Vec3;
    const vv: Vec3 = [
      nn[1] * uu[2] - nn[2] * uu[1],
      nn[2] * uu[0] - nn[0] * uu[2],
      nn[0] * uu[1] - nn[1] * uu[0],
    ];
    let flat = section.map(
      (p) =>
        [
          p[0] * uu[0] + p[1] * uu[1] + p[2] * uu[2],
          p[0] * vv[0] + p[1] * vv[1] + p[2] * vv[2],
        ] as [number, number],
    );
    const ccw = area2(flat) > 0;
    if (!ccw) flat = [...flat].reverse();
    const tris = triangulate(flat).map((i) => (ccw ? i : m - 1 - i));
    const start = positions.length / 3;
    for (const p of section) positions.push(...p);
    for (let t = 0; t < tris.length; t += 3) {
      const [a, b, c] = [start + tris[t]!, start + tris[t + 1]!, start + tris[t + 2]!];
      if (reverse) indices.push(a, c, b);
      else indices.push(a, b, c);
    }
    caps.push({ start, count: tris.length / 3 });
  }
  if (signedVolume(positions, indices) < 0)
    for (let t = 0; t < indices.length; t += 3)
      [indices[t + 1], indices[t + 2]] = [indices[t + 2]!, indices[t + 1]!];
  const normals = new Array<number>(positions.length).fill(0);
  for (const { first, count, tris } of stripRanges) {
    const smooth = smoothNormals(positions, indices.slice(tris[0], tris[1]));
    for (let v = first * 3; v < (first + count) * 3; v++) normals[v] = smooth[v]!;
  }
  // One flat normal per cap.
  let capTri = sideEnd;
  for (const { start, count } of caps) {
    const tris = indices.slice(capTri, capTri + 3 * count);
    capTri += 3 * count;
    const n: Vec3 = [0, 0, 0];
    for (let t = 0; t < tris.length; t += 3) {
      const f = faceNormal(positions, tris[t]! * 3, tris[t + 1]! * 3, tris[t + 2]! * 3);
      for (let q = 0; q < 3; q++) n[q] = n[q]! + f[q]!;
    }
    const len = Math.hypot(...n) || 1;
    for (let v = start; v < start + m; v++)
      for (let q = 0; q < 3; q++) normals[v * 3 + q] = n[q]! / len;
  }
  return { positions, normals, indices };
}

/** An axis-aligned box as [x0, y0, z0, x1, y1, z1]. */
export type Box = readonly [number, number, number, number, number, number];

/**
 * The union of axis-aligned boxes as one closed solid: the boxes' coordinates cut space into a
 * grid of cells, and a flat quad is emitted wherever a filled cell meets an empty one. Boxes that
 * touch or overlap merge (no faces inside, no edge shared by more than two faces) as long as no
 * two filled cells meet only along an edge; `boxUnion` throws if they do.
 */
export function boxUnion(boxes: readonly Box[]): Solid {
  const axes = [0, 1, 2].map((k) =>
    [
      ...new Set(boxes.flatMap((b) => [Math.min(b[k]!, b[k + 3]!), Math.max(b[k]!, b[k + 3]!)])),
    ].sort((p, q) => p - q),
  ) as [number[], number[], number[]];
  const [nx, ny, nz] = axes.map((a) => a.length - 1) as [number, number, number];
  const filled = new Uint8Array(nx * ny * nz);
  const cell = (i: number, j: number, k: number): number =>
    i < 0 || j < 0 || k < 0 || i >= nx || j >= ny || k >= nz ? 0 : filled[(i * ny + j) * nz + k]!;
  for (const b of boxes) {
    const range = [0, 1, 2].map((k) => {
      const lo = axes[k]!.indexOf(Math.min(b[k]!, b[k + 3]!));
      const hi = axes[k]!.indexOf(Math.max(b[k]!, b[k + 3]!));
      return [lo, hi] as const;
    });
    for (let i = range[0]![0]; i < range[0]![1]; i++)
      for (let j = range[1]![0]; j < range[1]![1]; j++)
        for (let k = range[2]![0]; k < range[2]![1]; k++) filled[(i * ny + j) * nz + k] = 1;
  }
  // No two filled cells may meet along an edge only (that edge would have four faces).
  const dims = [nx, ny, nz];
  for (const axis of [0, 1, 2]) {
    const [u, v] = [(axis + 1) % 3, (axis + 2) % 3];
    for (let c = 0; c < dims[axis]!; c++)
      for (let p = 0; p <= dims[u]!; p++)
        for (let q = 0; q <= dims[v]!; q++) {
          const around = [
            [p - 1, q - 1],
            [p, q - 1],
            [p, q],
            [p - 1, q],
          ].map(([a, b]) => {
            const idx = [0, 0, 0];
            idx[axis] = c;
            idx[u] = a!;
            idx[v] = b!;
            return cell(idx[0]!, idx[1]!, idx[2]!);
          });
          const [a, b, d, e] = around as [number, number, number, number];
          if ((a && d && !b && !e) || (b && e && !a && !d))
            throw new Error('boxUnion: two boxes meet along an edge only');
        }
  }
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  const at = (k: number, idx: number) => axes[k]![idx]!;
  for (let i = 0; i < nx; i++)
    for (let j = 0; j < ny; j++)
      for (let k = 0; k < nz; k++) {
        if (!cell(i, j, k)) continue;
        const lo = [i, j, k];
        for (const axis of [0, 1, 2])
          for (const dir of [-1, 1]) {
            const n = [...lo];
            n[axis]! += dir;
            if (cell(n[0]!, n[1]!, n[2]!)) continue;
            const [u, v] = [(axis + 1) % 3, (axis + 2) % 3];
            const plane = at(axis, lo[axis]! + (dir > 0 ? 1 : 0));
            const base = positions.length / 3;
            for (const [du, dv] of [
              [0, 0],
              [1, 0],
              [1, 1],
              [0, 1],
            ] as const) {
              const p = [0, 0, 0];
              p[axis] = plane;
              p[u] = at(u, lo[u]! + du);
              p[v] = at(v, lo[v]! + dv);
              positions.push(...p);
              const nn = [0, 0, 0];
              nn[axis] = dir;
              normals.push(...nn);
            }
            // (u, v, axis) is right-handed: counter-clockwise in (u, v) faces +axis.
            if (dir > 0) indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
            else indices.push(base, base + 2, base + 1, base, base + 3, base + 2);
          }
      }
  return { positions, normals, indices };
}

/** A smooth curve through `points` (Catmull-Rom), `steps` samples per span, ends included. */
export function smoothPath(points: readonly Vec3[], steps = 8): Vec3[] {
  const n = points.length;
  const out: Vec3[] = [];
  for (let i = 0; i + 1 < n; i++) {
    const p0 = points[Math.max(0, i - 1)]!;
    const p1 = points[i]!;
    const p2 = points[i + 1]!;
    const p3 = points[Math.min(n - 1, i + 2)]!;
    for (let s = 0; s < steps; s++) {
      const t = s / steps;
      const [t2, t3] = [t * t, t * t * t];
      out.push(
        [0, 1, 2].map(
          (k) =>
            0.5 *
            (2 * p1[k]! +
              (-p0[k]! + p2[k]!) * t +
              (2 * p0[k]! - 5 * p1[k]! + 4 * p2[k]! - p3[k]!) * t2 +
              (-p0[k]! + 3 * p1[k]! - 3 * p2[k]! + p3[k]!) * t3),
        ) as Vec3,
      );
    }
  }
  out.push([...points[n - 1]!] as Vec3);
  return out;
}

/**
 * Places a solid built in a local frame: local x, y, z go to the world directions `x`, `y` and
 * x × y (x and y should be orthonormal), and the local origin to `origin`.
 */
export function placeIn(s: Solid, x: Vec3, y: Vec3, origin: Vec3): Solid {
  const z: Vec3 = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
  return transform(s, [x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]], origin);
}

/**
 * A box with rounded edges (a superellipsoid |x|^p + |y|^p + |z|^p = 1 scaled to the box),
 * centred at (x, y, z); larger `p` gives sharper edges.
 */
export function roundedBox(
  width: number,
  height: number,
  depth: number,
  x = 0,
  y = 0,
  z = 0,
  p = 6,
): Solid {
  const half = [width / 2, height / 2, depth / 2] as const;
  const s = polarSurface(24, 32, (u, v) => {
    const theta = Math.PI * u;
    const phi = 2 * Math.PI * v;
    const d = [Math.sin(theta) * Math.cos(phi), -Math.cos(theta), Math.sin(theta) * Math.sin(phi)];
    const k = (Math.abs(d[0]!) ** p + Math.abs(d[1]!) ** p + Math.abs(d[2]!) ** p) ** (-1 / p);
    return [x + half[0] * k * d[0]!, y + half[1] * k * d[1]!, z + half[2] * k * d[2]!];
  });
  return s;
}
