// Facts about a GLB for the viewer's facts panel, read straight from the binary container:
// the 12-byte header, the JSON chunk and the BIN chunk. Pure (no DOM, no loaders, no decoding
// of Draco/Meshopt data): counts come from accessor `count`s and bounds from POSITION `min`/
// `max`, which glTF keeps in the JSON even when the geometry itself is compressed.
import { Box3, Vector3 } from 'three';
import { imageSize } from '../../../../formats/index.ts';
import { Reader, dataUriBytes } from './accessors.ts';
import {
  type Json,
  finite,
  isIndex,
  isObject,
  list,
  objectAt,
  readContainer,
  string,
} from './glb-container.ts';
import {
  expandByBox,
  expandBySkinnedPrimitive,
  meshInstances,
  trianglesOf,
} from './scene-bounds.ts';

// The pieces, for the panel and the tests.
export { GlbFormatError } from './glb-container.ts';
export { formatCount } from './format-facts.ts';
export { imageSize } from '../../../../formats/index.ts';

import type { Vec3 } from './accessors.ts';

/** World-space axis-aligned box of the default scene, in file units (glTF: metres). */
interface GlbBounds {
  min: Vec3;
  max: Vec3;
  size: Vec3;
}

interface GlbTexture {
  /** Index in the file's `textures`. */
  index: number;
  /** The texture's name, else its image's name. */
  name: string | null;
  /** The image's declared MIME type, else the one its bytes show. */
  mimeType: string | null;
  /** From the image bytes' header; null when unknown (external URI, unrecognised format). */
  width: number | null;
  height: number | null;
}

interface GlbAnimation {
  name: string | null;
  channels: number;
  /** Seconds: the largest keyframe time of its samplers (input accessor `max`). */
  duration: number;
}

export interface GlbFacts {
  fileBytes: number;
  /** `asset.generator`. */
  generator: string | null;
  /** `asset.version` ("2.0"). */
  version: string | null;
  /**
   * Triangles drawn by the default scene: every mesh instance counts (a mesh used by two nodes
   * twice; EXT_mesh_gpu_instancing multiplies by its instance count). Triangle lists give
   * count / 3, strips and fans count − 2; points and lines none.
   */
  triangles: number;
  /** POSITION accessor counts, per primitive per instance, as for `triangles`. */
  vertices: number;
  /** Lengths of the file's arrays (each mesh and primitive once, however often it is used). */
  meshes: number;
  primitives: number;
  nodes: number;
  materials: number;
  textures: GlbTexture[];
  animations: GlbAnimation[];
  extensionsUsed: string[];
  extensionsRequired: string[];
  /** Null when the default scene draws no geometry. */
  bounds: GlbBounds | null;
  /** True when skinned meshes are measured as their joints pose them in the file. */
  posed: boolean;
  /**
   * True when a skinned mesh's vertices cannot be read from the bytes (Draco or Meshopt
   * compressed, sparse), so where its joints put them is unknown here: `bounds` is then null and
   * the viewer, which decodes them, measures the figure as posed in the file.
   */
  skinUnread: boolean;
}

/**
 * KHR_draco_mesh_compression: the primitive's accessors have no buffer view (they would read as
 * zeros); its vertices are in the extension's compressed buffer view.
 */
function isDracoCompressed(primitive: Json): boolean {
  return isObject(primitive.extensions) && 'KHR_draco_mesh_compression' in primitive.extensions;
}

/** Extensions whose `source` replaces the texture's own (the image a capable viewer shows). */
const TEXTURE_SOURCE_EXTENSIONS = [
  'KHR_texture_basisu',
  'EXT_texture_webp',
  'EXT_texture_avif',
  'MSFT_texture_dds',
];

function textureFacts(reader: Reader): GlbTexture[] {
  const { json } = reader;
  return list(json.textures).map((value, index): GlbTexture => {
    const texture = isObject(value) ? value : {};
    const extensions = isObject(texture.extensions) ? texture.extensions : {};
    let source: unknown = texture.source;
    for (const name of TEXTURE_SOURCE_EXTENSIONS) {
      const extension = extensions[name];
      if (isObject(extension) && isIndex(extension.source)) {
        source = extension.source;
        break;
      }
    }
    const image = objectAt(json.images, source);
    let bytes: Uint8Array | null = null;
    let uriMimeType: string | null = null;
    if (image) {
      const uri = string(image.uri);
      if (image.bufferView !== undefined)
        bytes = reader.bufferView(image.bufferView)?.bytes ?? null;
      else if (uri?.startsWith('data:')) {
        const decoded = dataUriBytes(uri);
        bytes = decoded?.bytes ?? null;
        uriMimeType = decoded?.mimeType ?? null;
      }
    }
    const size = bytes ? imageSize(bytes) : null;
    return {
      index,
      name: string(texture.name) ?? string(image?.name) ?? null,
      mimeType: string(image?.mimeType) ?? size?.mimeType ?? uriMimeType,
      width: size?.width ?? null,
      height: size?.height ?? null,
    };
  });
}

function animationFacts(reader: Reader): GlbAnimation[] {
  return list(reader.json.animations).map((value): GlbAnimation => {
    const animation = isObject(value) ? value : {};
    const samplers = list(animation.samplers);
    let duration = 0;
    for (const sampler of samplers) {
      if (!isObject(sampler)) continue;
      const max = reader.max1(sampler.input);
      if (max !== undefined && max > duration) duration = max;
    }
    return {
      name: string(animation.name),
      channels: list(animation.channels).length,
      duration,
    };
  });
}

function strings(value: unknown): string[] {
  return list(value).filter((v): v is string => typeof v === 'string');
}

/**
 * Reads a GLB's facts for the facts panel. Throws GlbFormatError when the bytes are not a GLB
 * 2.0 container with a JSON chunk; past that it is lenient (references that lead nowhere are
 * skipped: the validator is the place to hear about them).
 */
export function glbFacts(bytes: Uint8Array): GlbFacts {
  const { json, bin } = readContainer(bytes);
  const reader = new Reader(json, bin);
  const asset = isObject(json.asset) ? json.asset : {};

  let triangles = 0;
  let vertices = 0;
  const box = new Box3();
  let posed = false;
  let skinUnread = false;
  for (const { mesh, copies, matrices, joints } of meshInstances(reader)) {
    for (const value of list(mesh.primitives)) {
      if (!isObject(value)) continue;
      const attributes = isObject(value.attributes) ? value.attributes : {};
      const positions = reader.count(attributes.POSITION);
      const count = value.indices !== undefined ? reader.count(value.indices) : positions;
      const mode = finite(value.mode) ?? 4;
      triangles += trianglesOf(mode, count) * copies;
      vertices += positions * copies;
      // A skinned mesh is measured where its joints put each vertex (the pose the file is in,
      // which the viewer shows and frames), not by its whole box through every joint. Compressed
      // vertices cannot be read here: the viewer measures them once decoded.
      if (joints) {
        if (!isDracoCompressed(value) && expandBySkinnedPrimitive(box, reader, attributes, joints))
          posed = true;
        else skinUnread = true;
        continue;
      }
      const range = reader.range3(attributes.POSITION);
      if (range) for (const matrix of matrices) expandByBox(box, range.min, range.max, matrix);
    }
  }

  // Part of a figure would be a wrong size: with a skinned mesh unread, the viewer gives it all.
  const bounds: GlbBounds | null =
    skinUnread || box.isEmpty()
      ? null
      : {
          min: box.min.toArray(),
          max: box.max.toArray(),
          size: box.getSize(new Vector3()).toArray(),
        };

  return {
    fileBytes: bytes.byteLength,
    generator: string(asset.generator),
    version: string(asset.version),
    triangles,
    vertices,
    meshes: list(json.meshes).length,
    primitives: list(json.meshes).reduce<number>(
      (sum, mesh) => sum + (isObject(mesh) ? list(mesh.primitives).length : 0),
      0,
    ),
    nodes: list(json.nodes).length,
    materials: list(json.materials).length,
    textures: textureFacts(reader),
    animations: animationFacts(reader),
    extensionsUsed: strings(json.extensionsUsed),
    extensionsRequired: strings(json.extensionsRequired),
    bounds,
    posed,
    skinUnread,
  };
}
