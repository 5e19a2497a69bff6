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
// A fixture that already exists and is newer than this script and the generator is kept as it is.

import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, Logger, NodeIO, type Node, type vec3, type vec4 } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { draco, meshopt } from '@gltf-transform/functions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import { imageToGlb, promptToGlb } from '../generator/index.ts';
import { encodeKtx2 } from '../server/optimise/textures.ts';
import { PHOTOS_DIR, VIEWER_FIXTURES_DIR } from './fixtures.ts';

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

// draco3dgltf is CommonJS and untyped: load it through require, with the little we use typed.
interface Draco3d {
  createEncoderModule(options?: object): Promise<unknown>;
  createDecoderModule(options?: object): Promise<unknown>;
}
const require = createRequire(import.meta.url);

let ioPromise: Promise<NodeIO> | undefined;

/**
 * A NodeIO that knows every extension gltf-transform implements, with the Draco and
 * Meshopt encoders and decoders registered, so it can both write and read the fixtures.
 */
export function fixtureIO(): Promise<NodeIO> {
  ioPromise ??= (async () => {
    const draco3d = require('draco3dgltf') as Draco3d;
    await Promise.all([MeshoptEncoder.ready, MeshoptDecoder.ready]);
    return new NodeIO()
      .setLogger(new Logger(Logger.Verbosity.WARN))
      .registerExtensions(ALL_EXTENSIONS)
      .registerDependencies({
        'draco3d.encoder': await draco3d.createEncoderModule(),
        'draco3d.decoder': await draco3d.createDecoderModule(),
        'meshopt.encoder': MeshoptEncoder,
        'meshopt.decoder': MeshoptDecoder,
      });
  })();
  return ioPromise;
}

/** Triangles drawn by the document's triangle-list primitives (mode TRIANGLES). */
export function countTriangles(doc: Document): number {
  let triangles = 0;
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      if (prim.getMode() !== 4) continue;
      const count = prim.getIndices()?.getCount() ?? prim.getAttribute('POSITION')?.getCount() ?? 0;
      triangles += Math.floor(count / 3);
    }
  }
  return triangles;
}

async function photo(name: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(join(PHOTOS_DIR, name)));
}

async function dracoChair(io: NodeIO): Promise<Document> {
  const doc = await io.readBinary(await imageToGlb(await photo('chair.png')));
  await doc.transform(draco({ method: 'edgebreaker' }));
  return doc;
}

async function meshoptTeapot(io: NodeIO): Promise<Document> {
  const doc = await io.readBinary(await imageToGlb(await photo('teapot.png')));
  await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
  return doc;
}

// The Basis encoder's WASM prints a summary of every texture (slices, mip levels) through
// console.log even with debug off, binding console.log once, when the module first loads.
// So console.log is swapped for a collector while the encoder runs (and loads), and what it
// would have printed is kept for error messages instead.
const realConsoleLog = console.log;
let basisSink: string[] | undefined;
function basisLog(...args: unknown[]): void {
  if (basisSink) basisSink.push(args.map(String).join(' '));
  else realConsoleLog(...args);
}

async function quietBasis(run: () => Promise<unknown>): Promise<string[]> {
  const sink: string[] = [];
  basisSink = sink;
  console.log = basisLog;
  try {
    await run();
  } finally {
    console.log = realConsoleLog;
    basisSink = undefined;
  }
  return sink;
}

async function ktx2Hamburger(io: NodeIO): Promise<Document> {
  const doc = await io.readBinary(await imageToGlb(await photo('hamburger.png')));
  const textures = doc.getRoot().listTextures();
  if (textures.length === 0) throw new Error('imageToGlb gave a model with no texture');
  // As the optimiser encodes them (Kiln's models carry base-colour textures only: ETC1S, sRGB).
  const basisOutput = await quietBasis(() => encodeKtx2(doc));
  // The transform logs and skips a texture it fails to encode; a fixture must not.
  const left = textures.filter((t) => t.getMimeType() !== 'image/ktx2');
  if (left.length > 0)
    throw new Error(
      `KTX2 encoding failed for ${left.map((t) => t.getName()).join(', ')}:\n${basisOutput.join('\n')}`,
    );
  return doc;
}

/** Quaternion for a turn of `degrees` about +Y. */
function yRotation(degrees: number): vec4 {
  const half = (degrees * Math.PI) / 360;
  return [0, Math.sin(half), 0, Math.cos(half)];
}

async function animatedCube(io: NodeIO): Promise<Document> {
  const doc = await io.readBinary(await promptToGlb('a red cube'));
  const root = doc.getRoot();
  const buffer = root.listBuffers()[0] ?? doc.createBuffer();
  const node: Node | undefined = root.listNodes().find((n) => n.getMesh() !== null);
  if (!node) throw new Error('promptToGlb gave a scene with no mesh node');
  node.setName('cube');

  const scalars = (name: string, values: number[]) =>
    doc.createAccessor(name).setType('SCALAR').setArray(new Float32Array(values)).setBuffer(buffer);

  // Channels and samplers stay unnamed: glTF has no `name` on them (the validator warns).
  // "spin": one full turn about Y in 2 s, five keyframes a quarter turn apart (LINEAR
  // slerp between keys 90° apart is unambiguous).
  const spinTimes = [0, 0.5, 1, 1.5, 2];
  const spinValues = spinTimes.flatMap((t) => yRotation(t * 180));
  const spinSampler = doc
    .createAnimationSampler()
    .setInput(scalars('spin-times', spinTimes))
    .setOutput(
      doc
        .createAccessor('spin-rotations')
        .setType('VEC4')
        .setArray(new Float32Array(spinValues))
        .setBuffer(buffer),
    )
    .setInterpolation('LINEAR');
  const spinChannel = doc
    .createAnimationChannel()
    .setTargetNode(node)
    .setTargetPath('rotation')
    .setSampler(spinSampler);
  doc.createAnimation('spin').addSampler(spinSampler).addChannel(spinChannel);

  // "bounce": up half a unit and back down in 1 s, from wherever the node stands.
  const [x, y, z] = node.getTranslation();
  const bounceTimes = [0, 0.25, 0.5, 0.75, 1];
  const heights = [0, 0.375, 0.5, 0.375, 0];
  const bounceValues = heights.flatMap((h): vec3 => [x, y + h, z]);
  const bounceSampler = doc
    .createAnimationSampler()
    .setInput(scalars('bounce-times', bounceTimes))
    .setOutput(
      doc
        .createAccessor('bounce-translations')
        .setType('VEC3')
        .setArray(new Float32Array(bounceValues))
        .setBuffer(buffer),
    )
    .setInterpolation('LINEAR');
  const bounceChannel = doc
    .createAnimationChannel()
    .setTargetNode(node)
    .setTargetPath('translation')
    .setSampler(bounceSampler);
  doc.createAnimation('bounce').addSampler(bounceSampler).addChannel(bounceChannel);
  return doc;
}

/**
 * A rigged figure as Mixamo-style exports are: an armature node scaled 0.01, a joint 90 units
 * (0.9 m) up inside it, the skinned mesh's vertices in metres, and an inverse bind matrix that
 * undoes the armature. Its true size is 0.5 × 1.8 × 0.3 m, standing on y = 0.
 */
export function riggedFigure(jump = false): Document {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const [hx, h, hz] = [0.25, 1.8, 0.15];
  // prettier-ignore
  const positions = new Float32Array([
    -hx, 0, -hz,  hx, 0, -hz,  hx, h, -hz,  -hx, h, -hz,
    -hx, 0, hz,   hx, 0, hz,   hx, h, hz,   -hx, h, hz,
  ]);
  // prettier-ignore
  const indices = new Uint16Array([
    0, 2, 1, 0, 3, 2,  4, 5, 6, 4, 6, 7,  0, 1, 5, 0, 5, 4,
    3, 7, 6, 3, 6, 2,  0, 4, 7, 0, 7, 3,  1, 2, 6, 1, 6, 5,
  ]);
  const accessor = (
    type: 'SCALAR' | 'VEC4' | 'VEC3' | 'MAT4',
    array: Float32Array | Uint8Array | Uint16Array,
  ) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const material = doc
    .createMaterial('red')
    .setBaseColorFactor([0.8, 0.05, 0.05, 1])
    .setRoughnessFactor(0.6);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', positions))
    .setAttribute('JOINTS_0', accessor('VEC4', new Uint8Array(8 * 4)))
    .setAttribute(
      'WEIGHTS_0',
      accessor(
        'VEC4',
        new Float32Array(8 * 4).map((_, i) => (i % 4 === 0 ? 1 : 0)),
      ),
    )
    .setIndices(accessor('SCALAR', indices))
    .setMaterial(material);
  const joint = doc.createNode('hips').setTranslation([0, 90, 0]);
  const armature = doc.createNode('armature').setScale([0.01, 0.01, 0.01]).addChild(joint);
  // inverse(S(0.01) · T(0, 90, 0)) = T(0, -90, 0) · S(100), column-major.
  const ibm = new Float32Array([100, 0, 0, 0, 0, 100, 0, 0, 0, 0, 100, 0, 0, -90, 0, 1]);
  const skin = doc
    .createSkin('rig')
    .addJoint(joint)
    .setSkeleton(joint)
    .setInverseBindMatrices(accessor('MAT4', ibm));
  const body = doc
    .createNode('body')
    .setMesh(doc.createMesh('body').addPrimitive(prim))
    .setSkin(skin);
  armature.addChild(body);
  doc.getRoot().setDefaultScene(doc.createScene('scene').addChild(armature));
  if (jump) {
    // Up 150 units (1.5 m) and down again in 2 s, through the joint.
    const times = [0, 0.5, 1, 1.5, 2];
    const heights = [0, 110, 150, 110, 0].flatMap((dy) => [0, 90 + dy, 0]);
    const sampler = doc
      .createAnimationSampler()
      .setInput(accessor('SCALAR', new Float32Array(times)))
      .setOutput(accessor('VEC3', new Float32Array(heights)))
      .setInterpolation('LINEAR');
    const channel = doc
      .createAnimationChannel()
      .setTargetNode(joint)
      .setTargetPath('translation')
      .setSampler(sampler);
    doc.createAnimation('jump').addSampler(sampler).addChannel(channel);
  }
  return doc;
}

/**
 * A torus (major radius 0.35, minor 0.15) of `radial × tubular` quads, two triangles each,
 * with positions, normals and uint32 indices.
 */
function largeTorus(radial = 512, tubular = 256): Document {
  const R = 0.35;
  const r = 0.15;
  const cols = radial + 1;
  const rows = tubular + 1;
  const vertexCount = cols * rows;
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  for (let j = 0; j < rows; j++) {
    const v = j / tubular;
    const phi = v * 2 * Math.PI;
    const cosPhi = Math.cos(phi);
    const sinPhi = Math.sin(phi);
    for (let i = 0; i < cols; i++) {
      const u = i / radial;
      const theta = u * 2 * Math.PI;
      const cosTheta = Math.cos(theta);
      const sinTheta = Math.sin(theta);
      const k = j * cols + i;
      // The torus lies in the XZ plane around +Y.
      normals[3 * k] = cosPhi * cosTheta;
      normals[3 * k + 1] = sinPhi;
      normals[3 * k + 2] = cosPhi * sinTheta;
      positions[3 * k] = (R + r * cosPhi) * cosTheta;
      positions[3 * k + 1] = r * sinPhi;
      positions[3 * k + 2] = (R + r * cosPhi) * sinTheta;
    }
  }
  const indices = new Uint32Array(radial * tubular * 6);
  let n = 0;
  for (let j = 0; j < tubular; j++) {
    for (let i = 0; i < radial; i++) {
      const a = j * cols + i;
      const b = a + 1;
      const c = a + cols;
      const d = c + 1;
      // Counter-clockwise seen from outside.
      indices[n++] = a;
      indices[n++] = c;
      indices[n++] = b;
      indices[n++] = b;
      indices[n++] = c;
      indices[n++] = d;
    }
  }

  const doc = new Document();
  doc.getRoot().getAsset().generator = GENERATOR;
  const buffer = doc.createBuffer();
  const accessor = (name: string, type: 'VEC3' | 'SCALAR', array: Float32Array | Uint32Array) =>
    doc.createAccessor(name).setType(type).setArray(array).setBuffer(buffer);
  const material = doc
    .createMaterial('large-torus-material')
    .setBaseColorFactor([0.8, 0.45, 0.2, 1])
    .setMetallicFactor(0.1)
    .setRoughnessFactor(0.6);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('positions', 'VEC3', positions))
    .setAttribute('NORMAL', accessor('normals', 'VEC3', normals))
    .setIndices(accessor('indices', 'SCALAR', indices))
    .setMaterial(material);
  const mesh = doc.createMesh('large-torus').addPrimitive(prim);
  const node = doc.createNode('large-torus').setMesh(mesh);
  doc.getRoot().setDefaultScene(doc.createScene('scene').addChild(node));
  return doc;
}

const FIXTURES: { name: string; build: (io: NodeIO) => Promise<Document> }[] = [
  { name: 'draco.glb', build: dracoChair },
  { name: 'meshopt.glb', build: meshoptTeapot },
  { name: 'animated.glb', build: animatedCube },
  { name: 'large.glb', build: () => Promise.resolve(largeTorus()) },
  { name: 'ktx2.glb', build: ktx2Hamburger },
  { name: 'rigged.glb', build: () => Promise.resolve(riggedFigure()) },
  { name: 'jumping.glb', build: () => Promise.resolve(riggedFigure(true)) },
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

/**
 * Newest modification time of this script, of the generator's sources (they make the models)
 * and of the optimiser's textures (they size the KTX2 fixture's).
 */
async function sourcesTime(): Promise<number> {
  const generatorDir = fileURLToPath(new URL('../generator/', import.meta.url));
  const files = await readdir(generatorDir, { recursive: true });
  const times = await Promise.all(
    [SCRIPT_PATH, TEXTURES_PATH, ...files.map((f) => join(generatorDir, f))].map(mtimeMs),
  );
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
