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
} from './make-viewer-fixtures.ts';

// Generating takes a few seconds; validating the 260k-triangle torus a few more. Generous
// for a slow 2-core machine.
const TIMEOUT = 60_000;

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

  it('writes the four fixtures into the given directory', () => {
    expect(fixtures.map((f) => f.name)).toEqual([
      'draco.glb',
      'meshopt.glb',
      'animated.glb',
      'large.glb',
    ]);
    for (const f of fixtures) {
      expect(f.path.startsWith(outDir)).toBe(true);
      expect(f.cached).toBe(false);
    }
  });

  it.each(['draco.glb', 'meshopt.glb', 'animated.glb', 'large.glb'])(
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
