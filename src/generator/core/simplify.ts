import { MeshoptSimplifier } from 'meshoptimizer';
import { badEdgeCount } from './topology.ts';

export interface SimplifyOptions {
  /** Stop once the mesh has at most this many triangles. */
  targetTriangles: number;
  /** Largest allowed deviation, relative to the mesh's extent (meshoptimizer's error). */
  maxError: number;
}

/** Errors tried in turn, as multiples of `maxError`, before the last try without a limit. */
const ERROR_STEPS = [1, 4, 16];

/**
 * Reduces a triangle mesh to at most `targetTriangles` with meshoptimizer's edge-collapse
 * simplifier, keeping the vertex array (the result indexes a subset of it; compact it with
 * `extractSubmesh`). Meshes already within the budget come back unchanged.
 *
 * The budget is kept (issue 23: tiers keep their own): the error starts at `maxError` and grows
 * (× 4, × 16, then unlimited) while the simplifier stops short of the target. A closed,
 * edge-manifold mesh stays so: collapses that flatten a thin part (a wire's tube whose walls
 * meet) can leave an edge shared by four faces, and such a result is not taken. When no try
 * gives a mesh within the budget that is as whole as the input, the answer is null: the caller
 * makes the surface again on a coarser grid.
 */
export async function simplifyIndices(
  positions: Float32Array,
  indices: Uint32Array,
  options: SimplifyOptions,
): Promise<Uint32Array | null> {
  if (indices.length / 3 <= options.targetTriangles) return indices;
  await MeshoptSimplifier.ready;
  const manifold = badEdgeCount(indices) === 0;
  const target = options.targetTriangles;
  for (const error of [...ERROR_STEPS.map((k) => k * options.maxError), 1]) {
    const [out] = MeshoptSimplifier.simplify(indices, positions, 3, target * 3, Math.min(1, error));
    if (out.length / 3 > target) continue;
    if (!manifold || badEdgeCount(out) === 0) return out;
  }
  return null;
}
