// The inflated relief's shapes: what it builds, what a depth profile is told and answers, and
// its options (relief.ts builds it).
import type { Mask } from './mask.ts';

/**
 * The "inflated billboard": a closed mesh whose outline follows an object mask. Its front
 * (+Z) and mirrored back (−Z) surfaces bulge with distance from the outline, so thin parts
 * become tubes and broad parts become domes; a narrow wall joins them along the outline.
 *
 * Vertices sit at the mask's sample centres. All three triangle sets index one shared vertex
 * array; `sampleOf` tells which mask sample each vertex came from (for texture coordinates).
 */
export interface Relief {
  positions: Float32Array;
  normals: Float32Array;
  /**
   * Vertex → sample index (y * width + x) in the mask. The first half of the relief's own
   * vertices are the front's, the second half the back's; the copies' vertices follow.
   */
  sampleOf: Int32Array;
  /** Vertices before this one are the front's. */
  frontCount: number;
  front: Uint32Array;
  back: Uint32Array;
  walls: Uint32Array;
  /** Closed copies of parts placed elsewhere in depth (hidden legs behind the seen ones). */
  extra: Uint32Array;
}

/** What a depth profile is told about the inflated relief (model units: the object is 1 high). */
export interface ProfileInput {
  /** The mask the relief is built on (pinches filled). */
  mask: Mask;
  /** Per sample: the inflated half-depth (front at +h, back at −h); 0 off the object. */
  halfDepth: Float32Array;
  /** One sample's size. */
  sampleSize: number;
}

/** Where the surfaces lie in depth, per sample, and which parts are repeated further back. */
export interface DepthProfile {
  /** Per sample: the front surface's z. */
  front: Float32Array;
  /** Per sample: the back surface's z (at most `front`'s). */
  back: Float32Array;
  /** Parts repeated elsewhere in depth: their samples, each closed, at their own depths. */
  copies?: { inside: Uint8Array; front: Float32Array; back: Float32Array }[];
}

export interface ReliefOptions {
  /** Size in pixels of the image area the mask covers (it sets the aspect ratio). */
  pixelWidth: number;
  pixelHeight: number;
  /**
   * Half of the thickness at the thickest point, in output units (the object is 1 high).
   * Default: whatever the inflation gives, capped at 0.5.
   */
  halfDepth?: number;
  /**
   * Lower bound of the whole thickness as a fraction of the width (a flat outline, such as a
   * thin wide plate, is still given this much body). Default 0.
   */
  minDepthOverWidth?: number;
  /** Moves the front and back surfaces (depth cues); default: the symmetric inflation. */
  profile?: (input: ProfileInput) => DepthProfile;
}
