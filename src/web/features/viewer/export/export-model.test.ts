// @vitest-environment jsdom
// Every export is read back with three's own loaders (OBJLoader, STLLoader, fflate's unzip)
// and compared with the source scene in world space.
import { readFile } from 'node:fs/promises';
import { NodeIO } from '@gltf-transform/core';
import {
  Box3,
  BoxGeometry,
  BufferGeometry,
  Group,
  Mesh,
  MeshStandardMaterial,
  Object3D,
  Texture,
  Vector3,
} from 'three';
import { unzipSync } from 'three/examples/jsm/libs/fflate.module.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';
import { STLLoader } from 'three/examples/jsm/loaders/STLLoader.js';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { imageToGlb } from '../../../../generator/index.ts';
import { photoPath } from '../../../../testing/fixtures.ts';
import { saveBlob as downloadBlob } from '../../../lib/save-blob.ts';
import {
  EXPORT_FORMATS,
  exportClone,
  exportFileName,
  exportModel,
  fileHeightMm,
  toObj,
  toObjZip,
  toStl,
  toUsdz,
} from './export-model.ts';

/**
 * Like a loaded gltf.scene: a 1×3×1 box (tall in Y) in a group at (5, 0, 0) scaled 2, and a
 * non-indexed 0.5 box at (−1, 4, 2). World bounds: (−1.25, −3, −1) to (6, 4.25, 2.25).
 */
function sourceScene(): Group {
  const scene = new Group();
  const placed = new Group();
  placed.name = 'placed';
  placed.position.set(5, 0, 0);
  placed.scale.setScalar(2);
  placed.add(new Mesh(new BoxGeometry(1, 3, 1), new MeshStandardMaterial()));
  const small = new Mesh(
    new BoxGeometry(0.5, 0.5, 0.5).toNonIndexed(),
    new MeshStandardMaterial({ color: 'red' }),
  );
  small.position.set(-1, 4, 2);
  scene.add(placed, small);
  return scene;
}
const SOURCE_BOX = new Box3(new Vector3(-1.25, -3, -1), new Vector3(6, 4.25, 2.25));

function meshes(root: Object3D): Mesh[] {
  const found: Mesh[] = [];
  root.traverse((o) => {
    if (o instanceof Mesh) found.push(o);
  });
  return found;
}

function triangleCount(root: Object3D): number {
  return meshes(root).reduce((sum, m) => {
    const g = m.geometry as BufferGeometry;
    return sum + (g.index ?? g.getAttribute('position')).count / 3;
  }, 0);
}

function vertexCount(root: Object3D): number {
  return meshes(root).reduce((sum, m) => sum + m.geometry.getAttribute('position').count, 0);
}

function worldBox(root: Object3D): Box3 {
  root.updateMatrixWorld(true);
  return new Box3().setFromObject(root, true);
}

function expectBox(actual: Box3, expected: Box3, digits = 5): void {
  for (const key of ['min', 'max'] as const) {
    for (const axis of ['x', 'y', 'z'] as const) {
      expect(actual[key][axis], `${key}.${axis}`).toBeCloseTo(expected[key][axis], digits);
    }
  }
}

/** (x, y, z) → (x, −z, y) applied to a box: glTF's Y up turned into Z up. */
/** A glTF box as the slicer STL holds it: Z up, millimetres, centred on X and Y, on Z = 0. */
function zUpBox(box: Box3): Box3 {
  const turned = new Box3(
    new Vector3(box.min.x, -box.max.z, box.min.y).multiplyScalar(1000),
    new Vector3(box.max.x, -box.min.z, box.max.y).multiplyScalar(1000),
  );
  const centre = turned.getCenter(new Vector3());
  return turned.translate(new Vector3(-centre.x, -centre.y, -turned.min.z));
}

function readStl(buffer: ArrayBuffer): Mesh {
  return new Mesh(new STLLoader().parse(buffer));
}

/** Checks the zip's local headers: stored entries whose data start on 64-byte boundaries. */
function expectUsdzLayout(bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  let entries = 0;
  while (view.getUint32(offset, true) === 0x04034b50) {
    expect(view.getUint16(offset + 8, true), 'compression method').toBe(0);
    const size = view.getUint32(offset + 18, true);
    const data =
      offset + 30 + view.getUint16(offset + 26, true) + view.getUint16(offset + 28, true);
    expect(data % 64, 'data alignment').toBe(0);
    offset = data + size;
    entries++;
  }
  expect(entries).toBeGreaterThan(0);
}

const usdText = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('exportClone', () => {
  it('copies the node graph, shares geometry and computes world matrices', () => {
    const scene = sourceScene(); // world matrices never updated
    const copy = exportClone(scene);
    expect(copy).not.toBe(scene);
    expect(meshes(copy)[0]).not.toBe(meshes(scene)[0]);
    expect(meshes(copy)[0]!.geometry).toBe(meshes(scene)[0]!.geometry);
    expect(copy.getObjectByName('placed')!.matrixWorld.elements[12]).toBe(5);
  });

  it("leaves a parent's transform behind (the viewer's centring wrapper)", () => {
    const scene = sourceScene();
    const wrapper = new Group();
    wrapper.position.set(-5, 1, 0);
    wrapper.scale.setScalar(0.25);
    wrapper.add(scene);
    wrapper.updateMatrixWorld(true);
    const copy = exportClone(scene);
    expect(copy.parent).toBeNull();
    expect(scene.parent).toBe(wrapper);
    expectBox(worldBox(copy), SOURCE_BOX);
  });
});

describe('toObj', () => {
  it('writes every vertex in world space, neither centred nor scaled', () => {
    const scene = sourceScene();
    const obj = toObj(exportClone(scene));
    expect(obj.match(/^v /gm)).toHaveLength(vertexCount(scene));
    const loaded = new OBJLoader().parse(obj);
    expect(meshes(loaded)).toHaveLength(2);
    // OBJLoader gives non-indexed triangles.
    expect(vertexCount(loaded)).toBe(3 * triangleCount(scene));
    expectBox(worldBox(loaded), worldBox(scene));
    expectBox(worldBox(loaded), SOURCE_BOX);
  });
});

describe('toStl', () => {
  it('writes binary STL with every triangle in world space', () => {
    const scene = sourceScene();
    const buffer = toStl(exportClone(scene));
    const triangles = triangleCount(scene);
    expect(triangles).toBe(24);
    expect(buffer.byteLength).toBe(84 + 50 * triangles);
    expect(new DataView(buffer).getUint32(80, true)).toBe(triangles);
    const loaded = readStl(buffer);
    expect(loaded.geometry.getAttribute('position').count).toBe(3 * triangles);
    expectBox(worldBox(loaded), SOURCE_BOX);
  });

  it('scales the slicer file to the printed height asked for, centred and on the bed', () => {
    // The box is 7.25 m tall: 7,250 mm at the file's scale, 120 mm as asked.
    const root = exportClone(sourceScene());
    expect(fileHeightMm(root)).toBeCloseTo(7250, 2);
    const box = worldBox(readStl(toStl(root, { zUp: true, heightMm: 120 })));
    const size = box.getSize(new Vector3());
    expect(size.z).toBeCloseTo(120, 3);
    // Evenly: width and depth follow.
    expect(size.y).toBeCloseTo((3250 * 120) / 7250, 3);
    expect(box.min.z).toBeCloseTo(0, 4);
    expect(box.min.x + box.max.x).toBeCloseTo(0, 3);
    expect(box.min.y + box.max.y).toBeCloseTo(0, 3);
    const header = new TextDecoder().decode(
      new Uint8Array(toStl(root, { zUp: true, heightMm: 120 }), 0, 80),
    );
    expect(header).toMatch(/^Kiln STL: millimetres, Z up, on Z=0; [\d.]+ x 53\.8 x 120\.0 mm/);
  });

  it('writes the slicer file in millimetres, Z up, centred and resting on Z = 0, and says so', () => {
    const root = exportClone(sourceScene());
    const before = root.getObjectByName('placed')!.matrixWorld.clone();
    const buffer = toStl(root, { zUp: true });
    expect(buffer.byteLength).toBe(84 + 50 * 24);
    const box = worldBox(readStl(buffer));
    expectBox(box, zUpBox(SOURCE_BOX), 2);
    // The box tall in Y (7.25 m) is 7250 mm tall in Z now, its lowest point on the bed.
    const size = box.getSize(new Vector3());
    expect(size.z).toBeCloseTo(7250, 2);
    expect(size.y).toBeCloseTo(3250, 2);
    expect(box.min.z).toBeCloseTo(0, 3);
    expect(box.min.x + box.max.x).toBeCloseTo(0, 3);
    expect(box.min.y + box.max.y).toBeCloseTo(0, 3);
    const header = new TextDecoder().decode(new Uint8Array(buffer, 0, 80));
    expect(header).toMatch(
      /^Kiln STL: millimetres, Z up, on Z=0; 7250\.0 x 3250\.0 x 7250\.0 mm|^Kiln STL: millimetres, Z up, on Z=0; [\d.]+ x 3250\.0 x 7250\.0 mm/,
    );
    // The input is untouched.
    expect(root.parent).toBeNull();
    expect(root.getObjectByName('placed')!.matrixWorld.equals(before)).toBe(true);
  });

  it('keeps a parented root in its world space, with or without zUp, and in place', () => {
    const scene = sourceScene();
    const parent = new Group();
    parent.position.set(0, 10, 0);
    parent.add(scene);
    parent.updateMatrixWorld(true);
    const world = worldBox(scene);
    expectBox(worldBox(readStl(toStl(scene))), world);
    expectBox(worldBox(readStl(toStl(scene, { zUp: true }))), zUpBox(world), 2);
    expect(scene.parent).toBe(parent);
    expect(parent.children).toEqual([scene]);
  });
});

describe('toUsdz', () => {
  it('writes a USDZ zip: model.usda first, then one mesh per geometry', async () => {
    const scene = sourceScene();
    const bytes = await toUsdz(exportClone(scene));
    expectUsdzLayout(bytes);
    const files = unzipSync(bytes);
    const names = Object.keys(files);
    expect(names[0]).toBe('model.usda');
    const model = usdText(files['model.usda']!);
    expect(model).toContain('upAxis = "Y"');
    expect(model).toContain('def Xform');
    // The group's own transform (scale 2, at x = 5) is kept.
    expect(model).toContain('(2, 0, 0, 0), (0, 2, 0, 0), (0, 0, 2, 0), (5, 0, 0, 1)');
    const geometries = names.filter((n) => n.startsWith('geometries/'));
    expect(geometries).toHaveLength(2);
    const pointCounts = geometries.map((name) => {
      const text = usdText(files[name]!);
      expect(text).toContain('def Mesh');
      const points = /point3f\[\] points = \[([^\]]*)\]/.exec(text)?.[1] ?? '';
      return points.split('),').length;
    });
    expect(pointCounts.sort((a, b) => a - b)).toEqual([24, 36]);
  });
});

describe('a Kiln GLB (the chair photo, off-centre)', () => {
  const translation: [number, number, number] = [3, 0.5, -2];
  const scale = 2;
  let scene: Object3D;
  let expected: Box3;

  beforeAll(async () => {
    const io = new NodeIO();
    const doc = await io.readBinary(
      await imageToGlb(new Uint8Array(await readFile(photoPath('chair.png')))),
    );
    // Node has no image decoder for GLTFLoader: drop the texture, geometry stays as it is.
    for (const texture of doc.getRoot().listTextures()) texture.dispose();
    // Kiln models come centred; move and scale the node so that centring would show.
    const node = doc
      .getRoot()
      .listNodes()
      .find((n) => n.getMesh() !== null);
    if (!node) throw new Error('the generated GLB has no mesh node');
    node.setTranslation(translation).setScale([scale, scale, scale]);
    expected = new Box3();
    for (const prim of node.getMesh()!.listPrimitives()) {
      const position = prim.getAttribute('POSITION')!;
      expected.expandByPoint(new Vector3(...(position.getMin([]) as [number, number, number])));
      expected.expandByPoint(new Vector3(...(position.getMax([]) as [number, number, number])));
    }
    expected.min.multiplyScalar(scale).add(new Vector3(...translation));
    expected.max.multiplyScalar(scale).add(new Vector3(...translation));
    const glb = await io.writeBinary(doc);
    const buffer = glb.buffer.slice(glb.byteOffset, glb.byteOffset + glb.byteLength);
    scene = (await new GLTFLoader().parseAsync(buffer as ArrayBuffer, '')).scene;
  });

  it('loads where the file puts it', () => {
    expectBox(worldBox(scene), expected, 4);
    expect(worldBox(scene).getCenter(new Vector3()).x).toBeCloseTo(3, 4);
  });

  it('exports OBJ and STL with its world bounding box', () => {
    const obj = new OBJLoader().parse(toObj(exportClone(scene)));
    expect(vertexCount(obj)).toBe(3 * triangleCount(scene));
    expectBox(worldBox(obj), expected, 4);
    const stl = readStl(toStl(exportClone(scene)));
    expect(stl.geometry.getAttribute('position').count).toBe(3 * triangleCount(scene));
    expectBox(worldBox(stl), expected, 4);
    expectBox(worldBox(readStl(toStl(exportClone(scene), { zUp: true }))), zUpBox(expected), 4);
  });

  it('exports USDZ (untextured here)', async () => {
    const files = unzipSync(await toUsdz(exportClone(scene)));
    expect(Object.keys(files)[0]).toBe('model.usda');
    expect(Object.keys(files).some((n) => n.startsWith('geometries/'))).toBe(true);
  });
});

describe('toObjZip', () => {
  /** Three meshes: two share a textured material, one has a material of the same name. */
  function texturedScene() {
    const texture = new Texture({ width: 2, height: 2 });
    const shared = new MeshStandardMaterial({ name: 'Body paint', map: texture, roughness: 0.5 });
    const other = new MeshStandardMaterial({ name: 'Body paint', color: 0xff0000 });
    const root = new Group();
    for (const material of [shared, shared, other]) {
      const mesh = new Mesh(new BoxGeometry(1, 1, 1), material);
      mesh.position.x = root.children.length * 2;
      root.add(mesh);
    }
    root.updateMatrixWorld(true);
    return { root, shared, other };
  }

  it('zips model.obj, model.mtl and each texture, and every reference resolves', async () => {
    const { root, shared } = texturedScene();
    const encoded: unknown[] = [];
    const zip = await toObjZip(exportClone(root), async (t) => {
      encoded.push(t);
      return new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    });
    const files = unzipSync(zip);
    const obj = new TextDecoder().decode(files['model.obj']);
    const mtl = new TextDecoder().decode(files['model.mtl']);
    // As Blender's importer reads it: the OBJ names its MTL, every usemtl is defined there, and
    // every map_Kd names a file in the zip.
    expect(obj.split('\n')[0]).toBe('mtllib model.mtl');
    const used = [...new Set([...obj.matchAll(/^usemtl (\S+)$/gm)].map((m) => m[1]))];
    const defined = [...mtl.matchAll(/^newmtl (\S+)$/gm)].map((m) => m[1]);
    expect(used.sort()).toEqual([...defined].sort());
    expect(defined).toEqual(['Body_paint', 'Body_paint_2']);
    const maps = [...mtl.matchAll(/^map_Kd (\S+)$/gm)].map((m) => m[1]!);
    expect(maps).toEqual(['textures/Body_paint-base-colour.png']);
    for (const file of maps) expect(files[file]).toBeDefined();
    expect(encoded).toEqual([shared.map]); // one texture, encoded once
    expect(mtl).toMatch(/newmtl Body_paint_2\nKd 1\.0000 0\.0000 0\.0000/);
    // The loaded model's own materials keep their names.
    expect(shared.name).toBe('Body paint');
  });
});

describe('exportModel', () => {
  it.each(EXPORT_FORMATS.map((f) => [f.id, f] as const))(
    '%s: a Blob of the right type, built from a copy',
    async (id, format) => {
      const scene = sourceScene();
      const wrapper = new Group();
      wrapper.scale.setScalar(0.1);
      wrapper.add(scene);
      const blob = await exportModel(id, scene);
      expect(blob.type).toBe(format.mimeType);
      expect(blob.size).toBeGreaterThan(0);
      expect(scene.parent).toBe(wrapper);
      const bytes = new Uint8Array(await blob.arrayBuffer());
      if (format.extension === 'zip') {
        const files = unzipSync(bytes);
        const obj = new TextDecoder().decode(files['model.obj']);
        expectBox(worldBox(new OBJLoader().parse(obj)), SOURCE_BOX);
      } else if (format.extension === 'stl') {
        const box = worldBox(readStl(bytes.buffer));
        expectBox(
          box,
          id === 'stl-z-up' ? zUpBox(SOURCE_BOX) : SOURCE_BOX,
          id === 'stl-z-up' ? 2 : 5,
        );
      } else {
        expect(Object.keys(unzipSync(bytes))[0]).toBe('model.usda');
      }
    },
  );
});

describe('a model without meshes', () => {
  const message = 'nothing to export: the model has no meshes';
  const empties = () => {
    const emptyMesh = new Group();
    emptyMesh.add(new Mesh(new BufferGeometry(), new MeshStandardMaterial()));
    return [new Object3D(), new Group().add(new Group()), emptyMesh];
  };

  it('is refused by every exporter with a clear error', async () => {
    for (const root of empties()) {
      expect(() => toObj(root)).toThrow(message);
      await expect(toObjZip(root)).rejects.toThrow(message);
      expect(() => toStl(root)).toThrow(message);
      expect(() => toStl(root, { zUp: true })).toThrow(message);
      await expect(toUsdz(root)).rejects.toThrow(message);
      for (const format of EXPORT_FORMATS) {
        await expect(exportModel(format.id, root)).rejects.toThrow(message);
      }
    }
  });
});

describe('exportFileName', () => {
  it.each([
    ['kiln-beta-chair-2026-11-22', 'obj', undefined, 'kiln-beta-chair-2026-11-22-obj.zip'],
    ['kiln-beta-chair-2026-11-22', 'stl', 'z-up', 'kiln-beta-chair-2026-11-22-z-up.stl'],
    ['  Kiln: Béta  Chair!! (2026/11/22) ', 'usdz', undefined, 'kiln-beta-chair-2026-11-22.usdz'],
    ['--Red__Cube--', 'glb', 'Z Up', 'red-cube-z-up.glb'],
    ['kiln-teapot', 'png', '', 'kiln-teapot.png'],
    ['', 'obj', undefined, 'model-obj.zip'],
    ['---', 'stl', 'z-up', 'model-z-up.stl'],
    ['椅子', 'usdz', undefined, 'model.usdz'],
  ] as const)('(%j, %s, %j) → %s', (base, ext, variant, name) => {
    expect(exportFileName(base, ext, variant)).toBe(name);
  });

  it('names each format of EXPORT_FORMATS', () => {
    const names = EXPORT_FORMATS.map((f) => exportFileName('kiln-chair', f.extension, f.variant));
    expect(names).toEqual([
      'kiln-chair-obj.zip',
      'kiln-chair.stl',
      'kiln-chair-mm-z-up.stl',
      'kiln-chair.usdz',
    ]);
  });
});

describe('downloadBlob', () => {
  it('clicks a temporary <a download> and revokes its object URL afterwards', () => {
    vi.useFakeTimers();
    const create = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:kiln/1');
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
    const clicked: { href: string; download: string; inDocument: boolean }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push({ href: this.href, download: this.download, inDocument: this.isConnected });
    });
    const blob = new Blob(['solid'], { type: 'model/stl' });

    downloadBlob(blob, 'kiln-chair.stl');

    expect(create).toHaveBeenCalledWith(blob);
    expect(clicked).toEqual([
      { href: 'blob:kiln/1', download: 'kiln-chair.stl', inDocument: true },
    ]);
    expect(document.querySelector('a')).toBeNull();
    expect(revoke).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(revoke).toHaveBeenCalledWith('blob:kiln/1');
  });
});
