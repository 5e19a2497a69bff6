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

/** Directed outline edges: edges used by exactly one triangle, in that triangle's direction. */
export function outlineEdges(tris: readonly number[], sampleCount: number): [number, number][] {
  const edges = new Map<number, [number, number] | null>();
  for (let t = 0; t < tris.length; t += 3) {
    for (let k = 0; k < 3; k++) {
      const u = tris[t + k]!;
      const v = tris[t + ((k + 1) % 3)]!;
      const key = Math.min(u, v) * sampleCount + Math.max(u, v);
      edges.set(key, edges.has(key) ? null : [u, v]);
    }
  }
  return [...edges.values()].filter((e): e is [number, number] => e !== null);
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
    const outline = outlineEdges(triangulate({ ...mask, inside }, flat), width * height);
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
