// The inflated billboard (see `Relief`), built in steps: the mask's pinches filled, its height
// field (relief-surface.ts) on its triangles and outline (relief-grid.ts), the samples placed in
// the model (relief-placement.ts), the front, back and rim wall joined into one closed mesh, and
// the profile's copies further back (relief-copies.ts).
import { computeVertexNormals } from '../core/mesh.ts';
import { distanceToBackground } from './distance-transform.ts';
import type { Mask } from './mask.ts';
import { addCopies } from './relief-copies.ts';
import { outlineEdges, triangulate, withoutPinches } from './relief-grid.ts';
import { placeSamples, rimShifts, type Placement } from './relief-placement.ts';
import { inflate, smoothInterior } from './relief-surface.ts';
import type { DepthProfile, Relief, ReliefOptions } from './relief-types.ts';

/** Per sample: 1 for the samples these indices name. */
function samplesIn(indices: Iterable<number>, sampleCount: number): Uint8Array {
  const marked = new Uint8Array(sampleCount);
  for (const s of indices) marked[s] = 1;
  return marked;
}

/** The profile asked for, or the symmetric inflation (front at +h, back at −h). */
function depthProfileOf(mask: Mask, place: Placement, options: ReliefOptions): DepthProfile {
  if (options.profile)
    return options.profile({ mask, halfDepth: place.halfDepth, sampleSize: place.sampleSize });
  return { front: place.halfDepth, back: place.halfDepth.map((h) => -h) };
}

/** Front copies first, then back copies, of every used sample: positions, samples, and where each went. */
function shellVertices(used: Uint8Array, place: Placement, profile: DepthProfile) {
  const vertexOf = new Int32Array(used.length).fill(-1);
  const samples: number[] = [];
  for (let s = 0; s < used.length; s++) {
    if (used[s]) {
      vertexOf[s] = samples.length;
      samples.push(s);
    }
  }
  const n = samples.length;
  const positions: number[] = new Array<number>(n * 6);
  const sampleOf: number[] = new Array<number>(n * 2);
  samples.forEach((s, i) => {
    const x = place.xOf(s);
    const y = place.yOf(s);
    positions[i * 3] = positions[(n + i) * 3] = x;
    positions[i * 3 + 1] = positions[(n + i) * 3 + 1] = y;
    positions[i * 3 + 2] = profile.front[s]!;
    positions[(n + i) * 3 + 2] = profile.back[s]!;
    sampleOf[i] = sampleOf[n + i] = s;
  });
  return { vertexOf, n, positions, sampleOf };
}

/** The front, its mirror (the back), and the rim wall joining them along the outline. */
function shellTriangles(
  tris: readonly number[],
  outline: readonly [number, number][],
  vertexOf: Int32Array,
  n: number,
) {
  const front = new Uint32Array(tris.length);
  const back = new Uint32Array(tris.length);
  for (let t = 0; t < tris.length; t += 3) {
    const a = vertexOf[tris[t]!]!;
    const b = vertexOf[tris[t + 1]!]!;
    const c = vertexOf[tris[t + 2]!]!;
    front.set([a, b, c], t);
    back.set([n + a, n + c, n + b], t); // mirrored: reversed winding faces −Z
  }
  // Each outline edge u→v (interior on its left, seen from +Z) gets an outward-facing quad.
  const walls = new Uint32Array(outline.length * 6);
  outline.forEach(([su, sv], e) => {
    const u = vertexOf[su]!;
    const v = vertexOf[sv]!;
    walls.set([u, n + u, v, v, n + u, n + v], e * 6);
  });
  return { front, back, walls };
}

/** Every triangle set in one index array (front, back, walls, copies), for the normals. */
function allTriangles(...sets: ArrayLike<number>[]): Uint32Array {
  const all = new Uint32Array(sets.reduce((sum, set) => sum + set.length, 0));
  let at = 0;
  for (const set of sets) {
    all.set(set, at);
    at += set.length;
  }
  return all;
}

export function buildRelief(input: Mask, options: ReliefOptions): Relief {
  const mask = withoutPinches(input);
  const sampleCount = mask.width * mask.height;
  const z = inflate(mask, distanceToBackground(mask));
  const tris = triangulate(mask, z);
  const outline = outlineEdges(tris, mask);
  const used = samplesIn(tris, sampleCount);
  const rim = samplesIn(outline.flat(), sampleCount);

  smoothInterior(z, used, rim, mask.width);
  const place = placeSamples(mask, z, used, rimShifts(mask, used, rim), options);
  const profile = depthProfileOf(mask, place, options);
  const { vertexOf, n, positions, sampleOf } = shellVertices(used, place, profile);
  const { front, back, walls } = shellTriangles(tris, outline, vertexOf, n);
  const extra = addCopies(profile.copies ?? [], mask, z, used, place, positions, sampleOf);

  const outPositions = Float32Array.from(positions);
  const normals = computeVertexNormals(outPositions, allTriangles(front, back, walls, extra));
  return {
    positions: outPositions,
    normals,
    sampleOf: Int32Array.from(sampleOf),
    frontCount: n,
    front,
    back,
    walls,
    extra: Uint32Array.from(extra),
  };
}
