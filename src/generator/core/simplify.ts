import { MeshoptSimplifier } from 'meshoptimizer';

export interface SimplifyOptions {
  /** Stop once the mesh has at most this many triangles. */
  targetTriangles: number;
  /** Largest allowed deviation, relative to the mesh's extent (meshoptimizer's error). */
  maxError: number;
}

/**
 * Reduces a triangle mesh with meshoptimizer's edge-collapse simplifier, keeping the vertex
 * array (the result indexes a subset of it; compact it with `extractSubmesh`). Meshes already
 * within the budget come back unchanged.
 */
export async function simplifyIndices(
  positions: Float32Array,
  indices: Uint32Array,
  options: SimplifyOptions,
): Promise<Uint32Array> {
  if (indices.length / 3 <= options.targetTriangles) return indices;
  await MeshoptSimplifier.ready;
  const [out] = MeshoptSimplifier.simplify(
    indices,
    positions,
    3,
    options.targetTriangles * 3,
    options.maxError,
  );
  return out;
}
