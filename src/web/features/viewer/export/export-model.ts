// Exports of a loaded glTF scene to OBJ, STL and USDZ with three's own exporters (no React).
// Every export starts from `gltf.scene` as loaded, never from the viewer's copy, which sits
// in a wrapper that centres and scales it: files keep the model's own node transforms.
import { Group, Matrix4, type BufferGeometry, type Object3D } from 'three';
import { OBJExporter } from 'three/examples/jsm/exporters/OBJExporter.js';
import { STLExporter } from 'three/examples/jsm/exporters/STLExporter.js';
import { USDZExporter } from 'three/examples/jsm/exporters/USDZExporter.js';
import * as WebGLTextureUtils from 'three/examples/jsm/utils/WebGLTextureUtils.js';
import { clone as cloneObject } from 'three/examples/jsm/utils/SkeletonUtils.js';

export type ExportFormatId = 'obj' | 'stl' | 'stl-z-up' | 'usdz';

export interface ExportFormat {
  id: ExportFormatId;
  label: string;
  extension: 'obj' | 'stl' | 'usdz';
  mimeType: string;
  description: string;
  /** Suffix for the file name (see exportFileName), when the format shares an extension. */
  variant?: string;
}

/** The formats the viewer offers, in menu order. */
export const EXPORT_FORMATS: readonly ExportFormat[] = [
  {
    id: 'obj',
    label: 'OBJ',
    extension: 'obj',
    mimeType: 'model/obj',
    description: 'Geometry with normals and UVs, no materials; opens almost anywhere.',
  },
  {
    id: 'stl',
    label: 'STL (binary)',
    extension: 'stl',
    mimeType: 'model/stl',
    description: 'Triangles only, Y up as in glTF.',
  },
  {
    id: 'stl-z-up',
    label: 'STL, Z up (for slicers)',
    extension: 'stl',
    mimeType: 'model/stl',
    description: 'Triangles only, turned so the model stands upright on a 3D printer bed.',
    variant: 'z-up',
  },
  {
    id: 'usdz',
    label: 'USDZ (AR Quick Look)',
    extension: 'usdz',
    mimeType: 'model/vnd.usdz+zip',
    description: 'Meshes, materials and textures, for AR on iPhone and iPad.',
  },
];

const NO_MESHES = 'nothing to export: the model has no meshes';

/** Throws when `root` holds no mesh with vertices, so no exporter writes an empty file. */
function assertHasMeshes(root: Object3D): void {
  let found = false;
  root.traverse((object) => {
    const mesh = object as { isMesh?: boolean; geometry?: BufferGeometry };
    if (mesh.isMesh === true && (mesh.geometry?.getAttribute('position')?.count ?? 0) > 0) {
      found = true;
    }
  });
  if (!found) throw new Error(NO_MESHES);
}

/**
 * A fresh copy of the node graph of a loaded glTF scene (geometry, materials and textures
 * are shared: exporters only read them), with its world matrices up to date. A parent of
 * `scene` is left behind, so only the file's own node transforms count.
 */
export function exportClone(scene: Object3D): Object3D {
  const copy = cloneObject(scene);
  copy.updateMatrixWorld(true);
  return copy;
}

/** Wavefront OBJ text of every mesh under `root`, in world space (no .mtl). */
export function toObj(root: Object3D): string {
  assertHasMeshes(root);
  return new OBJExporter().parse(root);
}

/**
 * Binary STL of every mesh under `root`, in world space. `zUp` turns glTF's +Y up into +Z up
 * for slicers, (x, y, z) → (x, −z, y), in a wrapper around a copy: `root` is not touched.
 */
export function toStl(root: Object3D, options: { zUp?: boolean } = {}): ArrayBuffer {
  assertHasMeshes(root);
  let target = root;
  if (options.zUp === true) {
    const wrapper = new Group();
    wrapper.matrixAutoUpdate = false;
    // The copy has no parent: the wrapper carries the parent's world matrix in its place.
    wrapper.matrix.makeRotationX(Math.PI / 2).multiply(root.parent?.matrixWorld ?? new Matrix4());
    wrapper.add(cloneObject(root));
    wrapper.updateMatrixWorld(true);
    target = wrapper;
  }
  return new STLExporter().parse(target, { binary: true }).buffer;
}

/**
 * USDZ (a zip holding model.usda first, then geometry and textures) of `root`. Textures need
 * a 2D canvas, so a textured model exports in a browser only; KTX2 textures are decompressed
 * with WebGL first.
 */
export async function toUsdz(root: Object3D): Promise<Uint8Array<ArrayBuffer>> {
  assertHasMeshes(root);
  const exporter = new USDZExporter();
  exporter.setTextureUtils(WebGLTextureUtils);
  // onlyVisible: false exports the same meshes as OBJ and STL, which ignore visibility.
  return exporter.parseAsync(root, { onlyVisible: false, quickLookCompatible: true });
}

/**
 * `base[-variant].ext`, with base and variant reduced to lowercase a–z, 0–9 and single
 * dashes (accents dropped); an empty base becomes "model".
 */
export function exportFileName(
  base: string,
  ext: 'obj' | 'stl' | 'usdz' | 'glb' | 'png',
  variant?: string,
): string {
  const slug = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '');
  const suffix = variant === undefined ? '' : slug(variant);
  return `${slug(base) || 'model'}${suffix ? `-${suffix}` : ''}.${ext}`;
}

/** The file for `format`, built from a fresh exportClone of the loaded `scene`. */
export async function exportModel(format: ExportFormatId, scene: Object3D): Promise<Blob> {
  const type = EXPORT_FORMATS.find((f) => f.id === format)?.mimeType;
  if (type === undefined) throw new Error(`unknown export format: ${String(format)}`);
  const root = exportClone(scene);
  switch (format) {
    case 'obj':
      return new Blob([toObj(root)], { type });
    case 'stl':
    case 'stl-z-up':
      return new Blob([toStl(root, { zUp: format === 'stl-z-up' })], { type });
    case 'usdz':
      return new Blob([await toUsdz(root)], { type });
  }
}
