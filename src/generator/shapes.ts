// Solids of revolution and boxes as standalone meshes. The implementation lives in
// ./prompt/geometry.ts (the prompt templates' mesh kit, which may not import from here).
import {
  boxSolid,
  circleProfile,
  latheSolid,
  sphereProfile,
  toMesh,
  type ProfilePoint,
} from './prompt/geometry.ts';
import type { MeshData } from './mesh.ts';

export { circleProfile, sphereProfile, type ProfilePoint };

/**
 * Revolves a profile around the Y axis. The profile runs from the bottom to the top (for a
 * solid, starting and ending on the axis), or is a closed loop (`closed`, e.g. a torus).
 * Normals come from the profile's tangents, split at creases; rings on the axis become fans,
 * so there are no degenerate triangles.
 */
export function lathe(
  profile: readonly ProfilePoint[],
  segments: number,
  closed = false,
): MeshData {
  return toMesh(latheSolid(profile, segments, closed));
}

/** An axis-aligned box centred at the origin with flat faces. */
export function box(width: number, height: number, depth: number): MeshData {
  return toMesh(boxSolid(width, height, depth));
}
