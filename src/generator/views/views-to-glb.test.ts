import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Document } from '@gltf-transform/core';
import { viewsToGlb } from '../index.ts';
import type { Mask } from '../photo/mask.ts';
import {
  SYNTHETIC_VIEWS,
  syntheticBoxes,
  syntheticSilhouette,
  syntheticViews,
  type SyntheticShape,
} from './synthetic-views.ts';
import {
  expectCleanModel,
  expectInputError,
  inspectGlb,
  iou,
  normaliseMask,
  photo,
  problems,
  renderSilhouette,
  signedVolume,
  type GlbSummary,
} from '../../testing/generator.ts';

const GRID = 128;

/** What every multi-view GLB must satisfy. */
function expectValidHull(glb: GlbSummary, views: number): void {
  expectCleanModel(glb);
  expect(glb.triangles).toBeGreaterThan(12);
  expect(glb.triangles).toBeLessThanOrEqual(40_000);
  expect(glb.max[1] - glb.min[1]).toBeCloseTo(1, 4);
  // One textured primitive per view, each view's photo used.
  const root = glb.doc.getRoot();
  expect(root.listTextures()).toHaveLength(views);
  const primitives = root.listMeshes().flatMap((m) => m.listPrimitives());
  expect(primitives).toHaveLength(views);
  for (const prim of primitives) {
    expect(prim.getAttribute('TEXCOORD_0')).not.toBeNull();
    expect(prim.getAttribute('NORMAL')).not.toBeNull();
    const material = prim.getMaterial()!;
    expect(material.getBaseColorTexture()).not.toBeNull();
    expect(material.getMetallicFactor()).toBe(0);
    expect(material.getRoughnessFactor()).toBeCloseTo(0.8);
  }
  expect(root.listMaterials().map((m) => m.getName())).toEqual(
    ['front', 'right', 'back', 'left'].slice(0, views),
  );
}

async function expectPowerOfTwoTextures(doc: Document): Promise<void> {
  for (const texture of doc.getRoot().listTextures()) {
    const { width = 0, height = 0 } = await sharp(texture.getImage()!).metadata();
    expect(Math.log2(width) % 1).toBe(0);
    expect(Math.log2(height) % 1).toBe(0);
  }
}

function silhouetteIous(doc: Document, shape: SyntheticShape): number[] {
  return SYNTHETIC_VIEWS.map((view) =>
    iou(
      normaliseMask(renderSilhouette(doc, view, GRID, GRID), GRID, GRID),
      syntheticSilhouette(shape, view, GRID, GRID),
    ),
  );
}

/** Runs of inside samples along a mask row, as [first, last] pairs. */
function runs(mask: Mask, row: number): [number, number][] {
  const out: [number, number][] = [];
  for (let x = 0; x < mask.width; x++) {
    if (!mask.inside[row * mask.width + x]) continue;
    if (out.length > 0 && out[out.length - 1]![1] === x - 1) out[out.length - 1]![1] = x;
    else out.push([x, x]);
  }
  return out;
}

/**
 * Share of the surface (by area) whose texture colour is the colour of the synthetic box it
 * lies on (the nearest box to each triangle's centre).
 */
async function colourAgreement(doc: Document, shape: SyntheticShape): Promise<number> {
  const boxes = syntheticBoxes(shape);
  const distanceTo = (b: (typeof boxes)[number], p: number[]): number =>
    Math.hypot(...[0, 1, 2].map((k) => Math.max(b.min[k]! - p[k]!, 0, p[k]! - b.max[k]!)));
  let agree = 0;
  let total = 0;
  for (const prim of doc.getRoot().listMeshes()[0]!.listPrimitives()) {
    const image = prim.getMaterial()!.getBaseColorTexture()!.getImage()!;
    const { data, info } = await sharp(image)
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const p = prim.getAttribute('POSITION')!.getArray()!;
    const uv = prim.getAttribute('TEXCOORD_0')!.getArray()!;
    const idx = prim.getIndices()!.getArray()!;
    for (let t = 0; t < idx.length; t += 3) {
      const vs = [idx[t]!, idx[t + 1]!, idx[t + 2]!];
      const centre = [0, 1, 2].map((k) => vs.reduce((s, v) => s + p[v * 3 + k]!, 0) / 3);
      const u = vs.reduce((s, v) => s + uv[v * 2]!, 0) / 3;
      const v = vs.reduce((s, v) => s + uv[v * 2 + 1]!, 0) / 3;
      const e1 = [0, 1, 2].map((k) => p[vs[1]! * 3 + k]! - p[vs[0]! * 3 + k]!);
      const e2 = [0, 1, 2].map((k) => p[vs[2]! * 3 + k]! - p[vs[0]! * 3 + k]!);
      const area = Math.hypot(
        e1[1]! * e2[2]! - e1[2]! * e2[1]!,
        e1[2]! * e2[0]! - e1[0]! * e2[2]!,
        e1[0]! * e2[1]! - e1[1]! * e2[0]!,
      );
      const nearest = boxes.reduce((a, b) =>
        distanceTo(b, centre) < distanceTo(a, centre) ? b : a,
      );
      const tx = Math.min(info.width - 1, Math.floor(u * info.width));
      const ty = Math.min(info.height - 1, Math.floor(v * info.height));
      const o = (ty * info.width + tx) * 3;
      const diff = Math.hypot(...[0, 1, 2].map((k) => data[o + k]! - nearest.colour[k]!));
      if (diff < 40) agree += area;
      total += area;
    }
  }
  return agree / total;
}

describe('viewsToGlb (visual hull)', () => {
  it('carves a chair from 4 views: silhouettes match, legs survive, colours follow', async () => {
    const glb = await inspectGlb(await viewsToGlb(await syntheticViews('chair', 512)));
    expectValidHull(glb, 4);
    await expectPowerOfTwoTextures(glb.doc);
    for (const value of silhouetteIous(glb.doc, 'chair'))
      expect(value).toBeGreaterThanOrEqual(0.85);
    // Legs: two posts with a gap between them in the bottom rows, down to the floor.
    for (const view of ['front', 'right'] as const) {
      const mask = normaliseMask(renderSilhouette(glb.doc, view, GRID, GRID), GRID, GRID);
      for (const row of [GRID - 1, GRID - 20, Math.round(GRID * 0.6)]) {
        const posts = runs(mask, row);
        expect(posts, `${view} row ${row}`).toHaveLength(2);
        expect(posts[0]![0]).toBeLessThanOrEqual(2);
        expect(posts[1]![1]).toBeGreaterThanOrEqual(GRID - 3);
        for (const [a, b] of posts) expect(b - a + 1).toBeLessThan(GRID * 0.12);
      }
    }
    expect(await colourAgreement(glb.doc, 'chair')).toBeGreaterThan(0.85);
  });

  it('keeps the notch of an L-shaped block seen only from the front and the right', async () => {
    const views = await syntheticViews('l-block', 384);
    const glb = await inspectGlb(await viewsToGlb(views.slice(0, 2)));
    expectValidHull(glb, 2);
    const right = normaliseMask(renderSilhouette(glb.doc, 'right', 64, 64), 64, 64);
    // Seen from the right, the front (+Z) is on the left: the notch is the top-left quarter.
    let notch = 0;
    for (let y = 2; y < 30; y++) for (let x = 2; x < 30; x++) notch += right.inside[y * 64 + x]!;
    expect(notch).toBe(0);
    expect(iou(right, syntheticSilhouette('l-block', 'right', 64, 64))).toBeGreaterThan(0.95);
    // Half the block's depth is missing above the notch: volume 0.6 × (0.6 × 0.5 + 0.3 × 0.5).
    expect(signedVolume(glb.doc)).toBeCloseTo(0.27, 1);
    for (const value of silhouetteIous(glb.doc, 'l-block')) expect(value).toBeGreaterThan(0.95);
  });

  it('takes 3 views (front, right, back), and opaque photos on a plain backdrop', async () => {
    const chair = await syntheticViews('chair', 384);
    const three = await inspectGlb(await viewsToGlb(chair.slice(0, 3)));
    expectValidHull(three, 3);
    for (const value of silhouetteIous(three.doc, 'chair'))
      expect(value).toBeGreaterThanOrEqual(0.85);

    const table = await syntheticViews('table', 384, { background: '#e0e4e8' });
    const opaque = await inspectGlb(await viewsToGlb(table));
    expectValidHull(opaque, 4);
    expect(opaque.textureMimeTypes).toEqual([
      'image/jpeg',
      'image/jpeg',
      'image/jpeg',
      'image/jpeg',
    ]);
    // The table is wider than tall (1.2 × 0.75 m): 1.6 m wide once 1 m tall.
    expect(opaque.max[0] - opaque.min[0]).toBeCloseTo(1.6, 1);
    for (const value of silhouetteIous(opaque.doc, 'table'))
      expect(value).toBeGreaterThanOrEqual(0.85);
  });

  it('honours the resolution and triangle budget options', async () => {
    const views = await syntheticViews('chair', 256);
    const coarse = await inspectGlb(await viewsToGlb(views, { resolution: 48, maxTriangles: 300 }));
    expect(coarse.report.issues.numErrors, problems(coarse.report).join('\n')).toBe(0);
    expect(coarse.report.issues.numWarnings, problems(coarse.report).join('\n')).toBe(0);
    expect(coarse.triangles).toBeLessThanOrEqual(300);
    expect(signedVolume(coarse.doc)).toBeGreaterThan(0);
  });

  it('is deterministic', async () => {
    const views = await syntheticViews('chair', 256);
    const [a, b] = await Promise.all([viewsToGlb(views), viewsToGlb(views)]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('validates on real photos', async () => {
    const sets = [
      ['chair.png', 'chair.png', 'chair.png', 'chair.png'],
      ['teapot.png', 'hamburger.png', 'horse.png', 'flamingo.png'],
    ];
    for (const names of sets) {
      const glb = await inspectGlb(await viewsToGlb(await Promise.all(names.map(photo))));
      expectValidHull(glb, 4);
    }
  });

  it('rejects the wrong number of images and names an unusable one by position', async () => {
    const [front, right, back] = await syntheticViews('chair', 128);
    await expectInputError(viewsToGlb([front!]), /2 to 4 images.*got 1/);
    await expectInputError(viewsToGlb([front!, right!, back!, back!, back!]), /got 5/);
    await expectInputError(viewsToGlb([]), /got 0/);

    const text = new TextEncoder().encode('nope');
    const error = await expectInputError(
      viewsToGlb([front!, text, back!, text]),
      /^Image 2 is plain text; use a PNG, JPEG or WebP image\.$/,
    );
    expect(error.imageIndex).toBe(1);

    const blank = await sharp({
      create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const transparent = await expectInputError(
      viewsToGlb([front!, right!, back!, new Uint8Array(blank)]),
      /^Image 4 is fully transparent/,
    );
    expect(transparent.imageIndex).toBe(3);
  });

  it('fails with a clear message when nothing survives carving', async () => {
    // A "Γ": a post on the left and a thin bar along the top. Taken as the back view too, it
    // is mirrored: its post lands on the other side, so front and back share only the bar.
    const gamma = new Uint8Array(
      await sharp({
        create: {
          width: 200,
          height: 200,
          channels: 4,
          background: { r: 0, g: 0, b: 0, alpha: 0 },
        },
      })
        .composite([
          {
            input: { create: { width: 50, height: 180, channels: 4, background: '#3060c0' } },
            left: 10,
            top: 10,
          },
          {
            input: { create: { width: 180, height: 5, channels: 4, background: '#3060c0' } },
            left: 10,
            top: 10,
          },
        ])
        .png()
        .toBuffer(),
    );
    await expectInputError(
      viewsToGlb([gamma, gamma, gamma, gamma]),
      /^Nothing survives carving: the views do not show one object/,
    );
  });
});
