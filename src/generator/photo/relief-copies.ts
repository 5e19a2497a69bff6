// Parts a depth profile repeats elsewhere in depth (hidden legs behind the seen ones): each a
// closed relief of its own over its samples.
import { outlineEdges, triangulate, withoutPinches } from './relief-grid.ts';
import type { Placement } from './relief-placement.ts';
import type { DepthProfile } from './relief-types.ts';
import type { Mask } from './mask.ts';

/**
 * The profile's copies, each its own closed relief over its samples at its own depths: their
 * vertices appended to `positions` and `sampleOf`, their triangles returned.
 */
export function addCopies(
  copies: NonNullable<DepthProfile['copies']>,
  mask: Mask,
  z: Float32Array,
  used: Uint8Array,
  place: Placement,
  positions: number[],
  sampleOf: number[],
): number[] {
  const sampleCount = mask.width * mask.height;
  const extra: number[] = [];
  for (const copy of copies) {
    const part = withoutPinches({ ...mask, inside: copy.inside });
    const partTris = triangulate(part, z);
    const partOutline = outlineEdges(partTris, mask);
    const local = new Int32Array(sampleCount).fill(-1);
    const partSamples: number[] = [];
    for (const s of partTris) {
      if (local[s] !== -1) continue;
      if (!used[s]) {
        partSamples.length = 0; // a pinch filled outside the object: leave this copy out
        break;
      }
      local[s] = partSamples.length;
      partSamples.push(s);
    }
    if (partSamples.length === 0) continue;
    const base = positions.length / 3;
    const m = partSamples.length;
    for (const [side, zs] of [
      [0, copy.front],
      [1, copy.back],
    ] as const)
      partSamples.forEach((s, i) => {
        const o = (base + side * m + i) * 3;
        positions[o] = place.xOf(s);
        positions[o + 1] = place.yOf(s);
        positions[o + 2] = zs[s]!;
        sampleOf[base + side * m + i] = s;
      });
    for (let t = 0; t < partTris.length; t += 3) {
      const a = base + local[partTris[t]!]!;
      const b = base + local[partTris[t + 1]!]!;
      const c = base + local[partTris[t + 2]!]!;
      extra.push(a, b, c, m + a, m + c, m + b);
    }
    for (const [su, sv] of partOutline) {
      const u = base + local[su]!;
      const v = base + local[sv]!;
      extra.push(u, m + u, v, v, m + u, m + v);
    }
  }
  return extra;
}
