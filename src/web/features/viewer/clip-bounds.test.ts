import { Box3, Object3D, Vector3, type Group, type SkinnedMesh, type AnimationClip } from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { describe, expect, it } from 'vitest';
import {
  CHARACTER_POSED_SIZE,
  fixtureIO,
  riggedCharacter,
  riggedFigure,
} from '../../../testing/viewer-fixtures.ts';
import { fitSkinnedBounds, motionSize } from './clip-bounds.ts';

async function load(
  jump: boolean | 'character',
): Promise<{ scene: Group; animations: AnimationClip[] }> {
  const doc = jump === 'character' ? await riggedCharacter() : riggedFigure(jump);
  const glb = await (await fixtureIO()).writeBinary(doc);
  const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength) as ArrayBuffer;
  return new Promise((resolve, reject) => new GLTFLoader().parse(buffer, '', resolve, reject));
}

function meshOf(scene: Group): SkinnedMesh {
  let found: SkinnedMesh | undefined;
  scene.traverse((o) => {
    if ((o as SkinnedMesh).isSkinnedMesh) found = o as SkinnedMesh;
  });
  if (!found) throw new Error('no skinned mesh');
  return found;
}

/** What Bounds' fit sees: the mesh's kept box, in world space. */
const fitBox = (scene: Group) => new Box3().setFromObject(scene);

describe('fitSkinnedBounds', () => {
  it('measures a rigged figure in its rest pose, whatever has moved it since loading', async () => {
    const { scene, animations } = await load(false);
    // What the viewer does next: centre and scale the model, which moves the joints.
    scene.position.set(0, -0.9, 0);
    scene.scale.setScalar(0.5);
    scene.updateMatrixWorld(true);
    fitSkinnedBounds(scene, animations);
    const box = fitBox(scene);
    expect(box.min.y).toBeCloseTo(-0.9, 3);
    expect(box.max.y).toBeCloseTo(-0.9 + 0.9, 3);
    expect(box.max.x - box.min.x).toBeCloseTo(0.25, 3);
  });

  it('holds every pose of its clips, and leaves the figure in its rest pose', async () => {
    const { scene, animations } = await load(true);
    const joint = scene.getObjectByName('hips')!;
    const rest = joint.position.clone();
    fitSkinnedBounds(scene, animations);
    const box = fitBox(scene);
    expect(box.min.y).toBeCloseTo(0, 3);
    expect(box.max.y).toBeCloseTo(1.8 + 1.5, 2); // the jump's top
    expect(joint.position.toArray()).toEqual(rest.toArray());
    const mesh = meshOf(scene);
    expect(mesh.boundingSphere!.radius).toBeGreaterThan(1.6); // never culled mid-jump
    // The exact rest box is still what a precise measure finds.
    expect(new Box3().setFromObject(scene, true).max.y).toBeCloseTo(1.8, 3);
  });

  it('measures a character with two skinned meshes as posed in the file, from its vertices', async () => {
    // The size the facts panel shows when the file's own vertices are compressed: both meshes,
    // each vertex where its joints (and weights) put it, arms down, not the T-pose it is bound in.
    const { scene, animations } = await load('character');
    const fitted = fitSkinnedBounds(scene, animations)!;
    const size = fitted.rest.getSize(new Vector3()).toArray();
    for (let k = 0; k < 3; k++) expect(size[k]).toBeCloseTo(CHARACTER_POSED_SIZE[k]!, 3);
    expect(fitted.rest.min.y).toBeCloseTo(0, 3);
    // Its first clip ("Idle", a 0.8 cm bob) stays inside that box: one size.
    expect(motionSize(fitted)).toBeNull();
  });

  it('tells the framed size only when a clip leaves the box the file poses it in', async () => {
    const still = await load(false);
    const restOnly = fitSkinnedBounds(still.scene, still.animations)!;
    expect(motionSize(restOnly)).toBeNull();
    const jumping = await load(true);
    const fitted = fitSkinnedBounds(jumping.scene, jumping.animations)!;
    expect(fitted.rest.max.y).toBeCloseTo(1.8, 3);
    const [w, h] = motionSize(fitted)!;
    expect(w).toBeCloseTo(0.5, 2);
    expect(h).toBeCloseTo(3.3, 2);
    expect(fitSkinnedBounds(new Object3D(), [])).toBeNull();
  });
});
