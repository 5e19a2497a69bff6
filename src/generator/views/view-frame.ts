import type { Bounds, Mask } from '../photo/mask.ts';

/**
 * How the views see the object (for the visual hull and its colours). Object frame: Y up, the
 * object's front faces +Z. Every view is an orthographic projection along a horizontal axis:
 * - 0 front: camera on +Z looking at −Z, image x → +X;
 * - 1 right: camera on +X looking at −X, image x → −Z;
 * - 2 back: camera on −Z, image x → −X;
 * - 3 left: camera on −X, image x → +Z;
 * image y (down) → −Y in all of them. Each silhouette's bounding box is stretched over the
 * object's extent: its full height, and its width along the view's horizontal axis, so photos
 * taken at different zoom and framing still line up.
 */

export type ViewSide = 0 | 1 | 2 | 3;

export interface Silhouette {
  side: ViewSide;
  mask: Mask;
  /** The object's bounding box in the mask (inclusive sample indices). */
  bounds: Bounds;
}

/** The object's size in metres (it spans x ∈ ±x/2, y ∈ [0, y], z ∈ ±z/2). */
export interface Extents {
  x: number;
  y: number;
  z: number;
}

/** Unit vector from the object towards each view's camera. */
export const VIEW_DIRECTIONS: readonly (readonly [number, number, number])[] = [
  [0, 0, 1],
  [1, 0, 0],
  [0, 0, -1],
  [-1, 0, 0],
];

/** Whether a view's horizontal image axis runs along X (front, back) or Z (right, left). */
export function alongX(side: ViewSide): boolean {
  return side === 0 || side === 2;
}

/** Sign of the world coordinate along the view's image x: +X, −Z, −X, +Z. */
export function imageSign(side: ViewSide): 1 | -1 {
  return side === 0 || side === 3 ? 1 : -1;
}

/**
 * Where a world point lands in a view's mask, in continuous mask coordinates (0..width,
 * 0..height, sample edges at integers; row 0 on top).
 */
export function projectToMask(
  view: Silhouette,
  extents: Extents,
  x: number,
  y: number,
  z: number,
): [number, number] {
  const { side, bounds: b } = view;
  const extent = alongX(side) ? extents.x : extents.z;
  const w = alongX(side) ? x : z;
  const t = (imageSign(side) * w + extent / 2) / extent;
  const r = (extents.y - y) / extents.y;
  return [b.x0 + t * (b.x1 + 1 - b.x0), b.y0 + r * (b.y1 + 1 - b.y0)];
}
