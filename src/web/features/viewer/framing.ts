// How far back the view stands: drei's Bounds fits a model by its box's largest side, which
// leaves a wide, flat model's near corners (a diorama's base, seen from above and in front)
// at or past the frame's bottom edge. This finds the margin that keeps every corner inside.
import { PerspectiveCamera, Vector3 } from 'three';
import { VIEW_DIRECTION } from './view-handle.ts';

/**
 * The scale that puts a model of `size` (in the file's units) on a unit footprint: its width or
 * depth, or half its height when it is tall, becomes 1. A model with no size stays as it is.
 */
export function unitScale(size: Vector3): number {
  const footprint = Math.max(size.x, size.z, size.y / 2);
  return Number.isFinite(footprint) && footprint > 0 ? 1 / footprint : 1;
}

/** Bounds' own margin: what every model had before. */
export const BASE_MARGIN = 1.2;
/** How far from the centre, in the frame's half-sizes, a corner may come: 8 % of it free. */
const ROOM = 0.92;

/**
 * The margin Bounds needs so that every corner of a `size` box (centred on the origin, as the
 * viewer centres models), seen from the view's starting direction through a camera of `fov`
 * degrees and `aspect`, stays inside the frame with room to spare: at least `BASE_MARGIN`, more
 * for models whose near corners would reach the edge. Bounds' distance is
 * `margin × largest side / (2 atan(fov / 2))`, over the aspect when the frame is narrow.
 */
export function fitMargin(size: Vector3, fov: number, aspect: number): number {
  const largest = Math.max(size.x, size.y, size.z);
  if (!(largest > 0) || !(aspect > 0)) return BASE_MARGIN;
  const fitHeight = largest / (2 * Math.atan((Math.PI * fov) / 360));
  const perUnit = Math.max(fitHeight, fitHeight / aspect);
  const camera = new PerspectiveCamera(fov, aspect, largest / 1000, largest * 1000);
  const corner = new Vector3();
  const fits = (margin: number) => {
    camera.position.copy(VIEW_DIRECTION).multiplyScalar(margin * perUnit);
    camera.lookAt(0, 0, 0);
    camera.updateMatrixWorld();
    for (let k = 0; k < 8; k++) {
      corner
        .set(
          (k & 1 ? 0.5 : -0.5) * size.x,
          (k & 2 ? 0.5 : -0.5) * size.y,
          (k & 4 ? 0.5 : -0.5) * size.z,
        )
        .project(camera);
      if (Math.abs(corner.x) > ROOM || Math.abs(corner.y) > ROOM) return false;
    }
    return true;
  };
  let margin = BASE_MARGIN;
  // 5 % steps: a whole model in view at most a step farther than it needs.
  while (!fits(margin) && margin < 4) margin *= 1.05;
  return margin;
}
