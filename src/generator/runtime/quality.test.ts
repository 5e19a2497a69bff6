import { describe, expect, it } from 'vitest';
import { imageToGlb } from '../photo/image-to-glb.ts';
import { syntheticViews } from '../views/synthetic-views.ts';
import { VIEWS_TO_GLB_DEFAULTS, viewsToGlb } from '../views/views-to-glb.ts';
import { expectCleanModel, inspectGlb, photo } from '../../testing/generator.ts';
import { IMAGE_QUALITY, QUALITIES, VIEWS_QUALITY } from './quality.ts';

describe('quality tiers', () => {
  it('one photo: each tier a clean model, draft the lightest and high the most detailed', async () => {
    const bytes = await photo('teapot.png'); // 874 px: the texture caps show
    const seen = [];
    for (const quality of QUALITIES) {
      const glb = await inspectGlb(await imageToGlb(bytes, IMAGE_QUALITY[quality]));
      expectCleanModel(glb);
      const textureSides = glb.doc
        .getRoot()
        .listTextures()
        .map((t) => Math.max(...(t.getSize() ?? [0])));
      seen.push({ quality, triangles: glb.triangles, texture: Math.max(...textureSides) });
    }
    const [draft, standard, high] = seen;
    expect(draft!.triangles).toBeLessThan(standard!.triangles);
    expect(standard!.triangles).toBeLessThan(high!.triangles);
    expect(draft!.texture).toBe(512);
    expect(standard!.texture).toBe(1024);
    expect(high!.texture).toBeGreaterThanOrEqual(1024);
  });

  it("one photo: the robot's hair-thin antennae stay closed and edge-manifold at every tier", async () => {
    // Heavy simplification (draft) once flattened an antenna's tube into edges of four faces.
    const bytes = await photo('robot.png');
    for (const quality of QUALITIES)
      expectCleanModel(await inspectGlb(await imageToGlb(bytes, IMAGE_QUALITY[quality])));
  });

  it('several real photos: each tier closed and edge-manifold', async () => {
    // Unrelated photos carve a hull with thin, staircased parts (diagonal-only voxel contacts).
    const views = await Promise.all(
      ['teapot.png', 'hamburger.png', 'horse.png', 'flamingo.png'].map(photo),
    );
    for (const quality of ['draft', 'high'] as const)
      expectCleanModel(await inspectGlb(await viewsToGlb(views, VIEWS_QUALITY[quality])));
  });

  it('several views: each tier a clean model, a finer grid and more triangles than the last, within 3 s', async () => {
    const views = await syntheticViews('chair');
    await viewsToGlb(views, VIEWS_QUALITY.draft); // warm-up (meshoptimizer, sharp)
    const seen = [];
    for (const quality of QUALITIES) {
      const started = performance.now();
      const bytes = await viewsToGlb(views, VIEWS_QUALITY[quality]);
      const ms = performance.now() - started;
      const glb = await inspectGlb(bytes);
      expectCleanModel(glb);
      const resolution = VIEWS_QUALITY[quality].resolution ?? VIEWS_TO_GLB_DEFAULTS.resolution;
      seen.push({ quality, resolution, triangles: glb.triangles, ms });
    }
    for (let i = 1; i < seen.length; i++) {
      const [lower, higher] = [seen[i - 1]!, seen[i]!];
      expect(higher.resolution, JSON.stringify(seen)).toBeGreaterThan(lower.resolution);
      // A real step up: at least half as many triangles again.
      expect(higher.triangles, JSON.stringify(seen)).toBeGreaterThan(1.5 * lower.triangles);
    }
    for (const s of seen) expect(s.ms, JSON.stringify(seen)).toBeLessThan(3000);
  });
});
