import type { Quaternion } from 'three';
import {
  AnimationMixer,
  Box3,
  Sphere,
  Vector3,
  type AnimationClip,
  type Object3D,
  type SkinnedMesh,
} from 'three';

export interface ClipBoundsOptions {
  /**
   * Poses sampled per clip, evenly over its duration (both ends included), besides its keyframes
   * when it has few (a linear clip's extremes are at its keyframes).
   */
  samplesPerClip?: number;
  /** Vertices read per mesh and pose (every n-th): the rest pose is measured exactly. */
  maxVertices?: number;
  /**
   * Clips sampled, from the first. One by default: the viewer plays the first clip as it opens,
   * and sampling costs time before the first frame (ybot's four clips: about 0.3 s).
   */
  maxClips?: number;
}

/**
 * Sets each skinned mesh's box and sphere (which three keeps once made, and which Bounds' fit,
 * "Reset view" and frustum culling read) to hold the mesh in its rest pose and in every pose its
 * first clip (the one the viewer plays) takes it to: a character that jumps or walks out of its rest box stays in frame and is
 * never culled. The rest pose is measured exactly, the clips' poses on sampled vertices. Every
 * node is left as it was found. Returns both boxes (null when there is no skinned mesh).
 */
export function fitSkinnedBounds(
  root: Object3D,
  clips: readonly AnimationClip[],
  { samplesPerClip = 12, maxVertices = 1000, maxClips = 1 }: ClipBoundsOptions = {},
): FittedBounds | null {
  const meshes: SkinnedMesh[] = [];
  root.traverse((o) => {
    if ((o as SkinnedMesh).isSkinnedMesh) meshes.push(o as SkinnedMesh);
  });
  if (meshes.length === 0) return null;
  root.updateMatrixWorld(true);
  for (const mesh of meshes) mesh.computeBoundingBox();
  const rest = new Box3().setFromObject(root);

  const moving = clips.slice(0, maxClips).filter((c) => c.duration > 0 && c.tracks.length > 0);
  if (moving.length > 0) {
    const saved = new Map<Object3D, [Vector3, Quaternion, Vector3]>();
    root.traverse((o) => saved.set(o, [o.position.clone(), o.quaternion.clone(), o.scale.clone()]));
    const mixer = new AnimationMixer(root);
    const point = new Vector3();
    for (const clip of moving) {
      const action = mixer.clipAction(clip).play();
      for (const time of sampleTimes(clip, samplesPerClip)) {
        mixer.setTime(time);
        root.updateMatrixWorld(true);
        for (const mesh of meshes) {
          const count = mesh.geometry.getAttribute('position')?.count ?? 0;
          const stride = Math.max(1, Math.ceil(count / maxVertices));
          for (let i = 0; i < count; i += stride)
            mesh.boundingBox!.expandByPoint(mesh.getVertexPosition(i, point));
        }
      }
      action.stop();
    }
    mixer.stopAllAction();
    mixer.uncacheRoot(root);
    for (const [o, [position, quaternion, scale]] of saved) {
      o.position.copy(position);
      o.quaternion.copy(quaternion);
      o.scale.copy(scale);
    }
    root.updateMatrixWorld(true);
  }
  for (const mesh of meshes) {
    const box = mesh.boundingBox ?? new Box3();
    mesh.boundingSphere = box.getBoundingSphere(mesh.boundingSphere ?? new Sphere());
  }
  return { rest, framed: new Box3().setFromObject(root) };
}

/** A skinned model's boxes in world space: as posed in the file, and as framed (with its clip). */
export interface FittedBounds {
  rest: Box3;
  framed: Box3;
}

/**
 * The framed box's size when a clip takes the model more than 1 % (of the rest box's largest
 * side) beyond its rest box on any side, else null: the facts panel then says what the view is
 * framed to, next to the size as posed in the file.
 */
export function motionSize({ rest, framed }: FittedBounds): [number, number, number] | null {
  const restSize = rest.getSize(new Vector3());
  const tolerance = 0.01 * Math.max(restSize.x, restSize.y, restSize.z);
  const beyond =
    rest.min.x - framed.min.x > tolerance ||
    rest.min.y - framed.min.y > tolerance ||
    rest.min.z - framed.min.z > tolerance ||
    framed.max.x - rest.max.x > tolerance ||
    framed.max.y - rest.max.y > tolerance ||
    framed.max.z - rest.max.z > tolerance;
  return beyond ? framed.getSize(new Vector3()).toArray() : null;
}

/** When to pose a clip: evenly spread times, and its keyframes when there are at most 24. */
function sampleTimes(clip: AnimationClip, evenly: number): number[] {
  const times = new Set<number>();
  for (let k = 0; k < evenly; k++) times.add((clip.duration * k) / Math.max(1, evenly - 1));
  const keys = new Set<number>();
  for (const track of clip.tracks) for (const t of track.times) keys.add(t);
  if (keys.size <= 24) for (const t of keys) times.add(t);
  return [...times];
}
