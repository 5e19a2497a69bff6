// Makes the viewer's test fixtures from Kiln's own generated models and from primitives
// built here, with @gltf-transform:
//
//   draco.glb     the chair photo's model, KHR_draco_mesh_compression
//   meshopt.glb   the teapot photo's model, EXT_meshopt_compression
//   animated.glb  a red cube with two clips: "spin" (rotation) and "bounce" (translation)
//   large.glb     a finely tessellated torus, over 200,000 triangles, uint32 indices
//   rigged.glb    a red 0.5 × 1.8 × 0.3 m box skinned to one joint under an armature scaled to
//                 centimetres, as rigged characters are often exported
//   jumping.glb   the same figure with a clip, "jump", that lifts it 1.5 m out of its rest box
//   character.glb a character as Blender exports a Mixamo one (riggedCharacter): one skin with no
//                 `skeleton` shared by two skinned meshes, an armature scaled 0.01 with joints in
//                 centimetres, three clips, bound in a T-pose and saved with its arms down;
//                 Draco-compressed, as the exporter's "Compression" option writes it
//   ktx2.glb      the hamburger photo's model, its textures re-encoded as KTX2 (Basis Universal
//                 ETC1S with BasisLZ supercompression, full mip chain; KHR_texture_basisu,
//                 required), each resized to power-of-two sides first, as the optimiser does
//
// KTX2 encoding is the optimiser's own (encodeKtx2 in server/optimise/textures.ts: the
// ktx2-encoder package, Basis Universal compiled to WASM, offline; sharp decodes each texture to
// sides rounded down to a power of two).
//
// Tests and benches only. The command line is scripts/make-viewer-fixtures.ts [outDir]
// (default fixtures/viewer/).
// A fixture that already exists and is newer than these scripts (this one and viewer-fixtures/,
// one file per kind of fixture) and the generator is kept as it is.

import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Document, NodeIO } from '@gltf-transform/core';
import { VIEWER_FIXTURES_DIR } from './fixtures.ts';
import { animatedCube } from './viewer-fixtures/animated-cube.ts';
import { countTriangles, fixtureIO } from './viewer-fixtures/io.ts';
import { largeTorus } from './viewer-fixtures/large-torus.ts';
import { dracoChair, ktx2Hamburger, meshoptTeapot } from './viewer-fixtures/photo-models.ts';
import { riggedCharacter } from './viewer-fixtures/rigged-character.ts';
import { riggedFigure } from './viewer-fixtures/rigged-figure.ts';

export { countTriangles, fixtureIO } from './viewer-fixtures/io.ts';
export {
  CHARACTER_BIND_SIZE,
  CHARACTER_POSED_SIZE,
  riggedCharacter,
} from './viewer-fixtures/rigged-character.ts';
export { riggedFigure } from './viewer-fixtures/rigged-figure.ts';

export interface ViewerFixture {
  name: string;
  path: string;
  bytes: number;
  triangles: number;
  /** True when the file was already there and newer than this script, so it was kept. */
  cached: boolean;
}

export const DEFAULT_OUT_DIR = VIEWER_FIXTURES_DIR;
export const LARGE_MIN_TRIANGLES = 200_000;

const SCRIPT_PATH = fileURLToPath(import.meta.url);
const GENERATOR = 'Kiln viewer fixtures';

const FIXTURES: { name: string; build: (io: NodeIO) => Promise<Document> }[] = [
  { name: 'draco.glb', build: dracoChair },
  { name: 'meshopt.glb', build: meshoptTeapot },
  { name: 'animated.glb', build: animatedCube },
  { name: 'large.glb', build: () => Promise.resolve(largeTorus()) },
  { name: 'ktx2.glb', build: ktx2Hamburger },
  { name: 'rigged.glb', build: () => Promise.resolve(riggedFigure()) },
  { name: 'jumping.glb', build: () => Promise.resolve(riggedFigure(true)) },
  { name: 'character.glb', build: () => riggedCharacter({ compress: true }) },
];

async function mtimeMs(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The optimiser's textures, whose decoder sizes the KTX2 fixture's textures. */
const TEXTURES_PATH = fileURLToPath(new URL('../server/optimise/textures.ts', import.meta.url));

/** Every file of a folder, recursively. */
async function filesOf(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true })).map((f) => join(dir, f));
}

/**
 * Newest modification time of these scripts (this one and viewer-fixtures/), of the generator's
 * sources (they make the models) and of the optimiser's textures (they size the KTX2 fixture's).
 */
async function sourcesTime(): Promise<number> {
  const generatorDir = fileURLToPath(new URL('../generator/', import.meta.url));
  const partsDir = fileURLToPath(new URL('./viewer-fixtures/', import.meta.url));
  const files = [
    SCRIPT_PATH,
    TEXTURES_PATH,
    ...(await filesOf(partsDir)),
    ...(await filesOf(generatorDir)),
  ];
  const times = await Promise.all(files.map(mtimeMs));
  return Math.max(...times.map((t) => t ?? Infinity));
}

/**
 * Writes the viewer fixtures into `outDir` (created if missing) and describes them. A
 * fixture already there and newer than this script and the generator is kept and only read back to count
 * its triangles; `force` rebuilds it all the same.
 */
export async function makeViewerFixtures(
  outDir: string = DEFAULT_OUT_DIR,
  options: { force?: boolean } = {},
): Promise<ViewerFixture[]> {
  await mkdir(outDir, { recursive: true });
  const io = await fixtureIO();
  const scriptTime = await sourcesTime();
  const results: ViewerFixture[] = [];
  for (const { name, build } of FIXTURES) {
    const path = resolve(outDir, name);
    const existing = await mtimeMs(path);
    if (!options.force && existing !== undefined && existing > scriptTime) {
      const bytes = new Uint8Array(await readFile(path));
      const doc = await io.readBinary(bytes);
      results.push({
        name,
        path,
        bytes: bytes.byteLength,
        triangles: countTriangles(doc),
        cached: true,
      });
      continue;
    }
    const doc = await build(io);
    doc.getRoot().getAsset().generator = GENERATOR;
    const triangles = countTriangles(doc);
    const bytes = await io.writeBinary(doc);
    // Write then rename, so an interrupted run never leaves a half file that looks cached.
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, bytes);
    await rename(temporary, path);
    results.push({ name, path, bytes: bytes.byteLength, triangles, cached: false });
  }
  return results;
}

export function formatTable(fixtures: readonly ViewerFixture[]): string {
  const rows = [
    ['fixture', 'bytes', 'triangles', 'status'],
    ...fixtures.map((f) => [
      f.name,
      f.bytes.toLocaleString('en-US'),
      f.triangles.toLocaleString('en-US'),
      f.cached ? 'cached' : 'written',
    ]),
  ];
  const widths = rows[0]!.map((_, k) => Math.max(...rows.map((row) => row[k]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, k) => (k === 0 ? cell.padEnd(widths[k]!) : cell.padStart(widths[k]!)))
        .join('  '),
    )
    .join('\n');
}
