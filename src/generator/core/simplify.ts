import { MeshoptSimplifier } from 'meshoptimizer';
import { badEdgeCount } from './topology.ts';

export interface SimplifyOptions {
  /** Stop once the mesh has at most this many triangles. */
  targetTriangles: number;
  /** Largest allowed deviation, relative to the mesh's extent (meshoptimizer's error). */
  maxError: number;
}

/** Retries with a larger target (× 1.5 each) before giving up on simplifying. */
const MANIFOLD_RETRIES = 4;

/**
 * Reduces a triangle mesh with meshoptimizer's edge-collapse simplifier, keeping the vertex
 * array (the result indexes a subset of it; compact it with `extractSubmesh`). Meshes already
 * within the budget come back unchanged. A closed, edge-manifold mesh stays so: collapses that
 * flatten a thin part (a wire's tube whose walls meet) can leave an edge shared by four faces;
 * then the simplification is redone with a larger target, and the mesh is kept as it is when
 * even that fails.
 */
export async function simplifyIndices(
  positions: Float32Array,
  indices: Uint32Array,
  options: SimplifyOptions,
): Promise<Uint32Array> {
  if (indices.length / 3 <= options.targetTriangles) return indices;
  await MeshoptSimplifier.ready;
  const manifold = badEdgeCount(indices) === 0;
  let target = options.targetTriangles;
  for (let attempt = 0; attempt <= MANIFOLD_RETRIES; attempt++) {
    const [out] = MeshoptSimplifier.simplify(indices, positions, 3, target * 3, options.maxError);
    if (!manifold || badEdgeCount(out) === 0) return out;
    target = Math.ceil(target * 1.5);
    if (indices.length / 3 <= target) break;
  }
  return indices;
}
