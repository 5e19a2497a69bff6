/** Solids swept through cross-sections: a prism (one polygon, straight) and a loft (several). */
import { faceNormal } from '../../core/mesh.ts';
import { area2, triangulate } from './polygon.ts';
import { orientToNormals, smoothNormals, turnOutward, type Solid, type Vec3 } from './solid.ts';

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
    const tris = sectionTriangles(section);
    const start = positions.length / 3;
    for (const p of section) positions.push(...p);
    for (let t = 0; t < tris.length; t += 3) {
      const [a, b, c] = [start + tris[t]!, start + tris[t + 1]!, start + tris[t + 2]!];
      if (reverse) indices.push(a, c, b);
      else indices.push(a, b, c);
    }
    caps.push({ start, count: tris.length / 3 });
  }
  turnOutward(positions, indices);
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

/**
 * A loop of points triangulated in its own plane (the plane of its Newell normal), as indices
 * into the loop, in the loop's order.
 */
function sectionTriangles(section: readonly Vec3[]): number[] {
  const m = section.length;
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
      [p[0] * uu[0] + p[1] * uu[1] + p[2] * uu[2], p[0] * vv[0] + p[1] * vv[1] + p[2] * vv[2]] as [
        number,
        number,
      ],
  );
  const ccw = area2(flat) > 0;
  if (!ccw) flat = [...flat].reverse();
  return triangulate(flat).map((i) => (ccw ? i : m - 1 - i));
}
