/** Closed star-shaped surfaces sampled on a (u, v) grid, and the rounded box built on them. */
import { smoothNormals, turnOutward, type Solid, type Vec3 } from './solid.ts';

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
  turnOutward(positions, indices);
  return { positions, normals: smoothNormals(positions, indices), indices };
}

/**
 * The unit direction at (u, v) of a polarSurface's grid: u from the bottom pole (0, −Y) to the
 * top one (1, +Y), v once around from +X towards +Z.
 */
export function polarDirection(u: number, v: number): Vec3 {
  const theta = Math.PI * u;
  const phi = 2 * Math.PI * v;
  return [Math.sin(theta) * Math.cos(phi), -Math.cos(theta), Math.sin(theta) * Math.sin(phi)];
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
    const d = polarDirection(u, v);
    const k = (Math.abs(d[0]) ** p + Math.abs(d[1]) ** p + Math.abs(d[2]) ** p) ** (-1 / p);
    return [x + half[0] * k * d[0], y + half[1] * k * d[1], z + half[2] * k * d[2]];
  });
  return s;
}
