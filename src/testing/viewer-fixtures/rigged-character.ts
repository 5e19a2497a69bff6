// A rigged character as Blender exports a Mixamo one (see `riggedCharacter`), built in steps:
// its joints and skin, its two skinned meshes of boxes, and its three clips.
import {
  Document,
  type Buffer,
  type Node,
  type Skin,
  type vec3,
  type vec4,
} from '@gltf-transform/core';
import { draco } from '@gltf-transform/functions';

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

type AccessorType = 'SCALAR' | 'VEC4' | 'VEC3' | 'MAT4';
type Accessors = (
  type: AccessorType,
  array: Float32Array | Uint8Array | Uint16Array,
) => ReturnType<Document['createAccessor']>;

const accessorsOf =
  (doc: Document, buffer: Buffer): Accessors =>
  (type, array) =>
    doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);

/** A joint's index in the skin, by its name without the `mixamorig:` prefix. */
const jointIndex = (name: string) =>
  CHARACTER_JOINTS.findIndex((j) => j.name === `mixamorig:${name}`);

/**
 * The joints under an armature node scaled 0.01, their translations relative to the parent in
 * centimetres, and the skin binding them in the T-pose.
 */
function characterSkeleton(doc: Document, accessor: Accessors) {
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
  // prettier-ignore
  const ibm = new Float32Array(
    CHARACTER_JOINTS.flatMap(({ at }) => [
      100, 0, 0, 0,
      0, 100, 0, 0,
      0, 0, 100, 0,
      -at[0] * 100, -at[1] * 100, -at[2] * 100, 1,
    ]),
  );
  const skin = doc.createSkin('Armature').setInverseBindMatrices(accessor('MAT4', ibm));
  for (const joint of CHARACTER_JOINTS) skin.addJoint(nodes.get(joint.name)!);
  return { armature, nodes, skin };
}

/** Joint weights of one vertex: up to four (joint index, weight) pairs. */
type Weights = [number, number][];

interface BoxMesh {
  positions: Float32Array;
  joints: Uint8Array;
  weights: Float32Array;
  indices: Uint16Array;
}

/** Boxes' 8 corners and 12 triangles each, each corner weighted by its box's `weigh`. */
function boxes(parts: { min: vec3; max: vec3; weigh: (corner: vec3) => Weights }[]): BoxMesh {
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
}

const only = (name: string) => (): Weights => [[jointIndex(name), 1]];
/** An arm's inner end (at the shoulder) is shared between the spine and the arm. */
const arm =
  (name: string, inner: number) =>
  ([x]: vec3): Weights =>
    Math.abs(x - inner) < 1e-6
      ? [
          [jointIndex('Spine'), 0.5],
          [jointIndex(name), 0.5],
        ]
      : [[jointIndex(name), 1]];

/** A node with a mesh of `data`, skinned by `skin`, in one colour. */
function skinnedMesh(
  doc: Document,
  accessor: Accessors,
  skin: Skin,
  name: string,
  data: BoxMesh,
  color: vec4,
) {
  const material = doc.createMaterial(name).setBaseColorFactor(color).setRoughnessFactor(0.6);
  const primitive = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('VEC3', data.positions))
    .setAttribute('JOINTS_0', accessor('VEC4', data.joints))
    .setAttribute('WEIGHTS_0', accessor('VEC4', data.weights))
    .setIndices(accessor('SCALAR', data.indices))
    .setMaterial(material);
  return doc.createNode(name).setSkin(skin).setMesh(doc.createMesh(name).addPrimitive(primitive));
}

/** "Body" (torso, legs and arms) and "Head", both skinned by the one skin. */
function characterMeshes(doc: Document, accessor: Accessors, skin: Skin): Node[] {
  const body = boxes([
    { min: [-0.2, 0.9, -0.1], max: [0.2, 1.5, 0.1], weigh: only('Spine') },
    { min: [0.05, 0, -0.08], max: [0.18, 0.9, 0.08], weigh: only('LeftUpLeg') },
    { min: [-0.18, 0, -0.08], max: [-0.05, 0.9, 0.08], weigh: only('RightUpLeg') },
    { min: [0.2, 1.4, -0.05], max: [0.8, 1.5, 0.05], weigh: arm('LeftArm', 0.2) },
    { min: [-0.8, 1.4, -0.05], max: [-0.2, 1.5, 0.05], weigh: arm('RightArm', -0.2) },
  ]);
  const head = boxes([{ min: [-0.1, 1.5, -0.1], max: [0.1, 1.8, 0.1], weigh: only('Head') }]);
  return [
    skinnedMesh(doc, accessor, skin, 'Body', body, [0.8, 0.05, 0.05, 1]),
    skinnedMesh(doc, accessor, skin, 'Head', head, [0.85, 0.1, 0.1, 1]),
  ];
}

/**
 * Three clips, as a Mixamo pack brings: "Idle" (the hips bob 0.8 cm, inside the box the file
 * poses it in), "Wave" (the left arm up and down) and "Walk" (the legs swing).
 */
function characterClips(doc: Document, accessor: Accessors, nodes: Map<string, Node>) {
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
}

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
  const accessor = accessorsOf(doc, doc.createBuffer());
  const { armature, nodes, skin } = characterSkeleton(doc, accessor);
  for (const mesh of characterMeshes(doc, accessor, skin)) armature.addChild(mesh);
  doc.getRoot().setDefaultScene(doc.createScene('Scene').addChild(armature));
  characterClips(doc, accessor, nodes);
  if (compress) await doc.transform(draco({ method: 'edgebreaker' }));
  return doc;
}
