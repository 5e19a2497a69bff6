// The mask every photo path works on (its own file: mask.ts and mask-regions.ts both read it).

/** A binary object mask over a sample grid: 1 = object, 0 = background. Row-major. */
export interface Mask {
  width: number;
  height: number;
  inside: Uint8Array;
  /**
   * How much of each sample's cell the object covers (0..1), where known: it places the
   * outline between sample centres.
   */
  coverage?: Float32Array;
}
