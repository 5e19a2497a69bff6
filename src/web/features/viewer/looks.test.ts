import {
  BoxGeometry,
  Group,
  Mesh,
  MeshNormalMaterial,
  MeshStandardMaterial,
  Texture,
  DoubleSide,
} from 'three';
import type { MeshBasicMaterial } from 'three';
import { describe, expect, it } from 'vitest';
import { addWireframe, applyLook } from './looks.ts';

function scene() {
  const map = new Texture();
  const textured = new MeshStandardMaterial({ map, side: DoubleSide });
  const plain = new MeshStandardMaterial({ color: 0xff0000 });
  const root = new Group();
  const a: Mesh = new Mesh(new BoxGeometry(), textured);
  const b: Mesh = new Mesh(new BoxGeometry(), plain);
  const c: Mesh = new Mesh(new BoxGeometry(), [textured, plain]);
  root.add(a, b, c);
  return { root, a, b, c, map, textured, plain };
}

describe('applyLook', () => {
  it('lit changes nothing', () => {
    const { root, a, textured } = scene();
    applyLook(root, 'lit')();
    expect(a.material).toBe(textured);
  });

  it('clay gives one neutral material per source material, keeping sidedness, and undoes', () => {
    const { root, a, b, c, textured, plain } = scene();
    const undo = applyLook(root, 'clay');
    expect(a.material).toBeInstanceOf(MeshStandardMaterial);
    expect(a.material).not.toBe(textured);
    expect((a.material as MeshStandardMaterial).map).toBeNull();
    expect((a.material as MeshStandardMaterial).side).toBe(DoubleSide);
    expect((c.material as MeshStandardMaterial[])[0]).toBe(a.material);
    const made = [a.material, b.material] as MeshStandardMaterial[];
    let disposed = 0;
    for (const m of made) m.addEventListener('dispose', () => disposed++);
    undo();
    expect(a.material).toBe(textured);
    expect(b.material).toBe(plain);
    expect(c.material).toEqual([textured, plain]);
    expect(disposed).toBe(2);
  });

  it('normals and texture only', () => {
    const { root, a, b, map } = scene();
    let undo = applyLook(root, 'normals');
    expect(a.material).toBeInstanceOf(MeshNormalMaterial);
    undo();
    undo = applyLook(root, 'texture');
    expect((a.material as MeshBasicMaterial).map).toBe(map);
    expect((b.material as MeshBasicMaterial).color.getHex()).toBe(0xff0000);
    undo();
    // The texture is the model's: undoing a look never frees it.
    let freed = false;
    map.addEventListener('dispose', () => (freed = true));
    expect(freed).toBe(false);
  });
});

describe('addWireframe', () => {
  it('adds one overlay per mesh sharing its geometry, and removes them', () => {
    const { root, a } = scene();
    const undo = addWireframe(root);
    const overlays: Mesh[] = [];
    root.traverse((n) => {
      if (n instanceof Mesh && n.userData.kilnOverlay) overlays.push(n);
    });
    expect(overlays).toHaveLength(3);
    expect(overlays[0]!.geometry).toBe(a.geometry);
    expect((overlays[0]!.material as MeshBasicMaterial).wireframe).toBe(true);
    // A look applied while the overlay is on leaves the overlay alone.
    const undoLook = applyLook(root, 'clay');
    expect((overlays[0]!.material as MeshBasicMaterial).wireframe).toBe(true);
    undoLook();
    undo();
    let left = 0;
    root.traverse((n) => {
      if (n.userData.kilnOverlay) left++;
    });
    expect(left).toBe(0);
  });
});
