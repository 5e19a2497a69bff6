/** Affine transforms of solids (normals follow, mirrors keep faces outward) and placements. */
import type { Solid, Vec3 } from './solid.ts';

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

/**
 * Places a solid built in a local frame: local x, y, z go to the world directions `x`, `y` and
 * x × y (x and y should be orthonormal), and the local origin to `origin`.
 */
export function placeIn(s: Solid, x: Vec3, y: Vec3, origin: Vec3): Solid {
  const z: Vec3 = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
  return transform(s, [x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]], origin);
}

/** Distance between two points. */
export function distance(a: Vec3, b: Vec3): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]);
}
