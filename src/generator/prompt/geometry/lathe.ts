/** Solids of revolution about the Y axis: the lathe, and the round primitives built on it. */
import { orientToNormals, type Solid, type Vec3 } from './solid.ts';
import { along, distance, scale, translate } from './transform.ts';

/** A point of a lathe profile in the (radius, height) half-plane. */
export interface ProfilePoint {
  r: number;
  y: number;
  /** A sharp edge: the surface normal is not smoothed across this point. */
  crease?: boolean;
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
function sphereProfile(radius: number, steps = 24): ProfilePoint[] {
  return Array.from({ length: steps + 1 }, (_, i) => {
    const theta = Math.PI * (i / steps) - Math.PI / 2;
    return {
      r: i === 0 || i === steps ? 0 : radius * Math.cos(theta),
      y: radius * Math.sin(theta),
    };
  });
}

/**
 * A torus around the Y axis in the XZ plane, centred at the origin: a tube of `radius` (a circle
 * of `steps` points) whose centre runs round at `centreR`, in `segments` segments.
 */
export function torus(centreR: number, radius: number, steps: number, segments: number): Solid {
  const tube: ProfilePoint[] = Array.from({ length: steps }, (_, i) => {
    const t = (2 * Math.PI * i) / steps;
    return { r: centreR + radius * Math.cos(t), y: radius * Math.sin(t) };
  });
  return latheSolid(tube, segments, true);
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
