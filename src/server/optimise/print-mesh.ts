// A model made ready for a 3D printer: its triangles in world space, welded into one indexed
// mesh, scaled to a real height with the bottom centre at the origin, holes closed, and written
// as binary STL in millimetres with Z up (what slicers expect).
import { Document, Primitive, type Node } from '@gltf-transform/core';
import { mainScene } from './facts.ts';

/** An indexed triangle mesh: 3 numbers a vertex, 3 indices a triangle (counter-clockwise out). */
export interface IndexedMesh {
  positions: Float64Array;
  indices: Uint32Array;
}

/** Multiplies a column-major 4×4 matrix by the point (x, y, z). */
function transformPoint(
  m: readonly number[],
  x: number,
  y: number,
  z: number,
): [number, number, number] {
  return [
    m[0]! * x + m[4]! * y + m[8]! * z + m[12]!,
    m[1]! * x + m[5]! * y + m[9]! * z + m[13]!,
    m[2]! * x + m[6]! * y + m[10]! * z + m[14]!,
  ];
}

/** The corners of the triangles a primitive draws, as vertex numbers (lists, strips, fans). */
function triangleCorners(prim: Primitive): number[] {
  const count = prim.getIndices()?.getCount() ?? prim.getAttribute('POSITION')?.getCount() ?? 0;
  const indices = prim.getIndices();
  const at = (i: number) => (indices ? indices.getScalar(i) : i);
  const out: number[] = [];
  const mode = prim.getMode();
  if (mode === Primitive.Mode.TRIANGLES) {
    for (let i = 0; i + 2 < count; i += 3) out.push(at(i), at(i + 1), at(i + 2));
  } else if (mode === Primitive.Mode.TRIANGLE_STRIP) {
    for (let i = 0; i + 2 < count; i++)
      if (i % 2 === 0) out.push(at(i), at(i + 1), at(i + 2));
      else out.push(at(i + 1), at(i), at(i + 2));
  } else if (mode === Primitive.Mode.TRIANGLE_FAN) {
    for (let i = 1; i + 1 < count; i++) out.push(at(0), at(i), at(i + 1));
  }
  return out;
}

/** Every triangle of the document's main scene in world space, 9 numbers a triangle. */
export function worldTriangles(doc: Document): Float64Array {
  const out: number[] = [];
  const scene = mainScene(doc);
  const element: number[] = [];
  scene?.traverse((node: Node) => {
    const mesh = node.getMesh();
    if (!mesh) return;
    const m = node.getWorldMatrix();
    // A mirroring transform turns triangles inside out: swap two corners back.
    const det =
      m[0]! * (m[5]! * m[10]! - m[6]! * m[9]!) -
      m[4]! * (m[1]! * m[10]! - m[2]! * m[9]!) +
      m[8]! * (m[1]! * m[6]! - m[2]! * m[5]!);
    for (const prim of mesh.listPrimitives()) {
      const position = prim.getAttribute('POSITION');
      if (!position) continue;
      const corners = triangleCorners(prim);
      for (let t = 0; t < corners.length; t += 3) {
        const order = det < 0 ? [0, 2, 1] : [0, 1, 2];
        for (const k of order) {
          position.getElement(corners[t + k]!, element);
          out.push(...transformPoint(m, element[0]!, element[1]!, element[2]!));
        }
      }
    }
  });
  return Float64Array.from(out);
}

/** Axis-aligned bounds of a list of points (3 numbers each). */
export function boundsOf(points: Float64Array): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < points.length; i += 3)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, points[i + k]!);
      max[k] = Math.max(max[k]!, points[i + k]!);
    }
  return { min, max };
}

/**
 * Scales and moves triangle corners so that the model is `height` tall (y), its bottom at y = 0
 * and its box centred on x and z. Throws when the model is flat or empty.
 */
export function placeOnFloor(soup: Float64Array, height: number): Float64Array {
  const { min, max } = boundsOf(soup);
  const tall = max[1]! - min[1]!;
  if (!(tall > 0) || !Number.isFinite(tall))
    throw new Error('The model has no height to scale (it is empty or flat).');
  const s = height / tall;
  const cx = (min[0]! + max[0]!) / 2;
  const cz = (min[2]! + max[2]!) / 2;
  const out = new Float64Array(soup.length);
  for (let i = 0; i < soup.length; i += 3) {
    out[i] = (soup[i]! - cx) * s;
    out[i + 1] = (soup[i + 1]! - min[1]!) * s;
    out[i + 2] = (soup[i + 2]! - cz) * s;
  }
  return out;
}

/**
 * Joins corners that share a place (within a millionth of the model's size) into one vertex,
 * and drops triangles that collapse (two corners in one place) and copies: a triangle twice
 * the same way keeps one; a pair facing opposite ways (a wall with no inside) goes.
 */
export function weldTriangles(soup: Float64Array): IndexedMesh {
  const { min, max } = boundsOf(soup);
  const diagonal = Math.hypot(max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!) || 1;
  const step = diagonal * 1e-6;
  const ids = new Map<string, number>();
  const positions: number[] = [];
  const corner: number[] = [];
  for (let i = 0; i < soup.length; i += 3) {
    const key = `${Math.round(soup[i]! / step)},${Math.round(soup[i + 1]! / step)},${Math.round(soup[i + 2]! / step)}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = positions.length / 3;
      ids.set(key, id);
      positions.push(soup[i]!, soup[i + 1]!, soup[i + 2]!);
    }
    corner.push(id);
  }
  // Triangles by their corner set: the same way round counts +1, the other way −1.
  const kept = new Map<string, { tri: [number, number, number]; sign: number }>();
  for (let t = 0; t < corner.length; t += 3) {
    const tri: [number, number, number] = [corner[t]!, corner[t + 1]!, corner[t + 2]!];
    if (tri[0] === tri[1] || tri[1] === tri[2] || tri[0] === tri[2]) continue;
    const sorted = [...tri].sort((a, b) => a - b);
    const key = sorted.join(',');
    const parity = cyclicParity(tri, sorted);
    const seen = kept.get(key);
    if (!seen) kept.set(key, { tri, sign: parity });
    else if (seen.sign !== 0 && Math.sign(seen.sign) !== parity) seen.sign = 0;
  }
  const indices: number[] = [];
  for (const { tri, sign } of kept.values()) if (sign !== 0) indices.push(...tri);
  return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
}

/** +1 when `tri` is a rotation of `sorted`, −1 when it is reversed. */
function cyclicParity(tri: readonly number[], sorted: readonly number[]): number {
  const start = tri.indexOf(sorted[0]!);
  return tri[(start + 1) % 3] === sorted[1] ? 1 : -1;
}

export interface EdgeReport {
  /** Edges used by one triangle only (the rims of holes). */
  open: number;
  /** Edges used by more than two triangles. */
  nonManifold: number;
  /** Edges two triangles use the same way round (one of them faces the wrong way). */
  misoriented: number;
}

const edgeKey = (a: number, b: number) => (a < b ? a * 0x100000000 + b : b * 0x100000000 + a);

/** How the mesh's edges are shared: watertight when every count is 0. */
export function edgeReport(indices: Uint32Array): EdgeReport {
  const uses = new Map<number, { count: number; forward: number }>();
  for (let t = 0; t < indices.length; t += 3)
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k]!;
      const b = indices[t + ((k + 1) % 3)]!;
      const key = edgeKey(a, b);
      const use = uses.get(key) ?? { count: 0, forward: 0 };
      use.count++;
      if (a < b) use.forward++;
      uses.set(key, use);
    }
  let open = 0;
  let nonManifold = 0;
  let misoriented = 0;
  for (const use of uses.values()) {
    if (use.count === 1) open++;
    else if (use.count > 2) nonManifold++;
    else if (use.forward !== 1) misoriented++;
  }
  return { open, nonManifold, misoriented };
}

export function isWatertight(report: EdgeReport): boolean {
  return report.open === 0 && report.nonManifold === 0 && report.misoriented === 0;
}

/**
 * Closes every hole: the rim's edges are followed round into loops, and each loop is filled by a
 * fan of triangles to a new vertex at its centre (facing the same way as the triangles around).
 */
export function closeHoles(mesh: IndexedMesh): { mesh: IndexedMesh; holes: number } {
  const { indices } = mesh;
  const directed = new Set<number>();
  const dkey = (a: number, b: number) => a * 0x100000000 + b;
  for (let t = 0; t < indices.length; t += 3)
    for (let k = 0; k < 3; k++) directed.add(dkey(indices[t + k]!, indices[t + ((k + 1) % 3)]!));
  // A rim edge a→b (no b→a): the filling triangle needs b→a. Rim edges leave from `from`.
  const next = new Map<number, number[]>();
  for (let t = 0; t < indices.length; t += 3)
    for (let k = 0; k < 3; k++) {
      const a = indices[t + k]!;
      const b = indices[t + ((k + 1) % 3)]!;
      if (directed.has(dkey(b, a))) continue;
      // Walk the hole the other way round: from b to a.
      const list = next.get(b) ?? [];
      list.push(a);
      next.set(b, list);
    }
  if (next.size === 0) return { mesh, holes: 0 };
  const positions = Array.from(mesh.positions);
  const out = Array.from(indices);
  let holes = 0;
  for (const start of [...next.keys()]) {
    while ((next.get(start)?.length ?? 0) > 0) {
      // Follow the rim from `start` until it comes back.
      const loop: number[] = [start];
      let at = start;
      for (let guard = 0; guard < 10_000_000; guard++) {
        const outs = next.get(at);
        const to = outs?.pop();
        if (to === undefined) break;
        if (to === start) break;
        loop.push(to);
        at = to;
      }
      if (loop.length < 2) continue;
      holes++;
      if (loop.length === 3) {
        out.push(loop[0]!, loop[1]!, loop[2]!);
        continue;
      }
      let cx = 0;
      let cy = 0;
      let cz = 0;
      for (const v of loop) {
        cx += positions[v * 3]!;
        cy += positions[v * 3 + 1]!;
        cz += positions[v * 3 + 2]!;
      }
      const c = positions.length / 3;
      positions.push(cx / loop.length, cy / loop.length, cz / loop.length);
      for (let i = 0; i < loop.length; i++) out.push(loop[i]!, loop[(i + 1) % loop.length]!, c);
    }
  }
  return {
    mesh: { positions: Float64Array.from(positions), indices: Uint32Array.from(out) },
    holes,
  };
}

/** The header of Kiln's STL files (80 bytes; never starting "solid", which means ASCII STL). */
export const STL_HEADER = 'Kiln binary STL. Units: millimetres. Z up.';

/**
 * Binary STL of a mesh given in metres with Y up: written in millimetres with Z up
 * ((x, y, z) → (x, −z, y), a turn about X that keeps triangles facing out), each facet with its
 * normal.
 */
export function encodeStl(mesh: IndexedMesh): Uint8Array {
  const triangles = mesh.indices.length / 3;
  const out = new Uint8Array(84 + triangles * 50);
  out.set(new TextEncoder().encode(STL_HEADER).subarray(0, 80));
  const view = new DataView(out.buffer);
  view.setUint32(80, triangles, true);
  const p = mesh.positions;
  // (+ 0 turns −0 into 0: a corner on an axis is written the same whichever side it came from.)
  const zUp = (v: number): [number, number, number] => [
    p[v * 3]! * 1000 + 0,
    -p[v * 3 + 2]! * 1000 + 0,
    p[v * 3 + 1]! * 1000 + 0,
  ];
  let at = 84;
  for (let t = 0; t < triangles; t++) {
    const a = zUp(mesh.indices[t * 3]!);
    const b = zUp(mesh.indices[t * 3 + 1]!);
    const c = zUp(mesh.indices[t * 3 + 2]!);
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n = [
      u[1]! * w[2]! - u[2]! * w[1]!,
      u[2]! * w[0]! - u[0]! * w[2]!,
      u[0]! * w[1]! - u[1]! * w[0]!,
    ];
    const len = Math.hypot(n[0]!, n[1]!, n[2]!) || 1;
    for (const v of [n[0]! / len, n[1]! / len, n[2]! / len, ...a, ...b, ...c]) {
      view.setFloat32(at, v, true);
      at += 4;
    }
    view.setUint16(at, 0, true);
    at += 2;
  }
  return out;
}

/** A GLB-ready document of the mesh (metres, Y up, one grey material): the STL's preview. */
export function meshDocument(mesh: IndexedMesh): Document {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'Kiln optimise (3D print preview)';
  const buffer = doc.createBuffer();
  const position = doc
    .createAccessor('POSITION')
    .setType('VEC3')
    .setArray(Float32Array.from(mesh.positions))
    .setBuffer(buffer);
  const indices = doc
    .createAccessor('indices')
    .setType('SCALAR')
    .setArray(
      mesh.positions.length / 3 > 65535
        ? Uint32Array.from(mesh.indices)
        : Uint16Array.from(mesh.indices),
    )
    .setBuffer(buffer);
  const material = doc
    .createMaterial('Print')
    .setBaseColorFactor([0.8, 0.8, 0.78, 1])
    .setRoughnessFactor(0.7)
    .setMetallicFactor(0);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', position)
    .setIndices(indices)
    .setMaterial(material);
  const node = doc.createNode('Print').setMesh(doc.createMesh('Print').addPrimitive(prim));
  doc.createScene('Print').addChild(node);
  doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]!);
  return doc;
}
