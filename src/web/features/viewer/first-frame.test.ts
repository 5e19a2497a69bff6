import { Box3, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import { fittedCamera } from './first-frame.ts';
import { fitMargin } from './framing.ts';
import { VIEW_DIRECTION } from './view-handle.ts';

describe('fittedCamera (a share page first frame, framed as the viewer settles)', () => {
  const cube = new Box3(new Vector3(-0.5, -0.5, -0.5), new Vector3(0.5, 0.5, 0.5));

  it('stands where drei’s Bounds ends its fit: margin × largest side over 2 atan(fov / 2)', () => {
    const camera = fittedCamera(cube, 1.2, 4 / 3);
    const expected = (1.2 * 1) / (2 * Math.atan((Math.PI * 35) / 360));
    expect(camera.position.length()).toBeCloseTo(expected, 6);
    expect(camera.fov).toBe(35);
    expect(camera.aspect).toBeCloseTo(4 / 3, 9);
    // Bounds' clip: near and far from the distance.
    expect(camera.near).toBeCloseTo(expected / 100, 9);
    expect(camera.far).toBeCloseTo(expected * 100, 6);
  });

  it('looks at the model from the view’s starting direction', () => {
    const camera = fittedCamera(cube, 1.2, 1);
    expect(camera.position.clone().normalize().distanceTo(VIEW_DIRECTION)).toBeLessThan(1e-9);
    const forward = camera.getWorldDirection(new Vector3());
    expect(forward.distanceTo(VIEW_DIRECTION.clone().negate())).toBeLessThan(1e-6);
  });

  it('stands farther back in a narrow frame (the width decides)', () => {
    const wide = fittedCamera(cube, 1.2, 2).position.length();
    const narrow = fittedCamera(cube, 1.2, 0.5).position.length();
    expect(narrow).toBeCloseTo(wide * 2, 6);
  });

  it('keeps every corner of the box in the frame, at the margin the viewer uses', () => {
    for (const aspect of [0.46, 1, 4 / 3, 2]) {
      const margin = fitMargin(cube.getSize(new Vector3()), 35, aspect);
      const camera = fittedCamera(cube, margin, aspect);
      camera.updateProjectionMatrix();
      for (let k = 0; k < 8; k++) {
        const corner = new Vector3(k & 1 ? 0.5 : -0.5, k & 2 ? 0.5 : -0.5, k & 4 ? 0.5 : -0.5);
        corner.project(camera);
        expect(Math.abs(corner.x), `aspect ${aspect}`).toBeLessThan(1);
        expect(Math.abs(corner.y), `aspect ${aspect}`).toBeLessThan(1);
      }
    }
  });
});
