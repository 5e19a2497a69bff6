/** Flat-faced boxes: one box, and the union of several as one closed solid. */
import { orientToNormals, type Solid, type Vec3 } from './solid.ts';
import { translate } from './transform.ts';

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
