import { getBounds, type Document } from '@gltf-transform/core';
import { validateBytes } from 'gltf-validator';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { optimisePlanOf } from '../../contract/index.ts';
import { IMAGE_QUALITY, imageToGlb, promptToGlb } from '../../generator/index.ts';
import { photo, problems } from '../../testing/generator.ts';
import { fixtureIO } from '../../testing/viewer-fixtures.ts';
import { countTriangles } from './facts.ts';
import { OptimiseInputError, optimiseModel } from './pipeline.ts';
import { STL_HEADER } from './print-mesh.ts';
import { readStl, stlEdgeUse } from '../../testing/stl.ts';

const plan = optimisePlanOf;

/** A GLB whose base colour texture is replaced by a `side` × `side` PNG (a big texture to shrink). */
async function withTexture(glb: Uint8Array, side: number): Promise<Uint8Array> {
  const io = await fixtureIO();
  const doc = await io.readBinary(glb);
  const texture = doc.getRoot().listTextures()[0]!;
  const png = await sharp(texture.getImage()!).resize(side, side).png().toBuffer();
  texture.setImage(new Uint8Array(png)).setMimeType('image/png');
  return io.writeBinary(doc);
}

/** Reads a GLB back with the Draco and Meshopt decoders, independent of the optimiser's IO. */
async function reread(glb: Uint8Array): Promise<Document> {
  return (await fixtureIO()).readBinary(glb);
}

/**
 * No error from the Khronos validator, and no warning but those `allowed` (this validator does
 * not know KHR_texture_basisu: it warns that a KTX2 image is not a PNG or JPEG).
 */
async function expectValid(glb: Uint8Array, allowed: string[] = []) {
  const report = await validateBytes(glb, { writeTimestamp: false, maxIssues: 50 });
  expect(report.issues.numErrors).toBe(0);
  expect(problems(report).filter((p) => !allowed.some((code) => p.startsWith(`${code}:`)))).toEqual(
    [],
  );
}

/** Every position of every primitive is a finite number (the decoders gave real data). */
function decodedPositions(doc: Document): number {
  let n = 0;
  for (const prim of doc
    .getRoot()
    .listMeshes()
    .flatMap((m) => m.listPrimitives())) {
    const position = prim.getAttribute('POSITION')!;
    const out: number[] = [];
    for (let i = 0; i < position.getCount(); i++) {
      position.getElement(i, out);
      if (!out.every(Number.isFinite)) throw new Error('a position did not decode');
    }
    n += position.getCount();
  }
  return n;
}

const near = (a: number, b: number, tolerance = 1e-3) => Math.abs(a - b) <= tolerance;

describe('optimiseModel', () => {
  let chair: Uint8Array; // 30,000 triangles, one 2048 px PNG texture
  let car: Uint8Array; // six untextured parts
  beforeAll(async () => {
    chair = await withTexture(await imageToGlb(await photo('chair.png'), IMAGE_QUALITY.high), 2048);
    car = await promptToGlb('a blue car');
  });

  it('Web / AR: ≤ 50k triangles, textures ≤ 1024 px as WebP, Meshopt, bottom-centre pivot; valid and decodable', async () => {
    const stages: string[] = [];
    const progress: number[] = [];
    const out = await optimiseModel(chair, plan({ preset: 'web' }), (p, s) => {
      progress.push(p);
      stages.push(s);
    });
    expect(out.format).toBe('glb');
    await expectValid(out.file);
    expect(out.after.bytes).toBe(out.file.byteLength);
    expect(out.after.bytes).toBeLessThan(out.before.bytes / 2);
    expect(out.before.textures).toEqual([{ width: 2048, height: 2048, mime_type: 'image/png' }]);
    expect(out.after.textures).toEqual([{ width: 1024, height: 1024, mime_type: 'image/webp' }]);
    expect(out.after.triangles).toBeLessThanOrEqual(50_000);
    expect(out.after.extensions).toEqual(
      expect.arrayContaining(['EXT_meshopt_compression', 'EXT_texture_webp']),
    );
    // Re-read with the decoders: the geometry is there, the same triangles, the pivot at the
    // bottom centre.
    const doc = await reread(out.file);
    expect(countTriangles(doc)).toBe(out.after.triangles);
    expect(decodedPositions(doc)).toBe(out.after.vertices);
    const { min, max } = getBounds(doc.getRoot().listScenes()[0]!);
    expect(near(min[1], 0)).toBe(true);
    expect(near((min[0] + max[0]) / 2, 0)).toBe(true);
    expect(near((min[2] + max[2]) / 2, 0)).toBe(true);
    expect(stages).toContain('Encoding textures as WebP (≤ 1024 px)');
    expect(stages).toContain('Compressing geometry (Meshopt)');
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('custom: a triangle target, PNG at 256 px, Draco, centre pivot, scaled to 1.8 m', async () => {
    const out = await optimiseModel(
      chair,
      plan({
        preset: 'custom',
        triangles: 2000,
        texture_size: 256,
        texture_format: 'png',
        compression: 'draco',
        pivot: 'center',
        height_m: 1.8,
      }),
    );
    await expectValid(out.file);
    expect(out.before.triangles).toBe(30_000);
    expect(out.after.triangles).toBeLessThanOrEqual(2000);
    expect(out.after.triangles).toBeGreaterThan(1500);
    expect(out.after.textures).toEqual([{ width: 256, height: 256, mime_type: 'image/png' }]);
    expect(out.after.extensions).toContain('KHR_draco_mesh_compression');
    const doc = await reread(out.file);
    expect(countTriangles(doc)).toBe(out.after.triangles);
    decodedPositions(doc);
    const { min, max } = getBounds(doc.getRoot().listScenes()[0]!);
    expect(max[1] - min[1]).toBeCloseTo(1.8, 3);
    for (const k of [0, 1, 2]) expect(near((min[k]! + max[k]!) / 2, 0)).toBe(true);
    expect(out.after.size_m[1]).toBeCloseTo(1.8, 3);
  });

  it('custom: KTX2 textures (Basis Universal), JPEG textures, and Meshopt on an untextured model', async () => {
    const ktx2 = await optimiseModel(
      chair,
      plan({ preset: 'custom', texture_size: 512, texture_format: 'ktx2' }),
    );
    await expectValid(ktx2.file, ['VALUE_NOT_IN_LIST', 'IMAGE_UNRECOGNIZED_FORMAT']);
    expect(ktx2.after.textures).toEqual([{ width: 512, height: 512, mime_type: 'image/ktx2' }]);
    expect(ktx2.after.extensions).toContain('KHR_texture_basisu');
    expect(ktx2.notes).toEqual([]);

    const jpeg = await optimiseModel(
      chair,
      plan({ preset: 'custom', texture_size: 1024, texture_format: 'jpeg' }),
    );
    await expectValid(jpeg.file);
    expect(jpeg.after.textures).toEqual([{ width: 1024, height: 1024, mime_type: 'image/jpeg' }]);

    const meshopt = await optimiseModel(
      car,
      plan({ preset: 'custom', compression: 'meshopt', pivot: 'keep' }),
    );
    await expectValid(meshopt.file);
    expect(meshopt.after.extensions).toContain('EXT_meshopt_compression');
    expect(meshopt.after.triangles).toBe(meshopt.before.triangles);
    expect(decodedPositions(await reread(meshopt.file))).toBe(meshopt.after.vertices);
    // Pivot kept: the car still stands on y = 0 as the generator made it, size unchanged.
    for (const k of [0, 1, 2])
      expect(meshopt.after.size_m[k]).toBeCloseTo(meshopt.before.size_m[k]!, 3);
  });

  it('Game engine: the chosen triangle budget and texture size, no compression extension', async () => {
    const out = await optimiseModel(
      chair,
      plan({ preset: 'game', triangles: 5000, texture_size: 512 }),
    );
    await expectValid(out.file);
    expect(out.after.triangles).toBeLessThanOrEqual(5000);
    expect(out.after.textures).toEqual([{ width: 512, height: 512, mime_type: 'image/png' }]);
    expect(out.after.extensions).toEqual([]);
    const { min } = getBounds((await reread(out.file)).getRoot().listScenes()[0]!);
    expect(near(min[1], 0)).toBe(true);
  });

  it('a multi-part model reaches its triangle target too', async () => {
    const out = await optimiseModel(car, plan({ preset: 'custom', triangles: 800 }));
    await expectValid(out.file);
    expect(out.before.triangles).toBeGreaterThan(2000);
    expect(out.after.triangles).toBeLessThanOrEqual(800);
    expect(out.notes).toEqual([]);
  });

  it('3D print: binary STL in millimetres, Z up, the asked height, on the bed, centred, watertight', async () => {
    for (const [model, heightMm] of [
      [chair, 120],
      [car, 45.5],
    ] as const) {
      const out = await optimiseModel(model, plan({ preset: 'print', height_mm: heightMm }));
      expect(out.format).toBe('stl');
      expect(out.watertight).toBe(true);
      const stl = readStl(out.file);
      expect(stl.header.startsWith(STL_HEADER)).toBe(true);
      expect(stl.header.startsWith('solid')).toBe(false);
      expect(stl.triangles).toBe(out.after.triangles);
      expect(out.file.byteLength).toBe(84 + 50 * stl.triangles);
      // Z up, millimetres: the height is the asked one, the model stands on z = 0, centred in x, y.
      expect(stl.max[2] - stl.min[2]).toBeCloseTo(heightMm, 2);
      expect(stl.min[2]).toBeCloseTo(0, 3);
      expect((stl.min[0] + stl.max[0]) / 2).toBeCloseTo(0, 2);
      expect((stl.min[1] + stl.max[1]) / 2).toBeCloseTo(0, 2);
      // The footprint keeps the model's proportions.
      const ratio = heightMm / 1000 / out.before.size_m[1];
      expect(stl.max[0] - stl.min[0]).toBeCloseTo(out.before.size_m[0] * ratio * 1000, 1);
      expect(stl.max[1] - stl.min[1]).toBeCloseTo(out.before.size_m[2] * ratio * 1000, 1);
      // Watertight, read from the file itself: every edge in two facets, once each way round.
      const edges = stlEdgeUse(stl);
      expect(edges).toEqual({ open: 0, nonManifold: 0, misoriented: 0 });
      // Facets face outward: their normals agree with the winding, and the volume is positive.
      expect(stl.volume).toBeGreaterThan(0);
      // The preview is a valid GLB of the same mesh, in metres.
      await expectValid(out.preview!);
      expect(out.after.size_m[1]).toBeCloseTo(heightMm / 1000, 5);
    }
  });

  it('3D print with a triangle budget', async () => {
    const out = await optimiseModel(
      chair,
      plan({ preset: 'print', height_mm: 80, triangles: 3000 }),
    );
    expect(out.watertight).toBe(true);
    expect(readStl(out.file).triangles).toBeLessThanOrEqual(3000);
  });

  it('says why when the bytes are not a GLB', async () => {
    const error = await optimiseModel(
      new TextEncoder().encode('not a model'),
      plan({ preset: 'web' }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OptimiseInputError);
    expect((error as Error).message).toMatch(/could not be read as a GLB/);
  });
});
