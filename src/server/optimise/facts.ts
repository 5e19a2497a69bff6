import { ImageUtils, Primitive, getBounds, type Document } from '@gltf-transform/core';
import type { OptimiseFacts } from '../../contract/index.ts';

/** Triangles a primitive draws (lists, strips and fans; other modes draw none). */
function primitiveTriangles(prim: Primitive): number {
  const n = prim.getIndices()?.getCount() ?? prim.getAttribute('POSITION')?.getCount() ?? 0;
  switch (prim.getMode()) {
    case Primitive.Mode.TRIANGLES:
      return Math.floor(n / 3);
    case Primitive.Mode.TRIANGLE_STRIP:
    case Primitive.Mode.TRIANGLE_FAN:
      return Math.max(0, n - 2);
    default:
      return 0;
  }
}

/** Triangles drawn by every mesh of the document. */
export function countTriangles(doc: Document): number {
  let total = 0;
  for (const mesh of doc.getRoot().listMeshes())
    for (const prim of mesh.listPrimitives()) total += primitiveTriangles(prim);
  return total;
}

/** The default scene (or the first one). */
export function mainScene(doc: Document) {
  const root = doc.getRoot();
  return root.getDefaultScene() ?? root.listScenes()[0];
}

/** The scene's box size in metres (x, y, z); zeros for an empty scene. */
function sceneSize(doc: Document): [number, number, number] {
  const scene = mainScene(doc);
  if (!scene) return [0, 0, 0];
  const { min, max } = getBounds(scene);
  const size = [0, 1, 2].map((k) => {
    const d = max[k]! - min[k]!;
    return Number.isFinite(d) ? Math.max(0, d) : 0;
  });
  return [size[0]!, size[1]!, size[2]!];
}

/** Triangles, vertices, textures and size of a glTF document whose file was `bytes` long. */
export function documentFacts(doc: Document, bytes: number): OptimiseFacts {
  const root = doc.getRoot();
  let vertices = 0;
  for (const mesh of root.listMeshes())
    for (const prim of mesh.listPrimitives())
      vertices += prim.getAttribute('POSITION')?.getCount() ?? 0;
  const textures = root.listTextures().map((t) => {
    const image = t.getImage();
    const mime = t.getMimeType();
    let size: [number, number] | null;
    try {
      size = image ? ImageUtils.getSize(image, mime) : null;
    } catch {
      size = null; // a format glTF-Transform cannot measure
    }
    return { width: size?.[0] ?? 0, height: size?.[1] ?? 0, mime_type: mime };
  });
  return {
    triangles: countTriangles(doc),
    vertices,
    bytes,
    textures,
    size_m: sceneSize(doc),
    extensions: root
      .listExtensionsUsed()
      .map((e) => e.extensionName)
      .sort(),
  };
}
