import { PerspectiveCamera, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { BASE_MARGIN, fitMargin } from './framing.ts';
import { VIEW_DIRECTION } from './view-handle.ts';

/** The lowest a `size` box's corners come on screen (NDC, −1 is the bottom edge) at `margin`. */
function lowest(size: Vector3, fov: number, aspect: number, margin: number): number {
  const largest = Math.max(size.x, size.y, size.z);
  const fitHeight = largest / (2 * Math.atan((Math.PI * fov) / 360));
  const camera = new PerspectiveCamera(fov, aspect, 0.001, 1000);
  camera.position
    .copy(VIEW_DIRECTION)
    .multiplyScalar(margin * Math.max(fitHeight, fitHeight / aspect));
  camera.lookAt(0, 0, 0);
  camera.updateMatrixWorld();
  let low = Infinity;
  for (let k = 0; k < 8; k++) {
    const p = new Vector3(
      (k & 1 ? 0.5 : -0.5) * size.x,
      (k & 2 ? 0.5 : -0.5) * size.y,
      (k & 4 ? 0.5 : -0.5) * size.z,
    ).project(camera);
    low = Math.min(low, p.y);
  }
  return low;
}

describe('fitMargin', () => {
  // The viewer's lens (35°) on a wide stage (1132 × 468) and on a phone (348 × 492).
  const FOV = 35;
  const WIDE = 1132 / 468;

  it('keeps a flat, wide base (a diorama) off the bottom edge, where the plain fit reaches it', () => {
    const diorama = new Vector3(1, 0.55, 1);
    expect(lowest(diorama, FOV, WIDE, BASE_MARGIN), 'the plain fit').toBeLessThan(-0.92);
    const margin = fitMargin(diorama, FOV, WIDE);
    expect(margin).toBeGreaterThan(BASE_MARGIN);
    expect(lowest(diorama, FOV, WIDE, margin)).toBeGreaterThanOrEqual(-0.92);
    // And no farther than it needs: one 5 % step less would not do.
    expect(lowest(diorama, FOV, WIDE, margin / 1.05)).toBeLessThan(-0.92);
  });

  it('leaves a model that already fits at the margin it always had', () => {
    const figure = new Vector3(0.3, 1, 0.2);
    expect(fitMargin(figure, FOV, WIDE)).toBe(BASE_MARGIN);
    expect(fitMargin(new Vector3(0, 0, 0), FOV, WIDE)).toBe(BASE_MARGIN);
  });

  it('fits a phone’s narrow frame as well', () => {
    const size = new Vector3(1, 0.6, 1);
    const aspect = 348 / 492;
    expect(lowest(size, FOV, aspect, fitMargin(size, FOV, aspect))).toBeGreaterThanOrEqual(-0.92);
  });
});
