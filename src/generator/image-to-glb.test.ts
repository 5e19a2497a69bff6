import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { GeneratorInputError, imageToGlb, viewsToGlb } from './index.ts';
import { inspectGlb, photo, problems, windingAgreement, type GlbSummary } from './test-support.ts';

/** What every image-derived GLB must satisfy. */
function expectValidTexturedGlb(glb: GlbSummary): void {
  expect(glb.magic).toBe('glTF');
  expect(glb.version).toBe(2);
  expect(glb.report.issues.numErrors, problems(glb.report).join('\n')).toBe(0);
  expect(glb.report.issues.numWarnings, problems(glb.report).join('\n')).toBe(0);
  expect(glb.report.info?.hasTextures).toBe(true);
  expect(glb.triangles).toBeGreaterThan(100);
  expect(glb.triangles).toBeLessThan(50_000);
  expect(glb.report.info?.totalTriangleCount).toBe(glb.triangles);
  expect(glb.textureMimeTypes.length).toBeGreaterThan(0);
  for (const mime of glb.textureMimeTypes) expect(mime).toMatch(/^image\/(png|jpeg)$/);
  for (const material of glb.doc.getRoot().listMaterials()) {
    expect(material.getMetallicFactor()).toBe(0);
    expect(material.getRoughnessFactor()).toBeCloseTo(0.8);
  }
  for (const prim of glb.doc
    .getRoot()
    .listMeshes()
    .flatMap((m) => m.listPrimitives())) {
    expect(prim.getAttribute('NORMAL')).not.toBeNull();
    expect(prim.getAttribute('TEXCOORD_0')).not.toBeNull();
  }
  // About 1 unit high, centred at the origin, with some depth.
  const size = [0, 1, 2].map((k) => glb.max[k]! - glb.min[k]!);
  expect(size[1]).toBeCloseTo(1, 2);
  for (let k = 0; k < 3; k++) expect(Math.abs(glb.max[k]! + glb.min[k]!) / 2).toBeLessThan(0.01);
  expect(size[2]).toBeGreaterThan(0.02);
  // Faces wind counter-clockwise seen from outside, in agreement with the normals.
  expect(windingAgreement(glb.doc)).toBeGreaterThan(0.99);
}

async function expectInputError(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GeneratorInputError);
  expect((error as Error).message).toMatch(pattern);
}

describe('imageToGlb', () => {
  it('turns chair.png (RGBA, transparent background) into a textured GLB', async () => {
    const glb = await inspectGlb(await imageToGlb(await photo('chair.png')));
    expectValidTexturedGlb(glb);
    expect(glb.textureMimeTypes).toEqual(['image/png']);
    // The chair is taller than wide: the outline comes from the mask, not the square image.
    expect(glb.max[0] - glb.min[0]).toBeLessThan(0.9);
  });

  it('turns teapot.png (RGB on a plain backdrop) into a textured GLB', async () => {
    const glb = await inspectGlb(await imageToGlb(await photo('teapot.png')));
    expectValidTexturedGlb(glb);
    expect(glb.textureMimeTypes).toEqual(['image/jpeg']);
    // The backdrop was masked out: the teapot is wider than tall, but not a full square slab.
    const width = glb.max[0] - glb.min[0];
    expect(width).toBeGreaterThan(1.1);
    expect(glb.triangles).toBeLessThan(2 * 2 * 95 * 95 * 0.8);
  });

  it('is deterministic', async () => {
    const chair = await photo('chair.png');
    const [a, b] = await Promise.all([imageToGlb(chair), imageToGlb(chair)]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('accepts JPEG, WebP and GIF and applies EXIF orientation', async () => {
    const robot = await photo('robot.png');
    for (const format of ['jpeg', 'webp', 'gif'] as const) {
      const bytes = new Uint8Array(await sharp(robot).resize(200).toFormat(format).toBuffer());
      expectValidTexturedGlb(await inspectGlb(await imageToGlb(bytes)));
    }
    // A wide photo stored sideways: once upright it is tall, so the model is narrow.
    const sideways = await sharp({
      create: { width: 300, height: 100, channels: 3, background: '#808080' },
    })
      .composite([
        {
          input: {
            create: { width: 240, height: 60, channels: 3, background: '#2050d0' },
          },
          left: 30,
          top: 20,
        },
      ])
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const glb = await inspectGlb(await imageToGlb(new Uint8Array(sideways)));
    expectValidTexturedGlb(glb);
    expect(glb.max[0] - glb.min[0]).toBeLessThan(0.5);
  });

  it('falls back to a slab when no object can be told from the background', async () => {
    const noise = await sharp({
      create: {
        width: 120,
        height: 80,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer();
    const busy = await inspectGlb(await imageToGlb(new Uint8Array(noise)));
    expectValidTexturedGlb(busy);
    expect(busy.max[0] - busy.min[0]).toBeCloseTo(1.5, 1); // the whole 3:2 image

    const transparent = await sharp({
      create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    expectValidTexturedGlb(await inspectGlb(await imageToGlb(new Uint8Array(transparent))));
  });

  it('copes with tiny and extreme images', async () => {
    for (const [width, height] of [
      [1, 1],
      [3, 2],
      [1000, 8],
    ] as const) {
      const png = await sharp({ create: { width, height, channels: 3, background: '#c84' } })
        .png()
        .toBuffer();
      const glb = await inspectGlb(await imageToGlb(new Uint8Array(png)));
      expect(glb.magic).toBe('glTF');
      expect(glb.report.issues.numErrors, problems(glb.report).join('\n')).toBe(0);
      expect(glb.triangles).toBeGreaterThan(0);
    }
  });

  it('rejects input that is not a supported image', async () => {
    const chair = await photo('chair.png');
    const cases: [Uint8Array, RegExp][] = [
      [new Uint8Array(), /empty/],
      [new TextEncoder().encode('hello, this is a text file\n'), /text/],
      [
        new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>'),
        /SVG/,
      ],
      [chair.subarray(0, Math.floor(chair.length * 0.6)), /truncated or corrupt/],
    ];
    for (const [bytes, pattern] of cases) {
      await expectInputError(imageToGlb(bytes), pattern);
    }
  });
});

describe('viewsToGlb', () => {
  it('uses a second, distinct photo for the back', async () => {
    const glb = await inspectGlb(
      await viewsToGlb([await photo('chair.png'), await photo('robot.png')]),
    );
    expectValidTexturedGlb(glb);
    expect(glb.textureMimeTypes).toEqual(['image/png', 'image/png']);
    expect(glb.doc.getRoot().listTextures()).toHaveLength(2);
  });

  it('treats a repeated photo as a single view', async () => {
    const chair = await photo('chair.png');
    const [views, single] = await Promise.all([viewsToGlb([chair, chair]), imageToGlb(chair)]);
    const glb = await inspectGlb(views);
    expectValidTexturedGlb(glb);
    expect(glb.doc.getRoot().listTextures()).toHaveLength(1);
    expect(Buffer.from(views).equals(Buffer.from(single))).toBe(true);
  });

  it('takes four photos, using the side views for thickness', async () => {
    const names = ['teapot.png', 'hamburger.png', 'horse.png', 'flamingo.png'];
    const images = await Promise.all(names.map(photo));
    const glb = await inspectGlb(await viewsToGlb(images));
    expectValidTexturedGlb(glb);
    expect(glb.textureMimeTypes).toEqual(['image/jpeg', 'image/png']);
    // Horse and flamingo side views are about as wide as tall: depth follows.
    expect(glb.max[2] - glb.min[2]).toBeGreaterThan(0.3);
  });

  it('rejects the wrong number of images and names an undecodable one', async () => {
    const chair = await photo('chair.png');
    await expectInputError(viewsToGlb([chair]), /2 to 4 images.*got 1/);
    await expectInputError(viewsToGlb([chair, chair, chair, chair, chair]), /got 5/);
    const error: unknown = await viewsToGlb([chair, new TextEncoder().encode('nope')]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GeneratorInputError);
    expect((error as GeneratorInputError).imageIndex).toBe(1);
    expect((error as Error).message).toMatch(/^Image 2 could not be decoded: it is text/);
  });
});
