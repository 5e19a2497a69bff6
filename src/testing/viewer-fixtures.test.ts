import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateBytes, type ValidationReport } from 'gltf-validator';
import type { Document } from '@gltf-transform/core';
import {
  countTriangles,
  fixtureIO,
  LARGE_MIN_TRIANGLES,
  makeViewerFixtures,
  type ViewerFixture,
} from './viewer-fixtures.ts';

// Generating takes a few seconds; validating the 260k-triangle torus a few more. Generous
// for a slow 2-core machine.
const TIMEOUT = 60_000;

/** The 12 bytes a KTX 2.0 file starts with: «KTX 20»\r\n\x1A\n. */
const KTX2_IDENTIFIER = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];

interface Loaded {
  fixture: ViewerFixture;
  bytes: Uint8Array;
  report: ValidationReport;
  doc: Document;
}

function problems(report: ValidationReport): string {
  return report.issues.messages
    .filter((m) => m.severity === 0)
    .map((m) => `${m.code} ${m.pointer ?? ''}: ${m.message}`)
    .join('\n');
}

describe('makeViewerFixtures', { timeout: TIMEOUT }, () => {
  let outDir: string;
  let fixtures: ViewerFixture[];
  const loaded = new Map<string, Loaded>();

  beforeAll(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'kiln-viewer-fixtures-'));
    fixtures = await makeViewerFixtures(outDir);
    const io = await fixtureIO();
    for (const fixture of fixtures) {
      const bytes = new Uint8Array(await readFile(fixture.path));
      const report = await validateBytes(bytes, { maxIssues: 50, writeTimestamp: false });
      const doc = await io.readBinary(bytes);
      loaded.set(fixture.name, { fixture, bytes, report, doc });
    }
  }, TIMEOUT);

  afterAll(async () => {
    if (outDir) await rm(outDir, { recursive: true, force: true });
  });

  const get = (name: string): Loaded => {
    const entry = loaded.get(name);
    if (!entry) throw new Error(`${name} was not generated`);
    return entry;
  };
  const extensionsUsed = (name: string): string[] =>
    get(name)
      .doc.getRoot()
      .listExtensionsUsed()
      .map((e) => e.extensionName);

  it('writes the eight fixtures into the given directory', () => {
    expect(fixtures.map((f) => f.name)).toEqual([
      'draco.glb',
      'meshopt.glb',
      'animated.glb',
      'large.glb',
      'ktx2.glb',
      'rigged.glb',
      'jumping.glb',
      'character.glb',
    ]);
    for (const f of fixtures) {
      expect(f.path.startsWith(outDir)).toBe(true);
      expect(f.cached).toBe(false);
    }
  });

  it.each(['draco.glb', 'meshopt.glb', 'animated.glb', 'large.glb', 'ktx2.glb'])(
    '%s is a GLB the validator finds no error in',
    (name) => {
      const { fixture, bytes, report, doc } = get(name);
      expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe('glTF');
      expect(fixture.bytes).toBe(bytes.byteLength);
      expect(report.issues.numErrors, problems(report)).toBe(0);
      expect(fixture.triangles).toBeGreaterThan(0);
      // The count reported matches the file read back (Draco/Meshopt decoded).
      expect(countTriangles(doc)).toBe(fixture.triangles);
    },
  );

  it('draco.glb is the chair compressed with KHR_draco_mesh_compression', () => {
    const { report } = get('draco.glb');
    expect(extensionsUsed('draco.glb')).toContain('KHR_draco_mesh_compression');
    expect(get('draco.glb').fixture.triangles).toBeGreaterThan(1000);
    // The validator cannot decode Draco, so it cannot count its triangles itself.
    expect(report.info?.hasTextures).toBe(true);
  });

  it('meshopt.glb is the teapot compressed with EXT_meshopt_compression', () => {
    expect(extensionsUsed('meshopt.glb')).toContain('EXT_meshopt_compression');
    expect(get('meshopt.glb').fixture.triangles).toBeGreaterThan(1000);
    expect(get('meshopt.glb').report.info?.hasTextures).toBe(true);
  });

  it('animated.glb has a rotation clip and a translation clip', () => {
    const animations = get('animated.glb').doc.getRoot().listAnimations();
    expect(animations.map((a) => a.getName())).toEqual(['spin', 'bounce']);
    const [spin, bounce] = animations;
    const spinChannel = spin!.listChannels()[0]!;
    expect(spinChannel.getTargetPath()).toBe('rotation');
    expect(spinChannel.getTargetNode()?.getMesh()).not.toBeNull();
    const spinSampler = spinChannel.getSampler()!;
    expect(spinSampler.getInterpolation()).toBe('LINEAR');
    expect(spinSampler.getInput()!.getCount()).toBeGreaterThanOrEqual(3);
    expect(spinSampler.getInput()!.getMax([0])[0]).toBeCloseTo(2);
    expect(bounce!.listChannels()[0]!.getTargetPath()).toBe('translation');
    expect(extensionsUsed('animated.glb')).toEqual([]);
    expect(get('animated.glb').report.issues.numWarnings).toBe(0);
  });

  it(`large.glb has at least ${LARGE_MIN_TRIANGLES} triangles with uint32 indices`, () => {
    const { doc, report, fixture } = get('large.glb');
    expect(fixture.triangles).toBeGreaterThanOrEqual(LARGE_MIN_TRIANGLES);
    expect(report.info?.totalTriangleCount).toBe(fixture.triangles);
    const prim = doc.getRoot().listMeshes()[0]!.listPrimitives()[0]!;
    expect(prim.getIndices()!.getArray()).toBeInstanceOf(Uint32Array);
    expect(prim.getAttribute('NORMAL')).not.toBeNull();
    expect(prim.getMaterial()).not.toBeNull();
    expect(report.issues.numWarnings).toBe(0);
  });

  it('ktx2.glb has its textures in KTX2 (Basis Universal), KHR_texture_basisu required', () => {
    const { doc, bytes, report, fixture } = get('ktx2.glb');
    expect(fixture.triangles).toBeGreaterThan(1000);
    expect(report.info?.hasTextures).toBe(true);

    // The JSON chunk as written, not as gltf-transform reads it back.
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const json = JSON.parse(
      new TextDecoder().decode(bytes.subarray(20, 20 + view.getUint32(12, true))),
    ) as {
      extensionsUsed?: string[];
      extensionsRequired?: string[];
      images?: { mimeType?: string }[];
      textures?: { source?: number; extensions?: Record<string, { source?: number }> }[];
    };
    expect(json.extensionsUsed).toContain('KHR_texture_basisu');
    expect(json.extensionsRequired).toContain('KHR_texture_basisu');
    expect(json.images?.length).toBeGreaterThan(0);
    for (const image of json.images ?? []) expect(image.mimeType).toBe('image/ktx2');
    for (const texture of json.textures ?? [])
      expect(texture.extensions?.['KHR_texture_basisu']?.source).toBeTypeOf('number');

    const textures = doc.getRoot().listTextures();
    expect(textures.length).toBeGreaterThan(0);
    for (const texture of textures) {
      expect(texture.getMimeType()).toBe('image/ktx2');
      const image = texture.getImage()!;
      expect([...image.subarray(0, 12)]).toEqual(KTX2_IDENTIFIER);
      // pixelWidth and pixelHeight (uint32 LE at 20 and 24): power-of-two sides.
      const header = new DataView(image.buffer, image.byteOffset, image.byteLength);
      for (const side of [header.getUint32(20, true), header.getUint32(24, true)]) {
        expect(side).toBeGreaterThanOrEqual(4);
        expect(Math.log2(side) % 1).toBe(0);
      }
    }

    // The validator knows neither the extension nor the MIME type: it says so, and no more.
    const issues = (severity: number) =>
      report.issues.messages
        .filter((m) => m.severity === severity)
        .map((m) => `${m.code} ${m.pointer ?? ''}`)
        .sort();
    expect(issues(1)).toEqual([
      'IMAGE_UNRECOGNIZED_FORMAT /images/0',
      'VALUE_NOT_IN_LIST /images/0/mimeType',
    ]);
    expect(issues(2)).toEqual([
      'UNSUPPORTED_EXTENSION /extensionsUsed/0',
      'UNUSED_OBJECT /images/0',
    ]);
  });

  it('character.glb is a Mixamo character as Blender exports it, Draco-compressed, valid', () => {
    const { doc, report, fixture } = get('character.glb');
    expect(report.issues.numErrors, problems(report)).toBe(0);
    // Blender's exporter puts the skinned meshes under the armature, which the validator notes.
    const warnings = report.issues.messages.filter((m) => m.severity === 1).map((m) => m.code);
    expect(warnings).toEqual(['NODE_SKINNED_MESH_NON_ROOT', 'NODE_SKINNED_MESH_NON_ROOT']);
    expect(extensionsUsed('character.glb')).toEqual(['KHR_draco_mesh_compression']);
    const root = doc.getRoot();
    const [skin, ...others] = root.listSkins();
    expect(others).toEqual([]);
    expect(skin!.getSkeleton()).toBeNull();
    const skinned = root.listNodes().filter((n) => n.getSkin() === skin);
    expect(skinned.map((n) => n.getName())).toEqual(['Body', 'Head']);
    const armature = root.listNodes().find((n) => n.getName() === 'Armature')!;
    expect(armature.getScale()).toEqual([0.01, 0.01, 0.01]);
    const hips = skin!.listJoints()[0]!;
    expect(hips.getParentNode()).toBe(armature);
    expect(hips.getTranslation()).toEqual([0, 90, 0]); // centimetres
    expect(root.listAnimations().map((a) => a.getName())).toEqual(['Idle', 'Wave', 'Walk']);
    expect(fixture.triangles).toBe(72);
  });

  it('keeps fixtures newer than the script on a second run', async () => {
    const before = await stat(join(outDir, 'large.glb'));
    const again = await makeViewerFixtures(outDir);
    expect(again.every((f) => f.cached)).toBe(true);
    expect(again.map((f) => [f.name, f.bytes, f.triangles])).toEqual(
      fixtures.map((f) => [f.name, f.bytes, f.triangles]),
    );
    expect((await stat(join(outDir, 'large.glb'))).mtimeMs).toBe(before.mtimeMs);
  });
});
