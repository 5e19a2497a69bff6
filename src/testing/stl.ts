// Tests only: reads a binary STL back, independent of the code that wrote it, and checks that
// its surface is closed.

export interface ReadStl {
  header: string;
  triangles: number;
  /** Corners, 9 numbers a facet, as written (millimetres for Kiln's files). */
  corners: Float32Array;
  normals: Float32Array;
  min: [number, number, number];
  max: [number, number, number];
  /** Signed volume (divergence theorem): positive when the facets face outward. */
  volume: number;
}

export function readStl(bytes: Uint8Array): ReadStl {
  if (bytes.byteLength < 84) throw new Error('too short for a binary STL');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = new TextDecoder().decode(bytes.subarray(0, 80)).replace(/\0+$/, '');
  const triangles = view.getUint32(80, true);
  if (bytes.byteLength !== 84 + 50 * triangles)
    throw new Error(
      `${triangles} facets need ${84 + 50 * triangles} bytes; got ${bytes.byteLength}`,
    );
  const corners = new Float32Array(triangles * 9);
  const normals = new Float32Array(triangles * 3);
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  let volume = 0;
  for (let t = 0; t < triangles; t++) {
    const at = 84 + t * 50;
    for (let k = 0; k < 3; k++) normals[t * 3 + k] = view.getFloat32(at + k * 4, true);
    for (let k = 0; k < 9; k++) {
      const v = view.getFloat32(at + 12 + k * 4, true);
      corners[t * 9 + k] = v;
      min[k % 3] = Math.min(min[k % 3]!, v);
      max[k % 3] = Math.max(max[k % 3]!, v);
    }
    const c = corners.subarray(t * 9, t * 9 + 9);
    volume +=
      (c[0]! * (c[4]! * c[8]! - c[5]! * c[7]!) -
        c[1]! * (c[3]! * c[8]! - c[5]! * c[6]!) +
        c[2]! * (c[3]! * c[7]! - c[4]! * c[6]!)) /
      6;
  }
  return { header, triangles, corners, normals, min, max, volume };
}

/**
 * How the facets' edges are shared, corners matched by their exact float values: a closed,
 * consistently oriented surface has every edge in two facets, once each way round.
 */
export function stlEdgeUse(stl: ReadStl): {
  open: number;
  nonManifold: number;
  misoriented: number;
} {
  const ids = new Map<string, number>();
  const id = (t: number, k: number) => {
    const c = stl.corners;
    const key = `${c[t * 9 + k * 3]},${c[t * 9 + k * 3 + 1]},${c[t * 9 + k * 3 + 2]}`;
    let v = ids.get(key);
    if (v === undefined) ids.set(key, (v = ids.size));
    return v;
  };
  const directed = new Map<string, number>();
  for (let t = 0; t < stl.triangles; t++) {
    const v = [id(t, 0), id(t, 1), id(t, 2)];
    for (let k = 0; k < 3; k++) {
      const key = `${v[k]}>${v[(k + 1) % 3]}`;
      directed.set(key, (directed.get(key) ?? 0) + 1);
    }
  }
  let open = 0;
  let nonManifold = 0;
  let misoriented = 0;
  for (const [key, n] of directed) {
    const [a, b] = key.split('>');
    const back = directed.get(`${b}>${a}`) ?? 0;
    if (n > 1) misoriented++;
    if (back === 0 && n === 1) open++;
    if (n + back > 2) nonManifold++;
  }
  return { open, nonManifold, misoriented };
}
