import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { Document, getBounds, type NodeIO, type Primitive } from '@gltf-transform/core';
import { EXTMeshGPUInstancing } from '@gltf-transform/extensions';
import {
  countTriangles,
  fixtureIO,
  LARGE_MIN_TRIANGLES,
  makeViewerFixtures,
  CHARACTER_BIND_SIZE,
  CHARACTER_POSED_SIZE,
  riggedCharacter,
  riggedFigure,
  type ViewerFixture,
} from '../../../../testing/viewer-fixtures.ts';
import { imageToGlb } from '../../../../generator/index.ts';
import { PHOTOS_DIR, VIEWER_FIXTURES_DIR } from '../../../../testing/fixtures.ts';
import { formatCount, glbFacts, GlbFormatError, imageSize, type GlbFacts } from './glb-facts.ts';

// Shared with e2e: the script keeps fixtures newer than itself, so this is quick after once.
const SETUP_TIMEOUT = 180_000;

async function photo(name: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(join(PHOTOS_DIR, name)));
}

/** A GLB container around `json` (any value, or raw text) and an optional BIN chunk. */
function makeGlb(
  json: unknown,
  bin?: Uint8Array,
  options: { version?: number; raw?: boolean } = {},
): Uint8Array {
  const text = options.raw ? String(json) : JSON.stringify(json);
  const pad = (n: number) => (4 - (n % 4)) % 4;
  const jsonBytes = new TextEncoder().encode(text);
  const jsonLength = jsonBytes.length + pad(jsonBytes.length);
  const binLength = bin ? bin.length + pad(bin.length) : 0;
  const total = 12 + 8 + jsonLength + (bin ? 8 + binLength : 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, options.version ?? 2, true);
  view.setUint32(8, total, true);
  view.setUint32(12, jsonLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  out.fill(0x20, 20, 20 + jsonLength);
  out.set(jsonBytes, 20);
  if (bin) {
    const at = 20 + jsonLength;
    view.setUint32(at, binLength, true);
    view.setUint32(at + 4, 0x004e4942, true);
    out.set(bin, at + 8);
  }
  return out;
}

function expectBoundsClose(
  facts: GlbFacts,
  expected: { min: number[]; max: number[] },
  tolerance = 1e-5,
): void {
  expect(facts.bounds).not.toBeNull();
  const { min, max, size } = facts.bounds!;
  for (let k = 0; k < 3; k++) {
    expect(Math.abs(min[k]! - expected.min[k]!)).toBeLessThan(tolerance);
    expect(Math.abs(max[k]! - expected.max[k]!)).toBeLessThan(tolerance);
    expect(size[k]).toBeCloseTo(max[k]! - min[k]!, 10);
  }
}

function expectFormatError(bytes: Uint8Array, message: RegExp): void {
  let error: unknown;
  try {
    glbFacts(bytes);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(GlbFormatError);
  expect((error as Error).name).toBe('GlbFormatError');
  expect((error as Error).message).toMatch(message);
}

// The viewer fixtures, made (or found cached) once for the describes below, with their facts.
let io: NodeIO;
const fixtures = new Map<string, ViewerFixture & { data: Uint8Array; facts: GlbFacts }>();
let loading: Promise<void> | undefined;
const loadFixtures = () =>
  (loading ??= (async () => {
    io = await fixtureIO();
    for (const fixture of await makeViewerFixtures(VIEWER_FIXTURES_DIR)) {
      const data = new Uint8Array(await readFile(fixture.path));
      fixtures.set(fixture.name, { ...fixture, data, facts: glbFacts(data) });
    }
  })());
const get = (name: string) => {
  const fixture = fixtures.get(name);
  if (!fixture) throw new Error(`${name} was not generated`);
  return fixture;
};

describe('glbFacts on the viewer fixtures', () => {
  beforeAll(loadFixtures, SETUP_TIMEOUT);

  it('large.glb: the triangles the script counted, from the accessor counts alone', async () => {
    const { facts, triangles, data } = get('large.glb');
    expect(facts.triangles).toBe(triangles);
    expect(facts.triangles).toBeGreaterThanOrEqual(LARGE_MIN_TRIANGLES);
    const doc = await io.readBinary(data);
    expect(facts.triangles).toBe(countTriangles(doc));
    const position = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!.getAttribute('POSITION')!;
    expect(facts.vertices).toBe(position.getCount());
    expect(facts).toMatchObject({
      fileBytes: data.byteLength,
      generator: 'Kiln viewer fixtures',
      version: '2.0',
      meshes: 1,
      primitives: 1,
      nodes: 1,
      materials: 1,
      textures: [],
      animations: [],
      extensionsUsed: [],
      extensionsRequired: [],
    });
  });

  it('draco.glb: lists KHR_draco_mesh_compression and counts what the uncompressed model has', async () => {
    const { facts, triangles } = get('draco.glb');
    expect(facts.extensionsUsed).toContain('KHR_draco_mesh_compression');
    expect(facts.extensionsRequired).toContain('KHR_draco_mesh_compression');
    const source = glbFacts(await imageToGlb(await photo('chair.png')));
    expect(source.extensionsUsed).not.toContain('KHR_draco_mesh_compression');
    expect(facts.triangles).toBe(source.triangles);
    expect(facts.triangles).toBe(triangles);
    expect(facts.triangles).toBeGreaterThan(1000);
  });

  it('meshopt.glb: lists EXT_meshopt_compression and counts its triangles', () => {
    const { facts, triangles } = get('meshopt.glb');
    expect(facts.extensionsUsed).toContain('EXT_meshopt_compression');
    expect(facts.triangles).toBe(triangles);
    expect(facts.triangles).toBeGreaterThan(1000);
  });

  it('animated.glb: two clips, named, with their durations', () => {
    const { facts } = get('animated.glb');
    expect(facts.animations).toEqual([
      { name: 'spin', channels: 1, duration: 2 },
      { name: 'bounce', channels: 1, duration: 1 },
    ]);
    for (const clip of facts.animations) expect(clip.duration).toBeGreaterThan(0);
    expect(facts.triangles).toBe(12);
  });
});

describe('glbFacts on the viewer fixtures: KTX2, skins, and every fixture against gltf-transform', () => {
  beforeAll(loadFixtures, SETUP_TIMEOUT);

  it('ktx2.glb (when the script makes it): the KTX2 image is the texture, with its size', async () => {
    const fixture = fixtures.get('ktx2.glb');
    if (!fixture) return; // an older script without the KTX2 fixture
    const { facts, data } = fixture;
    expect(facts.extensionsUsed).toContain('KHR_texture_basisu');
    expect(facts.textures.length).toBeGreaterThan(0);
    const doc = await io.readBinary(data);
    const sizes = doc
      .getRoot()
      .listTextures()
      .filter((t) => t.getMimeType() === 'image/ktx2')
      .map((t) => t.getSize());
    expect(facts.textures.map((t) => [t.width, t.height])).toEqual(sizes);
    for (const texture of facts.textures) expect(texture.mimeType).toBe('image/ktx2');
  });

  it('character.glb: Draco-compressed skinned vertices are left to the viewer, not "no geometry"', () => {
    // The file alone cannot say where the joints put compressed vertices (their accessors have
    // no buffer view and would read as zeros): no size from the bytes, and it says why.
    const { facts } = get('character.glb');
    expect(facts.extensionsUsed).toContain('KHR_draco_mesh_compression');
    expect(facts.bounds).toBeNull();
    expect(facts.skinUnread).toBe(true);
    expect(facts.posed).toBe(false);
    expect(facts.triangles).toBe(72);
    expect(facts.meshes).toBe(2);
    expect(facts.animations.map((a) => a.name)).toEqual(['Idle', 'Wave', 'Walk']);
  });

  it('every fixture: bounds as @gltf-transform/core getBounds, textures as it sizes them', async () => {
    expect(fixtures.size).toBeGreaterThanOrEqual(4);
    for (const { name, data, facts } of fixtures.values()) {
      // Its skinned vertices are Draco-compressed: the viewer measures it (the test below).
      if (name === 'character.glb') continue;
      const doc = await io.readBinary(data);
      const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0]!;
      // getBounds places a skinned mesh by its node, not its joints: the rigged figures are
      // 0.5 × 1.8 × 0.3 m standing on the ground (the synthetic-rig test checks how).
      const skinned = doc
        .getRoot()
        .listNodes()
        .some((n) => n.getSkin());
      const expected = skinned
        ? {
            min: [-0.25, 0, -0.15] as [number, number, number],
            max: [0.25, 1.8, 0.15] as [number, number, number],
          }
        : getBounds(scene);
      try {
        // 0.1 mm: a Draco file's accessor min/max (what the facts read) and its decoded,
        // quantised positions (what getBounds measures) differ by a quantisation step.
        expectBoundsClose(facts, expected, 1e-4);
        for (let k = 0; k < 3; k++) expect(facts.bounds!.size[k]).toBeGreaterThan(0);
        const sizes = doc
          .getRoot()
          .listTextures()
          .map((t) => `${t.getMimeType()} ${t.getSize()?.join('×')}`)
          .sort();
        const ours = facts.textures.map((t) => `${t.mimeType} ${t.width}×${t.height}`).sort();
        expect(ours).toEqual(sizes);
      } catch (error) {
        throw new Error(`${name}: ${(error as Error).message}`, { cause: error });
      }
    }
  });
});

describe('glbFacts on Kiln image-to-3D output', () => {
  it.each([
    ['chair.png', 'image/png'],
    ['teapot.png', 'image/jpeg'],
  ])('%s: the texture size is that of the image embedded (%s)', async (name, mimeType) => {
    const glb = await imageToGlb(await photo(name));
    const facts = glbFacts(glb);
    const io = await fixtureIO();
    const doc = await io.readBinary(glb);
    const images = doc.getRoot().listTextures();
    expect(facts.textures).toHaveLength(images.length);
    expect(images.length).toBeGreaterThan(0);
    for (const [i, texture] of facts.textures.entries()) {
      const image = images[i]!.getImage()!;
      const { info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
      expect(texture).toMatchObject({ mimeType, width: info.width, height: info.height });
    }
    expect(facts.triangles).toBe(countTriangles(doc));
    expect(facts.generator).toBeTruthy();
    expectBoundsClose(facts, getBounds(doc.getRoot().getDefaultScene()!));
    // Kiln models stand about 1 m high.
    expect(facts.bounds!.size[1]).toBeCloseTo(1, 2);
  });
});

/** A unit-ish triangle soup: `triangles` triangles spread over [0, 1]³, unindexed or not. */
function trianglePrimitive(doc: Document, triangles: number, indexed = true): Primitive {
  const buffer = doc.getRoot().listBuffers()[0] ?? doc.createBuffer();
  const positions = new Float32Array(triangles * 9);
  for (let i = 0; i < triangles; i++) {
    const t = triangles === 1 ? 0 : i / (triangles - 1);
    positions.set([t, 0, 0, 1, t, 0, 0, 1, t], i * 9);
  }
  const prim = doc
    .createPrimitive()
    .setAttribute(
      'POSITION',
      doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer),
    );
  if (indexed) {
    const indices = new Uint16Array(triangles * 3).map((_, i) => i);
    prim.setIndices(doc.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer));
  }
  return prim;
}

describe('glbFacts on synthetic scenes: skinned meshes', () => {
  it('measures a skinned mesh in its bind pose, as the joints place it (not by its node)', async () => {
    // As a rigged character is often exported (riggedFigure): an armature scaled to centimetres,
    // the mesh node under it (its own transform ignored for a skinned mesh), vertices in metres,
    // and inverse bind matrices that undo the armature's scale.
    const facts = glbFacts(await (await fixtureIO()).writeBinary(riggedFigure()));
    const size = facts.bounds!.size;
    expect(size[0]).toBeCloseTo(0.5, 4);
    expect(size[1]).toBeCloseTo(1.8, 4);
    expect(size[2]).toBeCloseTo(0.3, 4);
  });

  it('measures a Mixamo-style character (two meshes, one skin, no skeleton) as posed in the file', async () => {
    // Bound in a T-pose (1.6 m wide), saved with its arms down, under an armature scaled 0.01:
    // each vertex is placed by bind matrix × joint world matrix, weighted (the shoulders half to
    // the spine, half to the arm), across both meshes.
    const doc = await riggedCharacter();
    const root = doc.getRoot();
    expect(root.listSkins()).toHaveLength(1);
    expect(root.listSkins()[0]!.getSkeleton()).toBeNull();
    expect(root.listNodes().filter((n) => n.getSkin())).toHaveLength(2);
    const facts = glbFacts(await (await fixtureIO()).writeBinary(doc));
    expect(facts.posed).toBe(true);
    expect(facts.skinUnread).toBe(false);
    for (let k = 0; k < 3; k++)
      expect(facts.bounds!.size[k]).toBeCloseTo(CHARACTER_POSED_SIZE[k]!, 4);
    expect(facts.bounds!.size[0]).not.toBeCloseTo(CHARACTER_BIND_SIZE[0], 1);
    expect(facts.bounds!.min[1]).toBeCloseTo(0, 4);
  });
});

describe('glbFacts on synthetic scenes: a posed figure', () => {
  it('measures a figure posed away from its bind pose where its joints put each vertex', async () => {
    // A body on the hips joint and an arm on the shoulder joint: bound with the arm out (the
    // inverse bind matrices), saved with the arm turned down (the shoulder node's rotation).
    // The box is the posed figure's, not every part's box through every joint.
    const doc = new Document();
    const buffer = doc.createBuffer();
    const corners = (x0: number, x1: number, y0: number, y1: number, z: number) =>
      [x0, x1].flatMap((x) => [y0, y1].flatMap((y) => [-z, z].flatMap((zz) => [x, y, zz])));
    const positions = new Float32Array([
      ...corners(-0.2, 0.2, 0, 1.8, 0.1),
      ...corners(0.2, 0.8, 1.4, 1.5, 0.05),
    ]);
    const joints = new Uint8Array(16 * 4).map((_, i) => (i % 4 === 0 && i >= 32 ? 1 : 0));
    const weights = new Float32Array(16 * 4).map((_, i) => (i % 4 === 0 ? 1 : 0));
    const indices = new Uint16Array(Array.from({ length: 16 }, (_, i) => i).concat([0, 1]));
    const prim = doc
      .createPrimitive()
      .setAttribute(
        'POSITION',
        doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer),
      )
      .setAttribute(
        'JOINTS_0',
        doc.createAccessor().setType('VEC4').setArray(joints).setBuffer(buffer),
      )
      .setAttribute(
        'WEIGHTS_0',
        doc.createAccessor().setType('VEC4').setArray(weights).setBuffer(buffer),
      )
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer));
    const hips = doc.createNode('hips');
    const s = Math.SQRT1_2;
    const shoulder = doc
      .createNode('shoulder')
      .setTranslation([0.2, 1.45, 0])
      .setRotation([0, 0, -s, s]); // −90° about Z: the arm points down
    hips.addChild(shoulder);
    // inverse(T(0.2, 1.45, 0)) for the shoulder, identity for the hips; column-major.
    const ibm = new Float32Array([
      1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -0.2,
      -1.45, 0, 1,
    ]);
    const skin = doc
      .createSkin('rig')
      .addJoint(hips)
      .addJoint(shoulder)
      .setInverseBindMatrices(doc.createAccessor().setType('MAT4').setArray(ibm).setBuffer(buffer));
    const body = doc
      .createNode('body')
      .setMesh(doc.createMesh('body').addPrimitive(prim))
      .setSkin(skin);
    doc.getRoot().setDefaultScene(doc.createScene().addChild(hips).addChild(body));
    const facts = glbFacts(await (await fixtureIO()).writeBinary(doc));
    expect(facts.bounds!.min[0]).toBeCloseTo(-0.2, 4);
    expect(facts.bounds!.max[0]).toBeCloseTo(0.25, 4);
    expect(facts.bounds!.size[1]).toBeCloseTo(1.8, 4);
    expect(facts.bounds!.size[2]).toBeCloseTo(0.2, 4);
    expect(facts.posed).toBe(true);
  });
});

describe('glbFacts on synthetic scenes: nodes, transforms and instances', () => {
  it('counts a mesh once per node that uses it, with each node’s transform in the bounds', async () => {
    const doc = new Document();
    const mesh = doc.createMesh('shared').addPrimitive(trianglePrimitive(doc, 4));
    const a = doc.createNode('a').setMesh(mesh);
    const b = doc.createNode('b').setMesh(mesh).setTranslation([10, 0, 0]).setScale([2, 2, 2]);
    doc.createMesh('orphan').addPrimitive(trianglePrimitive(doc, 7)); // in no scene
    doc.getRoot().setDefaultScene(doc.createScene().addChild(a).addChild(b));
    const io = await fixtureIO();
    const glb = await io.writeBinary(doc);
    const facts = glbFacts(glb);

    expect(facts.triangles).toBe(8);
    expect(facts.vertices).toBe(24);
    expect(facts.meshes).toBe(2);
    expect(facts.primitives).toBe(2);
    expect(facts.nodes).toBe(2);
    expect(facts.bounds!.min).toEqual([0, 0, 0]);
    expect(facts.bounds!.max).toEqual([12, 2, 2]);
    expect(facts.bounds!.size).toEqual([12, 2, 2]);
    expectBoundsClose(facts, getBounds(doc.getRoot().getDefaultScene()!));
  });

  it('composes parent TRS transforms and walks the default scene only', async () => {
    const doc = new Document();
    const mesh = doc.createMesh().addPrimitive(trianglePrimitive(doc, 2));
    const half = Math.SQRT1_2;
    const child = doc.createNode('child').setMesh(mesh).setTranslation([0, 5, 0]);
    const parent = doc
      .createNode('parent')
      .setRotation([0, 0, half, half]) // 90° about +Z: (x, y) → (−y, x)
      .addChild(child);
    const elsewhere = doc.createNode('elsewhere').setMesh(mesh);
    doc.createScene('first').addChild(elsewhere);
    const main = doc.createScene('main').addChild(parent);
    doc.getRoot().setDefaultScene(main);
    const io = await fixtureIO();
    const facts = glbFacts(await io.writeBinary(doc));
    expect(facts.triangles).toBe(2); // "elsewhere" is in the other scene
    expectBoundsClose(facts, { min: [-6, 0, 0], max: [-5, 1, 1] });
    expectBoundsClose(facts, getBounds(main));
  });

  it('multiplies by EXT_mesh_gpu_instancing and places each instance', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const mesh = doc.createMesh().addPrimitive(trianglePrimitive(doc, 3));
    const instancing = doc.createExtension(EXTMeshGPUInstancing).setRequired(true);
    const translations = doc
      .createAccessor()
      .setType('VEC3')
      .setArray(new Float32Array([0, 0, 0, 0, 0, -4, 3, 0, 0, 0, 7, 0]))
      .setBuffer(buffer);
    const node = doc
      .createNode()
      .setMesh(mesh)
      .setExtension(
        'EXT_mesh_gpu_instancing',
        instancing.createInstancedMesh().setAttribute('TRANSLATION', translations),
      );
    doc.getRoot().setDefaultScene(doc.createScene().addChild(node));
    const io = await fixtureIO();
    const facts = glbFacts(await io.writeBinary(doc));
    expect(facts.triangles).toBe(12);
    expect(facts.vertices).toBe(36);
    expect(facts.extensionsUsed).toContain('EXT_mesh_gpu_instancing');
    expectBoundsClose(facts, { min: [0, 0, -4], max: [4, 8, 1] });
  });
});

describe('glbFacts on synthetic scenes: node matrices and quantized positions', () => {
  it('reads a node `matrix` (column-major) and dequantizes normalized POSITION min/max', () => {
    const facts = glbFacts(
      makeGlb({
        asset: { version: '2.0' },
        extensionsUsed: ['KHR_mesh_quantization'],
        scenes: [{ nodes: [0] }],
        nodes: [{ mesh: 0, matrix: [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1] }],
        meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
        accessors: [
          {
            count: 3,
            type: 'VEC3',
            componentType: 5122,
            normalized: true,
            min: [0, -32767, 0],
            max: [32767, 0, 16384],
          },
        ],
      }),
    );
    expectBoundsClose(facts, { min: [1, 0, 3], max: [3, 2, 3 + 2 * (16384 / 32767)] });
  });
});

describe('glbFacts on synthetic scenes: primitives and empty scenes', () => {
  it('counts strips, fans and unindexed lists; points and lines draw no triangles', async () => {
    const doc = new Document();
    const mesh = doc
      .createMesh()
      .addPrimitive(trianglePrimitive(doc, 2, false)) // 6 vertices, list: 2
      .addPrimitive(trianglePrimitive(doc, 2).setMode(5)) // 6 indices, strip: 4
      .addPrimitive(trianglePrimitive(doc, 3, false).setMode(6)) // 9 vertices, fan: 7
      .addPrimitive(trianglePrimitive(doc, 2).setMode(1)) // lines: 0
      .addPrimitive(trianglePrimitive(doc, 2).setMode(0)); // points: 0
    doc.getRoot().setDefaultScene(doc.createScene().addChild(doc.createNode().setMesh(mesh)));
    const io = await fixtureIO();
    const facts = glbFacts(await io.writeBinary(doc));
    expect(facts.triangles).toBe(2 + 4 + 7);
    expect(facts.vertices).toBe(6 + 6 + 9 + 6 + 6);
    expect(facts.primitives).toBe(5);
  });

  it('has null bounds and zero counts for a scene without geometry', () => {
    const facts = glbFacts(
      makeGlb({ asset: { version: '2.0' }, scenes: [{ nodes: [0] }], nodes: [{ name: 'empty' }] }),
    );
    expect(facts).toMatchObject({
      triangles: 0,
      vertices: 0,
      nodes: 1,
      meshes: 0,
      bounds: null,
      generator: null,
      version: '2.0',
    });
  });
});

describe('glbFacts on synthetic scenes: bad references and textures', () => {
  it('is lenient about references that lead nowhere, and about node cycles', () => {
    const facts = glbFacts(
      makeGlb({
        asset: { version: '2.0' },
        scene: 0,
        scenes: [{ nodes: [0, 7, 'x'] }],
        nodes: [
          { children: [1], mesh: 0 },
          { children: [0], mesh: 5 },
        ],
        meshes: [
          { primitives: [{ attributes: { POSITION: 0 } }, { attributes: { POSITION: 9 } }] },
        ],
        accessors: [
          { count: 3, type: 'VEC3', componentType: 5126, min: [0, 0, 0], max: [1, 1, 1] },
        ],
        textures: [{ source: 4 }],
        animations: [{ channels: [{}], samplers: [{ input: 12 }] }],
      }),
    );
    expect(facts.triangles).toBe(1);
    expect(facts.vertices).toBe(3);
    expect(facts.bounds!.max).toEqual([1, 1, 1]);
    expect(facts.textures).toEqual([
      { index: 0, name: null, mimeType: null, width: null, height: null },
    ]);
    expect(facts.animations).toEqual([{ name: null, channels: 1, duration: 0 }]);
  });

  it('reads textures from a data: URI, an extension source, and not from external files', async () => {
    const png = await sharp({
      create: { width: 37, height: 19, channels: 3, background: '#c33' },
    })
      .png()
      .toBuffer();
    const webp = await sharp({ create: { width: 21, height: 8, channels: 3, background: '#3c3' } })
      .webp()
      .toBuffer();
    const bin = new Uint8Array(webp);
    const facts = glbFacts(
      makeGlb(
        {
          asset: { version: '2.0' },
          extensionsUsed: ['EXT_texture_webp'],
          buffers: [{ byteLength: bin.length }],
          bufferViews: [{ buffer: 0, byteOffset: 0, byteLength: bin.length }],
          images: [
            { uri: `data:image/png;base64,${png.toString('base64')}`, name: 'inline' },
            { bufferView: 0, mimeType: 'image/webp' },
            { uri: 'textures/far-away.jpg' },
          ],
          textures: [
            { source: 0 },
            { name: 'webp', source: 2, extensions: { EXT_texture_webp: { source: 1 } } },
            { source: 2 },
          ],
        },
        bin,
      ),
    );
    expect(facts.textures).toEqual([
      { index: 0, name: 'inline', mimeType: 'image/png', width: 37, height: 19 },
      { index: 1, name: 'webp', mimeType: 'image/webp', width: 21, height: 8 },
      { index: 2, name: null, mimeType: null, width: null, height: null },
    ]);
    expect(facts.extensionsUsed).toEqual(['EXT_texture_webp']);
  });
});

describe('glbFacts on bad bytes', () => {
  const minimal = { asset: { version: '2.0' } };

  it('rejects empty bytes', () => {
    expectFormatError(new Uint8Array(0), /^not a GLB file: it is empty$/);
  });

  it('rejects bytes that do not start with glTF', () => {
    const random = new Uint8Array(256).map((_, i) => (i * 73 + 11) % 256);
    expectFormatError(random, /^not a GLB file: it does not start with 'glTF'$/);
    expectFormatError(new TextEncoder().encode('{"asset":{"version":"2.0"}}'), /'glTF'/);
    expectFormatError(new Uint8Array([0x67, 0x6c]), /'glTF'/);
  });

  it('rejects a GLB of another version', () => {
    expectFormatError(makeGlb(minimal, undefined, { version: 1 }), /^unsupported glTF version 1$/);
  });

  it('rejects a truncated file', () => {
    const glb = makeGlb(minimal, new Uint8Array(64));
    expectFormatError(
      glb.subarray(0, 8),
      /^truncated GLB: 8 bytes, shorter than the 12-byte header$/,
    );
    expectFormatError(
      glb.subarray(0, glb.length - 10),
      new RegExp(
        `^truncated GLB: the header declares ${glb.length} bytes but the file has ${glb.length - 10} bytes$`,
      ),
    );
    // A consistent header, but a BIN chunk that runs past the end.
    const short = glb.slice(0, glb.length - 16);
    new DataView(short.buffer).setUint32(8, short.length, true);
    expectFormatError(short, /^truncated GLB: a chunk declares 64 bytes but only 48 bytes follow$/);
    // A JSON chunk that runs past the end.
    const cut = glb.slice(0, 24);
    new DataView(cut.buffer).setUint32(8, 24, true);
    expectFormatError(
      cut,
      /^truncated GLB: the JSON chunk declares \d+ bytes but only 4 bytes follow$/,
    );
    const headerOnly = glb.slice(0, 12);
    new DataView(headerOnly.buffer).setUint32(8, 12, true);
    expectFormatError(headerOnly, /^truncated GLB: there is no JSON chunk after the header$/);
  });

  it('rejects a JSON chunk that is not JSON, or not an object', () => {
    expectFormatError(
      makeGlb('{"asset": {"version": "2.0"', undefined, { raw: true }),
      /^the JSON chunk is not valid JSON: /,
    );
    expectFormatError(makeGlb([1, 2, 3]), /^the JSON chunk is not a glTF object$/);
  });

  it('rejects a first chunk that is not JSON', () => {
    const glb = makeGlb(minimal);
    new DataView(glb.buffer).setUint32(16, 0x004e4942, true);
    expectFormatError(glb, /^malformed GLB: the first chunk is not the JSON chunk$/);
  });

  it('reads a GLB inside a larger buffer (a view with an offset), ignoring trailing bytes', () => {
    const glb = makeGlb({ asset: { version: '2.0', generator: 'here' } });
    const host = new Uint8Array(glb.length + 20);
    host.set(glb, 7);
    const facts = glbFacts(host.subarray(7, 7 + glb.length + 5));
    expect(facts.generator).toBe('here');
    expect(facts.fileBytes).toBe(glb.length + 5);
  });
});

describe('imageSize', () => {
  const W = 37;
  const H = 19;
  const base = () =>
    sharp({ create: { width: W, height: H, channels: 4, background: '#8048c0c0' } });
  const sizeOf = async (image: Promise<Buffer>) => imageSize(new Uint8Array(await image));

  it('reads PNG (IHDR)', async () => {
    expect(await sizeOf(base().png().toBuffer())).toEqual({
      mimeType: 'image/png',
      width: W,
      height: H,
    });
  });

  it('reads baseline and progressive JPEG (SOF0, SOF2), past EXIF', async () => {
    const expected = { mimeType: 'image/jpeg', width: W, height: H };
    expect(await sizeOf(base().jpeg().toBuffer())).toEqual(expected);
    expect(await sizeOf(base().jpeg({ progressive: true }).toBuffer())).toEqual(expected);
    expect(await sizeOf(base().jpeg().withMetadata({ orientation: 6 }).toBuffer())).toEqual(
      expected,
    );
  });

  it('reads WebP: lossy (VP8), lossless (VP8L), with alpha (VP8X)', async () => {
    const expected = { mimeType: 'image/webp', width: W, height: H };
    expect(await sizeOf(base().removeAlpha().webp().toBuffer())).toEqual(expected);
    expect(await sizeOf(base().webp({ lossless: true }).toBuffer())).toEqual(expected);
    const withAlpha = await base().webp().toBuffer();
    expect(withAlpha.subarray(12, 16).toString('latin1')).toBe('VP8X');
    expect(imageSize(new Uint8Array(withAlpha))).toEqual(expected);
  });

  it('reads a KTX2 header', () => {
    const ktx2 = new Uint8Array(80);
    ktx2.set([0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a]);
    const view = new DataView(ktx2.buffer);
    view.setUint32(20, 1024, true);
    view.setUint32(24, 512, true);
    expect(imageSize(ktx2)).toEqual({ mimeType: 'image/ktx2', width: 1024, height: 512 });
  });

  it('gives null for other or cut-short bytes', async () => {
    expect(imageSize(new Uint8Array(0))).toBeNull();
    const png = new Uint8Array(await base().png().toBuffer());
    expect(imageSize(png.subarray(0, 20))).toBeNull();
    const jpeg = new Uint8Array(await base().jpeg().toBuffer());
    expect(imageSize(jpeg.subarray(0, 30))).toBeNull();
  });
});

describe('formatCount (byte sizes: src/formats/byte-size.test.ts)', () => {
  it('formats counts with thousands separators', () => {
    expect(formatCount(262_144)).toBe('262,144');
    expect(formatCount(12)).toBe('12');
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(262_144, 'de-DE')).toBe('262.144');
    expect(formatCount(Number.POSITIVE_INFINITY)).toBe('—');
  });
});
