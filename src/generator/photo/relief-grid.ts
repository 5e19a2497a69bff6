// The relief's topology on the mask's sample grid: its triangles, its outline, and the mask
// with its pinch points filled so that the closed mesh is edge-manifold.
import type { Mask } from './mask.ts';

/** Cell triangulation: each cell's corners (a b / c d) with 4 or 3 corners inside. */
export function triangulate(mask: Mask, z: Float32Array): number[] {
  const { width, height, inside } = mask;
  const tris: number[] = [];
  for (let y = 0; y + 1 < height; y++) {
    for (let x = 0; x + 1 < width; x++) {
      const a = y * width + x;
      const b = a + 1;
      const c = a + width;
      const d = c + 1;
      const ia = inside[a]!;
      const ib = inside[b]!;
      const ic = inside[c]!;
      const id = inside[d]!;
      const n = ia + ib + ic + id;
      // Counter-clockwise seen from +Z, with image rows running down (−Y).
      if (n === 4) {
        // Split along the diagonal with the smaller height difference: smoother surface.
        if (Math.abs(z[a]! - z[d]!) <= Math.abs(z[b]! - z[c]!)) tris.push(a, c, d, a, d, b);
        else tris.push(a, c, b, b, c, d);
      } else if (n === 3) {
        // Cut the missing corner off: outlines get 45° steps instead of staircases.
        if (!ia) tris.push(b, c, d);
        else if (!ib) tris.push(a, c, d);
        else if (!ic) tris.push(a, d, b);
        else tris.push(a, c, b);
      }
    }
  }
  return tris;
}

/**
 * Directed outline edges: edges used by exactly one triangle, in that triangle's direction, in
 * the order the triangles use them. `tris` join grid neighbours only (a sample and the one to its
 * right, below, or diagonally below), so an edge is its lower sample and one of four steps:
 * counted in a typed array, not a Map.
 */
export function outlineEdges(
  tris: readonly number[],
  grid: { width: number; height: number },
): [number, number][] {
  const { width } = grid;
  const slot = (u: number, v: number) => {
    const low = u < v ? u : v;
    const step = u < v ? v - u : u - v;
    const code = step === 1 ? 0 : step === width - 1 ? 1 : step === width ? 2 : 3;
    return low * 4 + code;
  };
  const uses = new Uint8Array(width * grid.height * 4);
  for (let t = 0; t < tris.length; t += 3)
    for (let k = 0; k < 3; k++) {
      const s = slot(tris[t + k]!, tris[t + ((k + 1) % 3)]!);
      if (uses[s]! < 2) uses[s]!++;
    }
  const edges: [number, number][] = [];
  for (let t = 0; t < tris.length; t += 3)
    for (let k = 0; k < 3; k++) {
      const u = tris[t + k]!;
      const v = tris[t + ((k + 1) % 3)]!;
      if (uses[slot(u, v)] === 1) edges.push([u, v]);
    }
  return edges;
}

/**
 * Fills the background samples around "pinch" points, where two parts of the outline touch
 * at a single sample: the rim wall there would share an edge among four faces. Afterwards
 * every outline sample starts exactly one outline edge, so the closed mesh is edge-manifold.
 */
export function withoutPinches(mask: Mask): Mask {
  const { width, height } = mask;
  let inside = mask.inside;
  const flat = new Float32Array(width * height);
  for (let round = 0; round < 8; round++) {
    const outline = outlineEdges(triangulate({ ...mask, inside }, flat), mask);
    const starts = new Uint8Array(width * height);
    const pinches: number[] = [];
    for (const [u] of outline) if (++starts[u]! === 2) pinches.push(u);
    if (pinches.length === 0) break;
    inside = new Uint8Array(inside);
    for (const s of pinches) {
      const x = s % width;
      const y = (s - x) / width;
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++) {
        for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
          inside[ny * width + nx] = 1;
        }
      }
    }
  }
  return inside === mask.inside ? mask : { ...mask, inside };
}
