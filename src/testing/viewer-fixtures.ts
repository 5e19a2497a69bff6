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

/** A joint of `riggedCharacter`: its bind position (metres, world), its parent, its file pose. */
interface CharacterJoint {
  name: string;
  parent: string | null;
  /** Where the joint is in the bind pose (a T-pose), in metres, in the world. */
  at: vec3;
  /** The joint's rotation as saved in the file (the pose the file is in), else none. */
  rotation?: vec4;
}

/** −90° about Z (an arm held out to +X turned down), and +90° (one held out to −X). */
const ARM_DOWN_LEFT: vec4 = [0, 0, -Math.SQRT1_2, Math.SQRT1_2];
const ARM_DOWN_RIGHT: vec4 = [0, 0, Math.SQRT1_2, Math.SQRT1_2];

const CHARACTER_JOINTS: CharacterJoint[] = [
  { name: 'mixamorig:Hips', parent: null, at: [0, 0.9, 0] },
  { name: 'mixamorig:Spine', parent: 'mixamorig:Hips', at: [0, 1, 0] },
  { name: 'mixamorig:Neck', parent: 'mixamorig:Spine', at: [0, 1.5, 0] },
  { name: 'mixamorig:Head', parent: 'mixamorig:Neck', at: [0, 1.55, 0] },
  {
    name: 'mixamorig:LeftArm',
    parent: 'mixamorig:Spine',
    at: [0.2, 1.45, 0],
    rotation: ARM_DOWN_LEFT,
  },
  {
    name: 'mixamorig:RightArm',
    parent: 'mixamorig:Spine',
    at: [-0.2, 1.45, 0],
    rotation: ARM_DOWN_RIGHT,
  },
  { name: 'mixamorig:LeftUpLeg', parent: 'mixamorig:Hips', at: [0.11, 0.9, 0] },
  { name: 'mixamorig:RightUpLeg', parent: 'mixamorig:Hips', at: [-0.11, 0.9, 0] },
];

/** `riggedCharacter`'s size as posed in the file (arms down): W × H × D in metres. */
export const CHARACTER_POSED_SIZE: vec3 = [0.5, 1.8, 0.2];
/** …and in its bind pose (a T-pose, arms out): what a reading of the bind pose would say. */
export const CHARACTER_BIND_SIZE: vec3 = [1.6, 1.8, 0.2];

/**
 * A rigged character as Blender's glTF exporter writes a Mixamo one: one skin with no
 * `skeleton`, shared by two skinned meshes ("Body": torso, legs and arms; "Head"), joints under
 * an armature node scaled 0.01 with their translations in centimetres, vertices in metres, and
 * three clips. Bound in a T-pose (the inverse bind matrices: arms out, 1.6 m wide) and saved
 * with its arms turned down (the arm joints' rotations), so that it stands 0.5 × 1.8 × 0.2 m as
 * posed in the file: only a measure through the joints, vertex by vertex, finds that size. The
 * shoulders' inner vertices are weighted half to the spine, half to the arm. `compress` Draco-
 * compresses the meshes, as the exporter's "Compression" option does (the viewer's fixture).
 */
export async function riggedCharacter({ compress = false } = {}): Promise<Document> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (
    type: 'SCALAR' | 'VEC4' | 'VEC3' | 'MAT4',
    array: Float32Array | Uint8Array | Uint16Array,
  ) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);

  // Joints: translations relative to the parent, in centimetres, under the armature's 0.01.
  const nodes = new Map<string, Node>();
  const armature = doc.createNode('Armature').setScale([0.01, 0.01, 0.01]);
  for (const joint of CHARACTER_JOINTS) {
    const parent = joint.parent ? CHARACTER_JOINTS.find((j) => j.name === joint.parent)! : null;
    const local = joint.at.map((v, k) => Math.round((v - (parent?.at[k] ?? 0)) * 1e4) / 100);
    const node = doc.createNode(joint.name).setTranslation(local as vec3);
    if (joint.rotation) node.setRotation(joint.rotation);
    (parent ? nodes.get(parent.name)! : armature).addChild(node);
    nodes.set(joint.name, node);
  }
  // inverse(S(0.01) · T(at in cm)) = T(−at in cm) · S(100), column-major, per joint.
  const ibm = new Float32Array(
    CHARACTER_JOINTS.flatMap(({ at }) => [
      100,
      0,
      0,
      0,
      0,
      100,
      0,
      0,
      0,
      0,
      100,
      0,
      -at[0] * 100,
      -at[1] * 100,
      -at[2] * 100,
      1,
    ]),
  );
  const skin = doc.createSkin('Armature').setInverseBindMatrices(accessor('MAT4', ibm));
  for (const joint of CHARACTER_JOINTS) skin.addJoint(nodes.get(joint.name)!);
  const jointIndex = (name: string) =>
    CHARACTER_JOINTS.findIndex((j) => j.name === `mixamorig:${name}`);

  /** A box's 8 corners and 12 triangles, each corner weighted by `weigh`. */
  type Weights = [number, number][];
  const boxes = (
    parts: { min: vec3; max: vec3; weigh: (corner: vec3) => Weights }[],
  ): {
    positions: Float32Array;
    joints: Uint8Array;
    weights: Float32Array;
    indices: Uint16Array;
  } => {
    const positions: number[] = [];
    const joints: number[] = [];
    const weights: number[] = [];
    const indices: number[] = [];
    // prettier-ignore
    const faces = [0, 2, 1, 0, 3, 2, 4, 5, 6, 4, 6, 7, 0, 1, 5, 0, 5, 4,
                   3, 7, 6, 3, 6, 2, 0, 4, 7, 0, 7, 3, 1, 2, 6, 1, 6, 5];
    for (const { min, max, weigh } of parts) {
      const base = positions.length / 3;
      for (const [x, y, z] of [
        [min[0], min[1], min[2]],
        [max[0], min[1], min[2]],
        [max[0], max[1], min[2]],
        [min[0], max[1], min[2]],
        [min[0], min[1], max[2]],
        [max[0], min[1], max[2]],
        [max[0], max[1], max[2]],
        [min[0], max[1], max[2]],
      ] as vec3[]) {
        positions.push(x, y, z);
        const w = weigh([x, y, z]);
        for (let k = 0; k < 4; k++) {
          joints.push(w[k]?.[0] ?? 0);
          weights.push(w[k]?.[1] ?? 0);
        }
      }
      indices.push(...faces.map((i) => base + i));
    }
    return {
      positions: new Float32Array(positions),
      joints: new Uint8Array(joints),
      weights: new Float32Array(weights),
      indices: new Uint16Array(indices),
    };
  };
  const only = (name: string) => (): Weights => [[jointIndex(name), 1]];
  // An arm's inner end (at the shoulder) is shared between the spine and the arm.
  const arm =
    (name: string, inner: number) =>
    ([x]: vec3): Weights =>
      Math.abs(x - inner) < 1e-6
        ? [
            [jointIndex('Spine'), 0.5],
            [jointIndex(name), 0.5],
          ]
        : [[jointIndex(name), 1]];
  const material = (name: string, color: vec4) =>
    doc.createMaterial(name).setBaseColorFactor(color).setRoughnessFactor(0.6);
  const skinnedMesh = (name: string, data: ReturnType<typeof boxes>, color: vec4) =>
    doc
      .createNode(name)
      .setSkin(skin)
      .setMesh(
        doc
          .createMesh(name)
          .addPrimitive(
            doc
              .createPrimitive()
              .setAttribute('POSITION', accessor('VEC3', data.positions))
              .setAttribute('JOINTS_0', accessor('VEC4', data.joints))
              .setAttribute('WEIGHTS_0', accessor('VEC4', data.weights))
              .setIndices(accessor('SCALAR', data.indices))
              .setMaterial(material(name, color)),
          ),
      );
  const body = boxes([
    { min: [-0.2, 0.9, -0.1], max: [0.2, 1.5, 0.1], weigh: only('Spine') },
    { min: [0.05, 0, -0.08], max: [0.18, 0.9, 0.08], weigh: only('LeftUpLeg') },
    { min: [-0.18, 0, -0.08], max: [-0.05, 0.9, 0.08], weigh: only('RightUpLeg') },
    { min: [0.2, 1.4, -0.05], max: [0.8, 1.5, 0.05], weigh: arm('LeftArm', 0.2) },
    { min: [-0.8, 1.4, -0.05], max: [-0.2, 1.5, 0.05], weigh: arm('RightArm', -0.2) },
  ]);
  const head = boxes([{ min: [-0.1, 1.5, -0.1], max: [0.1, 1.8, 0.1], weigh: only('Head') }]);
  armature.addChild(skinnedMesh('Body', body, [0.8, 0.05, 0.05, 1]));
  armature.addChild(skinnedMesh('Head', head, [0.85, 0.1, 0.1, 1]));
  doc.getRoot().setDefaultScene(doc.createScene('Scene').addChild(armature));

  // Three clips, as a Mixamo pack brings: "Idle" (the hips bob 0.8 cm, inside the box the file
  // poses it in), "Wave" (the left arm up and down) and "Walk" (the legs swing).
  const clip = (
    name: string,
    joint: string,
    path: 'translation' | 'rotation',
    keys: number[][],
  ) => {
    const times = keys.map((_, i) => i * 0.5);
    const sampler = doc
      .createAnimationSampler()
      .setInput(accessor('SCALAR', new Float32Array(times)))
      .setOutput(accessor(path === 'rotation' ? 'VEC4' : 'VEC3', new Float32Array(keys.flat())))
      .setInterpolation('LINEAR');
    const channel = doc
      .createAnimationChannel()
      .setTargetNode(nodes.get(`mixamorig:${joint}`)!)
      .setTargetPath(path)
      .setSampler(sampler);
    doc.createAnimation(name).addSampler(sampler).addChannel(channel);
  };
  clip('Idle', 'Hips', 'translation', [
    [0, 90, 0],
    [0, 90.8, 0],
    [0, 90, 0],
  ]);
  const s = Math.SQRT1_2;
  clip('Wave', 'LeftArm', 'rotation', [
    ARM_DOWN_LEFT,
    [0, 0, 0, 1],
    [0, 0, s, s],
    [0, 0, 0, 1],
    ARM_DOWN_LEFT,
  ]);
  const swing = (degrees: number): vec4 => [
    Math.sin((degrees * Math.PI) / 360),
    0,
    0,
    Math.cos((degrees * Math.PI) / 360),
  ];
  clip('Walk', 'LeftUpLeg', 'rotation', [swing(0), swing(25), swing(0), swing(-25), swing(0)]);

  if (compress) await doc.transform(draco({ method: 'edgebreaker' }));
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
