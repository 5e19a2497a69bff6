// Scene walking: node matrices, mesh instances (GPU instancing too), triangles, and the
// default scene's world bounds. Pure.
import { Matrix4, Quaternion, Vector3, type Box3 } from 'three';
import type { Reader } from './accessors.ts';
import { type Json, isIndex, isObject, list, numbers, objectAt } from './glb-container.ts';
import { type Vec3 } from './accessors.ts';

function localMatrix(node: Json): Matrix4 {
  const matrix = numbers(node.matrix, 16);
  if (matrix) return new Matrix4().fromArray(matrix); // column-major, as three stores it
  const t = numbers(node.translation, 3) ?? [0, 0, 0];
  const r = numbers(node.rotation, 4) ?? [0, 0, 0, 1];
  const s = numbers(node.scale, 3) ?? [1, 1, 1];
  return new Matrix4().compose(
    new Vector3(t[0], t[1], t[2]),
    new Quaternion(r[0], r[1], r[2], r[3]).normalize(),
    new Vector3(s[0], s[1], s[2]),
  );
}

/** The root nodes of the default scene: `scene`, else scene 0, else every parentless node. */
function sceneRoots(json: Json): unknown[] {
  const scenes = list(json.scenes);
  if (scenes.length > 0) {
    const scene = objectAt(scenes, json.scene) ?? objectAt(scenes, 0);
    return list(scene?.nodes);
  }
  const nodes = list(json.nodes);
  const children = new Set<unknown>();
  for (const node of nodes)
    if (isObject(node)) for (const c of list(node.children)) children.add(c);
  return nodes.map((_, i) => i).filter((i) => !children.has(i));
}

interface MeshInstance {
  mesh: Json;
  /** World matrix of each drawn copy. */
  matrices: Matrix4[];
  /** How many copies are drawn (EXT_mesh_gpu_instancing count, else 1). */
  copies: number;
  /**
   * For a skinned mesh: each joint's `world × inverseBind`, by joint index (null where the joint
   * is not in the scene). Its vertices are placed one by one (`skinnedBox`), in the file's pose.
   */
  joints?: (Matrix4 | null)[];
}

/**
 * The EXT_mesh_gpu_instancing transforms of a node, relative to it; `copies` always, and
 * `matrices` only when all its TRS accessors could be read (else the node's own is used).
 */
function gpuInstances(reader: Reader, node: Json): { copies: number; matrices: Matrix4[] | null } {
  const extension = isObject(node.extensions) ? node.extensions.EXT_mesh_gpu_instancing : undefined;
  if (!isObject(extension) || !isObject(extension.attributes)) return { copies: 1, matrices: null };
  const attributes = extension.attributes;
  const accessors = Object.values(attributes).filter((a) => reader.accessor(a) !== undefined);
  if (accessors.length === 0) return { copies: 1, matrices: null };
  const copies = reader.count(accessors[0]);
  const read = (name: string, width: number): Float64Array | null | undefined => {
    if (attributes[name] === undefined) return undefined;
    const values = reader.values(attributes[name]);
    return values && values.length >= copies * width ? values : null;
  };
  const t = read('TRANSLATION', 3);
  const r = read('ROTATION', 4);
  const s = read('SCALE', 3);
  if (t === null || r === null || s === null) return { copies, matrices: null };
  const matrices: Matrix4[] = [];
  for (let i = 0; i < copies; i++) {
    matrices.push(
      new Matrix4().compose(
        t ? new Vector3(t[3 * i], t[3 * i + 1], t[3 * i + 2]) : new Vector3(),
        r
          ? new Quaternion(r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]).normalize()
          : new Quaternion(),
        s ? new Vector3(s[3 * i], s[3 * i + 1], s[3 * i + 2]) : new Vector3(1, 1, 1),
      ),
    );
  }
  return { copies, matrices };
}

/** Every mesh the default scene draws, with its world transforms. Each node is visited once. */
export function meshInstances(reader: Reader): MeshInstance[] {
  const { json } = reader;
  const nodes = list(json.nodes);
  const visited = new Set<number>();
  const out: MeshInstance[] = [];
  // Every node's world matrix, for the joints of skins.
  const worlds = new Map<number, Matrix4>();
  const skinned: { mesh: Json; skin: Json; fallback: Matrix4 }[] = [];
  const stack: { index: unknown; parent: Matrix4 }[] = sceneRoots(json)
    .map((index) => ({ index, parent: new Matrix4() }))
    .reverse();
  while (stack.length > 0) {
    const { index, parent } = stack.pop()!;
    // A node belongs to one tree at most; revisits (cycles, shared children) are invalid.
    if (!isIndex(index) || visited.has(index)) continue;
    visited.add(index);
    const node = objectAt(nodes, index);
    if (!node) continue;
    const world = parent.clone().multiply(localMatrix(node));
    worlds.set(index, world);
    const mesh = objectAt(json.meshes, node.mesh);
    const skin = objectAt(json.skins, node.skin);
    if (mesh && skin) skinned.push({ mesh, skin, fallback: world });
    else if (mesh) {
      const { copies, matrices } = gpuInstances(reader, node);
      out.push({
        mesh,
        copies,
        matrices: matrices ? matrices.map((m) => world.clone().multiply(m)) : [world],
      });
    }
    const children = list(node.children);
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ index: children[i], parent: world });
  }
  for (const { mesh, skin, fallback } of skinned) {
    const joints = jointMatrices(reader, skin, worlds);
    // With no joint in the scene, the mesh is placed by its node.
    out.push({ mesh, copies: 1, matrices: [fallback], ...(joints ? { joints } : {}) });
  }
  return out;
}

/** Each joint's `world × inverseBind`, by joint index; null when no joint is in the scene. */
function jointMatrices(
  reader: Reader,
  skin: Json,
  worlds: Map<number, Matrix4>,
): (Matrix4 | null)[] | null {
  const joints = list(skin.joints);
  const ibm =
    skin.inverseBindMatrices === undefined ? null : reader.values(skin.inverseBindMatrices);
  const out = joints.map((joint, i) => {
    const world = isIndex(joint) ? worlds.get(joint) : undefined;
    if (!world) return null;
    const inverse =
      ibm && ibm.length >= (i + 1) * 16
        ? new Matrix4().fromArray(Array.from(ibm.subarray(i * 16, i * 16 + 16)))
        : new Matrix4();
    return world.clone().multiply(inverse);
  });
  return out.some((m) => m !== null) ? out : null;
}

const SKINNED = new Vector3();
const PART = new Vector3();

/**
 * Grows `target` by a skinned primitive's vertices where its joints put them in the file's
 * pose: each vertex moved by its joints' matrices, weighted (glTF 2.0 §3.7.3.3; what three's
 * `SkinnedMesh.computeBoundingBox` does). False when the primitive has no usable skin data or
 * no vertex a joint in the scene moves: nothing was measured.
 */
export function expandBySkinnedPrimitive(
  target: Box3,
  reader: Reader,
  attributes: Json,
  joints: readonly (Matrix4 | null)[],
): boolean {
  const positions = reader.values(attributes.POSITION);
  const indices = reader.values(attributes.JOINTS_0);
  const weights = reader.values(attributes.WEIGHTS_0);
  if (!positions || !indices || !weights) return false;
  const count = Math.floor(positions.length / 3);
  if (indices.length < count * 4 || weights.length < count * 4) return false;
  let placed = false;
  for (let v = 0; v < count; v++) {
    SKINNED.set(0, 0, 0);
    let total = 0;
    for (let k = 0; k < 4; k++) {
      const w = weights[v * 4 + k]!;
      if (w === 0) continue;
      const m = joints[indices[v * 4 + k]!];
      if (!m) continue;
      PART.set(positions[v * 3]!, positions[v * 3 + 1]!, positions[v * 3 + 2]!)
        .applyMatrix4(m)
        .multiplyScalar(w);
      SKINNED.add(PART);
      total += w;
    }
    if (total > 0) {
      target.expandByPoint(SKINNED.divideScalar(total));
      placed = true;
    }
  }
  return placed;
}

export function trianglesOf(mode: number, count: number): number {
  if (mode === 4) return Math.floor(count / 3);
  if (mode === 5 || mode === 6) return Math.max(0, count - 2);
  return 0; // points and lines
}

const CORNER = new Vector3();

export function expandByBox(target: Box3, min: Vec3, max: Vec3, matrix: Matrix4): void {
  for (let corner = 0; corner < 8; corner++) {
    CORNER.set(
      corner & 1 ? max[0] : min[0],
      corner & 2 ? max[1] : min[1],
      corner & 4 ? max[2] : min[2],
    ).applyMatrix4(matrix);
    target.expandByPoint(CORNER);
  }
}
