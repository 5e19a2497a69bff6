import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { imageToGlb } from '../index.ts';
import {
  alphaSilhouette,
  edgeDefects,
  expectCleanModel,
  expectInputError,
  inspectGlb,
  iou,
  photo,
  problems,
  renderSilhouette,
  signedVolume,
  type GlbSummary,
} from '../../testing/generator.ts';

/** What every image-derived GLB must satisfy. */
function expectValidTexturedGlb(glb: GlbSummary): void {
  expectCleanModel(glb);
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
  // About 1 m high, with real depth, closed and watertight.
  const size = [0, 1, 2].map((k) => glb.max[k]! - glb.min[k]!);
  expect(size[1]).toBeCloseTo(1, 2);
  for (const k of [0, 2]) expect(Math.abs(glb.max[k]! + glb.min[k]!) / 2).toBeLessThan(1e-5);
  expect(size[2]! / size[0]!).toBeGreaterThanOrEqual(0.25);
  expect(edgeDefects(glb.doc)).toBe(0);
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

  it('refuses images that show no object, saying why', async () => {
    const plain = (width: number, height: number, colour: string) =>
      sharp({ create: { width, height, channels: 3, background: colour } })
        .png()
        .toBuffer()
        .then((b) => new Uint8Array(b));
    const transparent = new Uint8Array(
      await sharp({
        create: { width: 64, height: 64, channels: 4, background: { r: 9, g: 9, b: 9, alpha: 0 } },
      })
        .png()
        .toBuffer(),
    );
    const noise = new Uint8Array(
      await sharp({
        create: {
          width: 120,
          height: 80,
          channels: 3,
          background: '#000',
          noise: { type: 'gaussian', mean: 128, sigma: 60 },
        },
      })
        .png()
        .toBuffer(),
    );
    // A plain backdrop with a hair-thin line on it: not one plain colour, and said so.
    const speck = new Uint8Array(
      await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } })
        .composite([
          {
            input: await sharp({
              create: { width: 150, height: 1, channels: 3, background: '#202020' },
            })
              .png()
              .toBuffer(),
            left: 75,
            top: 100,
          },
        ])
        .png()
        .toBuffer(),
    );
    const cases: [Uint8Array, RegExp][] = [
      [speck, /^The image shows no object Kiln can tell from its backdrop/],
      [await plain(1, 1, '#c84'), /^The image is 1×1 pixels, too small to show an object/],
      [await plain(1000, 8, '#c84'), /1000×8 pixels, too small/],
      [await plain(300, 200, '#ffffff'), /^The image shows no object: it is one plain colour/],
      [transparent, /^The image is fully transparent/],
      [noise, /no plain background to tell the object from/],
    ];
    for (const [bytes, pattern] of cases) await expectInputError(imageToGlb(bytes), pattern);
  });

  it('matches the input silhouette seen from the front (IoU ≥ 0.9) with real depth', async () => {
    for (const name of ['chair.png', 'flamingo.png', 'hamburger.png', 'horse.png', 'robot.png']) {
      const bytes = await photo(name);
      const glb = await inspectGlb(await imageToGlb(bytes));
      // The foreground mask straight from the alpha channel, at full resolution.
      const expected = (await alphaSilhouette(bytes))!;
      const front = renderSilhouette(glb.doc, 'front', 256, 256);
      expect(iou(front, expected), name).toBeGreaterThanOrEqual(0.9);
      const [width, , depth] = [0, 1, 2].map((k) => glb.max[k]! - glb.min[k]!);
      expect(depth! / width!, name).toBeGreaterThanOrEqual(0.25);
      expect(signedVolume(glb.doc), name).toBeGreaterThan(0);
    }
  });

  it('keeps holes through the object, and a soft shadow on the backdrop out of the model', async () => {
    // A grey ring (a mug handle's hole) on white, with a soft grey shadow under it.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400">
      <defs><filter id="b"><feGaussianBlur stdDeviation="12"/></filter></defs>
      <rect width="400" height="400" fill="#ffffff"/>
      <ellipse cx="200" cy="330" rx="150" ry="28" fill="#b8b8b8" filter="url(#b)"/>
      <circle cx="200" cy="190" r="120" fill="none" stroke="#2a5bd7" stroke-width="60"/>
    </svg>`;
    const png = new Uint8Array(await sharp(Buffer.from(svg)).png().toBuffer());
    const glb = await inspectGlb(await imageToGlb(png));
    expect(glb.report.issues.numErrors, problems(glb.report).join('\n')).toBe(0);
    const front = renderSilhouette(glb.doc, 'front', 100, 100);
    // The shadow would make the model taller than wide; the ring is as tall as wide.
    const [width, height] = [0, 1].map((k) => glb.max[k]! - glb.min[k]!);
    expect(height! / width!).toBeCloseTo(1, 1);
    // The centre of the ring is empty; the ring itself is solid.
    expect(front.inside[50 * 100 + 50]).toBe(0);
    expect(front.inside[50 * 100 + 5]).toBe(1);
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
