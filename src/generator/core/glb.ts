import { Document, NodeIO, type Material, type Texture } from '@gltf-transform/core';
import type { EncodedTexture } from './raster.ts';
import type { MeshData } from './mesh.ts';

/** A PBR metallic-roughness material. Specs are shared by identity: same object, same material. */
export interface MaterialSpec {
  name: string;
  /** Linear RGBA; multiplies the texture when there is one. Default white. */
  baseColor?: readonly [number, number, number, number];
  baseColorTexture?: EncodedTexture;
  metallic: number;
  roughness: number;
}

export interface PrimitiveSpec {
  mesh: MeshData;
  material: MaterialSpec;
}

const GENERATOR = 'Kiln local generator';

// glTF sampler constants (WebGL enums).
const CLAMP_TO_EDGE = 33071;
const LINEAR = 9729;
const LINEAR_MIPMAP_LINEAR = 9987;

/**
 * Positions of all primitives moved so the model stands on the ground plane: lowest point at
 * y = 0, bounding box centred on x = 0 and z = 0. Returns new arrays.
 */
function grounded(primitives: readonly PrimitiveSpec[]): Float32Array[] {
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const { mesh } of primitives) {
    const p = mesh.positions;
    for (let i = 0; i < p.length; i += 3) {
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, p[i + k]!);
        max[k] = Math.max(max[k]!, p[i + k]!);
      }
    }
  }
  const shift = [-(min[0]! + max[0]!) / 2, -min[1]!, -(min[2]! + max[2]!) / 2];
  return primitives.map(({ mesh }) => {
    const p = new Float32Array(mesh.positions);
    for (let i = 0; i < p.length; i += 3) {
      for (let k = 0; k < 3; k++) p[i + k] = p[i + k]! + shift[k]!;
    }
    return p;
  });
}

/**
 * Builds a one-node glTF scene from the given primitives and returns it as GLB bytes. The
 * model is placed on the ground plane (lowest point at y = 0, centred on x and z); sizes are
 * kept (callers build in metres). Primitives without triangles are left out.
 * Indices use 16 bits when the vertex count allows it.
 *
 * @throws Error when no primitive has a triangle (an internal error: inputs that lead to an
 *   empty model must be refused before, with a GeneratorInputError).
 */
export async function writeGlb(
  name: string,
  primitives: readonly PrimitiveSpec[],
): Promise<Uint8Array> {
  const doc = new Document();
  doc.getRoot().getAsset().generator = GENERATOR;
  const buffer = doc.createBuffer();
  const materials = new Map<MaterialSpec, Material>();
  const textures = new Map<EncodedTexture, Texture>();

  const textureFor = (encoded: EncodedTexture): Texture => {
    let texture = textures.get(encoded);
    if (!texture) {
      texture = doc
        .createTexture(`${name}-texture-${textures.size}`)
        .setImage(encoded.bytes)
        .setMimeType(encoded.mimeType);
      textures.set(encoded, texture);
    }
    return texture;
  };

  const materialFor = (spec: MaterialSpec): Material => {
    let material = materials.get(spec);
    if (!material) {
      material = doc
        .createMaterial(spec.name)
        .setBaseColorFactor([...(spec.baseColor ?? [1, 1, 1, 1])])
        .setMetallicFactor(spec.metallic)
        .setRoughnessFactor(spec.roughness);
      if (spec.baseColorTexture) {
        material.setBaseColorTexture(textureFor(spec.baseColorTexture));
        material
          .getBaseColorTextureInfo()!
          .setWrapS(CLAMP_TO_EDGE)
          .setWrapT(CLAMP_TO_EDGE)
          .setMagFilter(LINEAR)
          .setMinFilter(LINEAR_MIPMAP_LINEAR);
      }
      materials.set(spec, material);
    }
    return material;
  };

  const kept = primitives.filter((p) => p.mesh.indices.length >= 3);
  if (kept.length === 0) throw new Error(`${name}: the model has no triangles`);
  const positions = grounded(kept);
  const mesh = doc.createMesh(name);
  for (const [i, { mesh: data, material }] of kept.entries()) {
    const vertexCount = data.positions.length / 3;
    const indices = vertexCount <= 0xffff ? Uint16Array.from(data.indices) : data.indices;
    const primitive = doc
      .createPrimitive()
      .setAttribute(
        'POSITION',
        doc.createAccessor().setType('VEC3').setArray(positions[i]!).setBuffer(buffer),
      )
      .setAttribute(
        'NORMAL',
        doc.createAccessor().setType('VEC3').setArray(data.normals).setBuffer(buffer),
      )
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(indices).setBuffer(buffer))
      .setMaterial(materialFor(material));
    if (data.uvs) {
      primitive.setAttribute(
        'TEXCOORD_0',
        doc.createAccessor().setType('VEC2').setArray(data.uvs).setBuffer(buffer),
      );
    }
    mesh.addPrimitive(primitive);
  }
  const node = doc.createNode(name).setMesh(mesh);
  doc.getRoot().setDefaultScene(doc.createScene(name).addChild(node));
  return new NodeIO().writeBinary(doc);
}
