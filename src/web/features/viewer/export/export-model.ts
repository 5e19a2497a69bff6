// Exports of a loaded glTF scene to OBJ (zipped with its MTL and textures), STL and USDZ with
// three's own exporters and fflate (no React).
// Every export starts from `gltf.scene` as loaded, never from the viewer's copy, which sits
// in a wrapper that centres and scales it: files keep the model's own node transforms.
import { strToU8, zipSync } from 'three/examples/jsm/libs/fflate.module.js';
import {
  Box3,
  Color,
  Group,
  Matrix4,
  Vector3,
  type BufferGeometry,
  type Material,
  type Mesh,
  type Object3D,
  type Texture,
} from 'three';
import { OBJExporter } from 'three/examples/jsm/exporters/OBJExporter.js';
import { STLExporter } from 'three/examples/jsm/exporters/STLExporter.js';
import { USDZExporter } from 'three/examples/jsm/exporters/USDZExporter.js';
import * as WebGLTextureUtils from 'three/examples/jsm/utils/WebGLTextureUtils.js';
import { clone as cloneObject } from 'three/examples/jsm/utils/SkeletonUtils.js';

export type ExportFormatId = 'obj' | 'stl' | 'stl-z-up' | 'usdz';

export interface ExportFormat {
  id: ExportFormatId;
  label: string;
  extension: 'zip' | 'stl' | 'usdz';
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
    extension: 'zip',
    mimeType: 'application/zip',
    description:
      'A zip of model.obj, model.mtl and the textures: geometry, materials and colours for Blender and most 3D tools.',
    variant: 'obj',
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
    label: 'STL for slicers (mm, Z up)…',
    extension: 'stl',
    mimeType: 'model/stl',
    description:
      'Triangles in millimetres at the printed height asked for (else a glTF metre is 1000 mm), Z up, centred, resting on the bed at Z = 0.',
    variant: 'mm-z-up',
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

/** The file names of an OBJ zip: the OBJ, its MTL, and textures under `textures/`. */
const OBJ_ZIP = { obj: 'model.obj', mtl: 'model.mtl', textures: 'textures/' } as const;

/**
 * Encodes a texture's image as PNG (a browser's canvas; compressed textures are decompressed
 * with WebGL first), turned upright for OBJ's bottom-up texture coordinates when the glTF
 * texture is not flipped. Injected so that tests can run without a canvas.
 */
export type TextureEncoder = (texture: Texture) => Promise<Uint8Array>;

/**
 * A zip with `model.obj` (with `mtllib model.mtl` and one uniquely named `usemtl` per
 * material), `model.mtl` (colour, opacity, roughness as shininess, and `map_Kd` for a base
 * colour texture) and each texture as a PNG under `textures/`, so that Blender's importer finds
 * everything. The materials of `root` are copied, not renamed in place.
 */
export async function toObjZip(
  root: Object3D,
  encode: TextureEncoder = encodeTexturePng,
): Promise<Uint8Array<ArrayBuffer>> {
  assertHasMeshes(root);
  const names = new Map<Material, string>();
  const used = new Set<string>();
  const uniqueName = (material: Material): string => {
    const base =
      (material.name || 'material').replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 48) || 'material';
    let name = base;
    for (let i = 2; used.has(name); i++) name = `${base}_${i}`;
    used.add(name);
    return name;
  };
  root.traverse((object) => {
    const mesh = object as Mesh;
    if (!mesh.isMesh) return;
    const materials = Array.isArray(mesh.material) ? mesh.material : [mesh.material];
    const copies = materials.map((material) => {
      const copy = material.clone();
      copy.name = names.get(material) ?? uniqueName(material);
      names.set(material, copy.name);
      return copy;
    });
    mesh.material = Array.isArray(mesh.material) ? copies : copies[0]!;
  });
  const obj = `mtllib ${OBJ_ZIP.mtl}\n${new OBJExporter().parse(root)}`;
  const files: Record<string, Uint8Array> = { [OBJ_ZIP.obj]: strToU8(obj) };
  const textures = new Map<Texture, string>();
  const mtl: string[] = ['# Kiln: materials of model.obj'];
  for (const [material, name] of names) {
    const m = material as Material & {
      color?: Color;
      map?: Texture | null;
      roughness?: number;
      metalness?: number;
    };
    const color = m.color ?? new Color(1, 1, 1);
    mtl.push(
      '',
      `newmtl ${name}`,
      `Kd ${color.r.toFixed(4)} ${color.g.toFixed(4)} ${color.b.toFixed(4)}`,
    );
    mtl.push(`Ka 0 0 0`, `Ks 0.04 0.04 0.04`);
    if (m.roughness !== undefined) mtl.push(`Ns ${Math.round((1 - m.roughness) ** 2 * 900 + 10)}`);
    mtl.push(`d ${material.transparent ? material.opacity.toFixed(3) : '1'}`, 'illum 2');
    if (m.map?.image) {
      let file = textures.get(m.map);
      if (!file) {
        // Named by its role, so a material called "normal" does not look like a normal map.
        file = `${OBJ_ZIP.textures}${name}-base-colour.png`;
        files[file] = await encode(m.map);
        textures.set(m.map, file);
      }
      mtl.push(`map_Kd ${file}`);
    }
  }
  files[OBJ_ZIP.mtl] = strToU8(`${mtl.join('\n')}\n`);
  return zipSync(files, { level: 6 }) as Uint8Array<ArrayBuffer>;
}

/** PNG bytes of a texture's image, upright for OBJ (see TextureEncoder). Browser only. */
async function encodeTexturePng(texture: Texture): Promise<Uint8Array> {
  const readable = (texture as { isCompressedTexture?: boolean }).isCompressedTexture
    ? WebGLTextureUtils.decompress(texture)
    : texture;
  const image = readable.image as CanvasImageSource & { width: number; height: number };
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas to write the textures with');
  if (!readable.flipY) {
    // glTF's (0,0) is the image's top left, OBJ's its bottom left.
    ctx.translate(0, canvas.height);
    ctx.scale(1, -1);
  }
  ctx.drawImage(image, 0, 0);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('a texture could not be written as PNG');
  return new Uint8Array(await blob.arrayBuffer());
}

/** Millimetres in a glTF metre: what slicers read STL units as. */
const MM_PER_METRE = 1000;

/**
 * The 80-byte header of a binary STL: what the file is, in ASCII, padded with spaces. It never
 * starts with "solid" (readers would take the file for ASCII STL).
 */
function stlHeader(text: string): Uint8Array {
  const header = new Uint8Array(80).fill(0x20);
  const ascii = text.replace(/[^\x20-\x7e]/g, '?').replace(/^solid/i, 'Solid-');
  for (let i = 0; i < Math.min(80, ascii.length); i++) header[i] = ascii.charCodeAt(i);
  return header;
}

/**
 * Binary STL of every mesh under `root`, in world space (glTF's units and axes). `zUp` makes
 * the file for slicers (issue 23): glTF's +Y up turned into +Z up, (x, y, z) → (x, −z, y), in
 * millimetres (metres × 1000), centred on X and Y and resting on Z = 0, with a header that says
 * so; with `heightMm`, scaled (evenly) to stand that many millimetres tall. The work happens in
 * a wrapper around a copy: `root` is not touched.
 */
export function toStl(
  root: Object3D,
  options: { zUp?: boolean; heightMm?: number } = {},
): ArrayBuffer {
  assertHasMeshes(root);
  if (options.zUp !== true) return new STLExporter().parse(root, { binary: true }).buffer;
  const wrapper = new Group();
  wrapper.matrixAutoUpdate = false;
  // The copy has no parent: the wrapper carries the parent's world matrix in its place.
  const turn = new Matrix4()
    .makeScale(MM_PER_METRE, MM_PER_METRE, MM_PER_METRE)
    .multiply(new Matrix4().makeRotationX(Math.PI / 2))
    .multiply(root.parent?.matrixWorld ?? new Matrix4());
  wrapper.matrix.copy(turn);
  wrapper.add(cloneObject(root));
  wrapper.updateMatrixWorld(true);
  const box = new Box3().setFromObject(wrapper, true);
  const centre = box.getCenter(new Vector3());
  wrapper.matrix.premultiply(new Matrix4().makeTranslation(-centre.x, -centre.y, -box.min.z));
  const size = box.getSize(new Vector3());
  if (options.heightMm !== undefined && size.z > 0) {
    // About the origin, where the model now stands centred on the bed: it stays so.
    const k = options.heightMm / size.z;
    wrapper.matrix.premultiply(new Matrix4().makeScale(k, k, k));
    size.multiplyScalar(k);
  }
  wrapper.updateMatrixWorld(true);
  const out = new STLExporter().parse(wrapper, { binary: true });
  const bytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
  bytes.set(
    stlHeader(
      `Kiln STL: millimetres, Z up, on Z=0; ${size.x.toFixed(1)} x ${size.y.toFixed(1)} x ${size.z.toFixed(1)} mm`,
    ),
    0,
  );
  return out.buffer;
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
  ext: 'obj' | 'zip' | 'stl' | 'usdz' | 'glb' | 'png',
  variant?: string,
): string {
  // An OBJ goes out zipped with its materials and textures: `name-obj.zip`.
  if (ext === 'obj') return exportFileName(base, 'zip', variant ?? 'obj');
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

/** The download's name for `format` (`chair-obj.zip`, `chair-mm-z-up.stl`, …). */
export function exportFileNameFor(format: ExportFormatId, base: string): string {
  if (format === 'obj') return exportFileName(base, 'obj');
  const f = EXPORT_FORMATS.find((e) => e.id === format);
  if (!f) throw new Error(`unknown export format: ${String(format)}`);
  return exportFileName(base, f.extension as 'stl' | 'usdz', f.variant);
}

/**
 * How tall the model stands in millimetres at its file's own scale (a glTF metre is 1000 mm):
 * what "STL for slicers" makes without a height of its own. Null for a model without meshes.
 */
export function fileHeightMm(scene: Object3D): number | null {
  const box = new Box3().setFromObject(exportClone(scene), true);
  return box.isEmpty() ? null : (box.max.y - box.min.y) * MM_PER_METRE;
}

/**
 * The file for `format`, built from a fresh exportClone of the loaded `scene`; `heightMm` is the
 * slicer STL's printed height (none: the file's own size).
 */
export async function exportModel(
  format: ExportFormatId,
  scene: Object3D,
  options: { heightMm?: number } = {},
): Promise<Blob> {
  const type = EXPORT_FORMATS.find((f) => f.id === format)?.mimeType;
  if (type === undefined) throw new Error(`unknown export format: ${String(format)}`);
  const root = exportClone(scene);
  switch (format) {
    case 'obj':
      return new Blob([await toObjZip(root)], { type });
    case 'stl':
    case 'stl-z-up':
      return new Blob(
        [format === 'stl-z-up' ? toStl(root, { zUp: true, ...options }) : toStl(root)],
        { type },
      );
    case 'usdz':
      return new Blob([await toUsdz(root)], { type });
  }
}
