import { describe, expect, it } from 'vitest';
import { imageToGlb } from '../index.ts';
import { sampleGrid } from '../core/raster.ts';
import {
  expectCleanModel,
  inspectGlb,
  iou,
  normaliseMask,
  photo,
  renderSilhouette,
} from '../../testing/generator.ts';
import {
  syntheticSilhouette,
  syntheticViews,
  type SyntheticShape,
} from '../views/synthetic-views.ts';
import { findSupport } from './depth-cues.ts';
import type { DepthCueOptions } from './depth-cues.ts';
import { loadSubject, objectMatte } from './subject.ts';

const GRID = 128;

/** Front and side (right, left) silhouette IoU of a model made from the shape's front view only. */
async function scores(shape: SyntheticShape, depthCues?: DepthCueOptions) {
  const [front] = await syntheticViews(shape, 512);
  const glb = await inspectGlb(await imageToGlb(front!, depthCues ? { depthCues } : {}));
  expectCleanModel(glb);
  const score = (view: 'front' | 'right' | 'left') =>
    iou(
      normaliseMask(renderSilhouette(glb.doc, view, GRID, GRID), GRID, GRID),
      syntheticSilhouette(shape, view, GRID, GRID),
    );
  return { front: score('front'), right: score('right'), left: score('left') };
}

describe('depth cues: one front photo, seen from the side', () => {
  it('the synthetic chair: a seat as deep as it is wide on legs front and back, its back a panel at the rear', async () => {
    const none = await scores('chair', { support: false, planar: false });
    const cued = await scores('chair');
    // A symmetric inflation made a pillow of the chair: 0.10 from the side.
    expect(none.right).toBeLessThan(0.15);
    expect(cued.right).toBeGreaterThan(0.65);
    expect(cued.left).toBeGreaterThan(0.65);
    expect(cued.front).toBeGreaterThanOrEqual(0.95);
  });

  it('the synthetic table: its top has depth and its legs stand at both edges', async () => {
    const none = await scores('table', { support: false, planar: false });
    const cued = await scores('table');
    expect(none.right).toBeLessThan(0.1);
    expect(cued.right).toBeGreaterThan(0.7);
    expect(cued.front).toBeGreaterThanOrEqual(0.95);
  });

  it('flat-coloured faces are flat: the L-block is a box from the side, not a lens', async () => {
    const none = await scores('l-block', { support: false, planar: false });
    const planar = await scores('l-block', { support: false });
    expect(none.right).toBeLessThan(0.69);
    expect(planar.right).toBeGreaterThan(0.73);
    // One photo cannot see the notch behind the upper half: the box is the most it can say.
    expect(planar.right).toBeLessThan(0.76);
    expect(planar.front).toBeGreaterThanOrEqual(0.95);
  });

  it('finds legs under a seat in the chair photo, and none in the horse, robot, flamingo, burger or teapot', async () => {
    for (const [name, legs] of [
      ['chair', true],
      ['horse', false],
      ['robot', false],
      ['flamingo', false],
      ['hamburger', false],
      ['teapot', false],
    ] as const) {
      const subject = await loadSubject(await photo(`${name}.png`));
      const { mask } = subject;
      const grid = sampleGrid(objectMatte(subject), mask.width, mask.height);
      const support = findSupport(mask.inside, mask.width, mask.height, grid);
      expect(support !== undefined, name).toBe(legs);
    }
  });
});
