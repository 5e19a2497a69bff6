import { describe, expect, it } from 'vitest';
import { imageToGlb } from '../photo/image-to-glb.ts';
import { syntheticViews } from '../views/synthetic-views.ts';
import { viewsToGlb } from '../views/views-to-glb.ts';
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

  it('several views: each tier a clean model, and no two alike', async () => {
    const views = await syntheticViews('chair');
    const glbs = [];
    for (const quality of QUALITIES) {
      const bytes = await viewsToGlb(views, VIEWS_QUALITY[quality]);
      expectCleanModel(await inspectGlb(bytes));
      glbs.push(Buffer.from(bytes).toString('base64'));
    }
    expect(new Set(glbs).size).toBe(3);
  });
});
