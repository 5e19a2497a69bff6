import { Document } from '@gltf-transform/core';

/**
 * A torus (major radius 0.35, minor 0.15) of `radial × tubular` quads, two triangles each,
 * with positions, normals and uint32 indices.
 */
export function largeTorus(radial = 512, tubular = 256): Document {
  const R = 0.35;
  const r = 0.15;
  const cols = radial + 1;
  const rows = tubular + 1;
  const vertexCount = cols * rows;
  const positions = new Float32Array(vertexCount * 3);
  const normals = new Float32Array(vertexCount * 3);
  for (let j = 0; j < rows; j++) {
    const v = j / tubular;
    const phi = v * 2 * Math.PI;
    const cosPhi = Math.cos(phi);
    const sinPhi = Math.sin(phi);
    for (let i = 0; i < cols; i++) {
      const u = i / radial;
      const theta = u * 2 * Math.PI;
      const cosTheta = Math.cos(theta);
      const sinTheta = Math.sin(theta);
      const k = j * cols + i;
      // The torus lies in the XZ plane around +Y.
      normals[3 * k] = cosPhi * cosTheta;
      normals[3 * k + 1] = sinPhi;
      normals[3 * k + 2] = cosPhi * sinTheta;
      positions[3 * k] = (R + r * cosPhi) * cosTheta;
      positions[3 * k + 1] = r * sinPhi;
      positions[3 * k + 2] = (R + r * cosPhi) * sinTheta;
    }
  }
  const indices = new Uint32Array(radial * tubular * 6);
  let n = 0;
  for (let j = 0; j < tubular; j++) {
    for (let i = 0; i < radial; i++) {
      const a = j * cols + i;
      const b = a + 1;
      const c = a + cols;
      const d = c + 1;
      // Counter-clockwise seen from outside.
      indices[n++] = a;
      indices[n++] = c;
      indices[n++] = b;
      indices[n++] = b;
      indices[n++] = c;
      indices[n++] = d;
    }
  }

  const doc = new Document();
  const buffer = doc.createBuffer();
  const accessor = (name: string, type: 'VEC3' | 'SCALAR', array: Float32Array | Uint32Array) =>
    doc.createAccessor(name).setType(type).setArray(array).setBuffer(buffer);
  const material = doc
    .createMaterial('large-torus-material')
    .setBaseColorFactor([0.8, 0.45, 0.2, 1])
    .setMetallicFactor(0.1)
    .setRoughnessFactor(0.6);
  const prim = doc
    .createPrimitive()
    .setAttribute('POSITION', accessor('positions', 'VEC3', positions))
    .setAttribute('NORMAL', accessor('normals', 'VEC3', normals))
    .setIndices(accessor('indices', 'SCALAR', indices))
    .setMaterial(material);
  const mesh = doc.createMesh('large-torus').addPrimitive(prim);
  const node = doc.createNode('large-torus').setMesh(mesh);
  doc.getRoot().setDefaultScene(doc.createScene('scene').addChild(node));
  return doc;
}
