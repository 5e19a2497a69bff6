// Tests only: what an optimise run gives back, for the job tests that stand in for the pipeline.
import type { OptimiseOutput } from '../server/optimise/pipeline.ts';

/** A model's facts as the pipeline reports them: one triangle, ten bytes. */
const OPTIMISE_FACTS = {
  triangles: 1,
  vertices: 3,
  bytes: 10,
  textures: [],
  size_m: [1, 1, 1] as [number, number, number],
  extensions: [],
};

/** A finished run's output: a GLB whose bytes are `file`'s text. */
export function optimisedOutput(file = 'optimised'): OptimiseOutput {
  return {
    format: 'glb',
    file: new TextEncoder().encode(file),
    preview: null,
    before: OPTIMISE_FACTS,
    after: { ...OPTIMISE_FACTS, bytes: file.length },
    watertight: null,
    notes: [],
  };
}
