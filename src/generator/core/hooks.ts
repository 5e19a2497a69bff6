/** The stage a generation is in after building the shape: processing it into a GLB. */
export type GeneratorPhase = 'processing';

/** Optional callbacks of a generation. */
export interface GenerateHooks {
  /** Called once the shape is built and the mesh is being processed (simplified, packed). */
  onPhase?: (phase: GeneratorPhase) => void;
}
