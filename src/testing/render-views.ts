// Tests only: a generated model seen from the four sides, drawn in software: which pixels it
// covers (silhouettes) and their colours, to compare with the photos it was made from.
import type { Document, Node as GltfNode } from '@gltf-transform/core';
import sharp from 'sharp';
import type { Mask } from '../generator/photo/mask.ts';

export type ViewName = 'front' | 'right' | 'back' | 'left';

/**
 * Screen coordinates (x right, y up) of a world point seen from `view`: front = camera on +Z,
 * right = on +X, back = on −Z, left = on −X, all looking at the origin with Y up.
 */
function project(view: ViewName, x: number, y: number, z: number): [number, number] {
  switch (view) {
    case 'front':
      return [x, y];
    case 'right':
      return [-z, y];
    case 'back':
      return [-x, y];
    case 'left':
      return [z, y];
  }
}

/** Every triangle of the document's default scene in world space, 9 numbers per triangle. */
export function worldTriangles(doc: Document): Float64Array {
  const out: number[] = [];
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  scene?.traverse((node) => {
    const mesh = node.getMesh();
    if (!mesh) return;
    const m = node.getWorldMatrix();
    for (const prim of mesh.listPrimitives()) {
      const p = prim.getAttribute('POSITION')!.getArray()!;
      const idx = prim.getIndices()?.getArray();
      const count = idx ? idx.length : p.length / 3;
      for (let i = 0; i < count; i++) {
        const v = (idx ? idx[i]! : i) * 3;
        const [x, y, z] = [p[v]!, p[v + 1]!, p[v + 2]!];
        out.push(
          m[0] * x + m[4] * y + m[8] * z + m[12],
          m[1] * x + m[5] * y + m[9] * z + m[13],
          m[2] * x + m[6] * y + m[10] * z + m[14],
        );
      }
    }
  });
  return Float64Array.from(out);
}

/**
 * Orthographic silhouette of all triangles of a document seen from `view`, rasterised (sample
 * centres) onto a width × height grid that exactly covers the silhouette's own bounding box,
 * i.e. normalised by its bounding box. Row 0 is the top.
 */
export function renderSilhouette(
  doc: Document,
  view: ViewName,
  width: number,
  height: number,
): Mask {
  const tris = worldTriangles(doc);
  const pts = new Float64Array((tris.length / 3) * 2);
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (let v = 0; v < tris.length / 3; v++) {
    const [sx, sy] = project(view, tris[v * 3]!, tris[v * 3 + 1]!, tris[v * 3 + 2]!);
    pts[v * 2] = sx;
    pts[v * 2 + 1] = sy;
    x0 = Math.min(x0, sx);
    x1 = Math.max(x1, sx);
    y0 = Math.min(y0, sy);
    y1 = Math.max(y1, sy);
  }
  const inside = new Uint8Array(width * height);
  const w = Math.max(x1 - x0, 1e-12);
  const h = Math.max(y1 - y0, 1e-12);
  // Grid coordinates: gx in 0..width, gy in 0..height (down).
  const gx = (sx: number): number => ((sx - x0) / w) * width;
  const gy = (sy: number): number => ((y1 - sy) / h) * height;
  for (let t = 0; t < pts.length; t += 6) {
    const ax = gx(pts[t]!);
    const ay = gy(pts[t + 1]!);
    const bx = gx(pts[t + 2]!);
    const by = gy(pts[t + 3]!);
    const cx = gx(pts[t + 4]!);
    const cy = gy(pts[t + 5]!);
    const area = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
    if (Math.abs(area) < 1e-12) continue;
    const minX = Math.max(0, Math.floor(Math.min(ax, bx, cx) - 0.5));
    const maxX = Math.min(width - 1, Math.ceil(Math.max(ax, bx, cx) - 0.5));
    const minY = Math.max(0, Math.floor(Math.min(ay, by, cy) - 0.5));
    const maxY = Math.min(height - 1, Math.ceil(Math.max(ay, by, cy) - 0.5));
    const sign = area > 0 ? 1 : -1;
    const eps = -1e-9;
    for (let j = minY; j <= maxY; j++) {
      const py = j + 0.5;
      for (let i = minX; i <= maxX; i++) {
        const px = i + 0.5;
        const e0 = sign * ((bx - ax) * (py - ay) - (by - ay) * (px - ax));
        const e1 = sign * ((cx - bx) * (py - by) - (cy - by) * (px - bx));
        const e2 = sign * ((ax - cx) * (py - cy) - (ay - cy) * (px - cx));
        if (e0 >= eps && e1 >= eps && e2 >= eps) inside[j * width + i] = 1;
      }
    }
  }
  return { width, height, inside };
}

/** A picture of a model's colours seen from one side (see {@link renderColours}). */
export interface ColourView {
  width: number;
  height: number;
  /** RGB 0..255 per pixel, row 0 on top; 0 where nothing is drawn. */
  rgb: Float32Array;
  /** 1 where the model covers the pixel. */
  inside: Uint8Array;
}

/** Depth towards the camera of `view` (larger is nearer). */
function towardCamera(view: ViewName, x: number, z: number): number {
  switch (view) {
    case 'front':
      return z;
    case 'right':
      return x;
    case 'back':
      return -z;
    case 'left':
      return -x;
  }
}

/**
 * The model's base colour (texture × factor, unlit) seen orthographically from `view`, the
 * nearest surface per pixel, on a width × height grid covering the silhouette's bounding box
 * (as {@link renderSilhouette} frames it). Textures are looked up at the nearest texel.
 */
export async function renderColours(
  doc: Document,
  view: ViewName,
  width: number,
  height: number,
): Promise<ColourView> {
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  interface Tri {
    p: number[];
    uv: number[];
    tex?: { data: Buffer; w: number; h: number };
    factor: number[];
  }
  const tris: Tri[] = [];
  const nodes: GltfNode[] = [];
  scene?.traverse((node) => void nodes.push(node));
  for (const node of nodes) {
    const mesh = node.getMesh();
    if (!mesh) continue;
    const m = node.getWorldMatrix();
    for (const prim of mesh.listPrimitives()) {
      const material = prim.getMaterial();
      const image = material?.getBaseColorTexture()?.getImage();
      let tex: Tri['tex'];
      if (image) {
        const { data, info } = await sharp(image)
          .removeAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true });
        tex = { data, w: info.width, h: info.height };
      }
      const factor = (material?.getBaseColorFactor() ?? [1, 1, 1, 1]).slice(0, 3);
      const pos = prim.getAttribute('POSITION')!.getArray()!;
      const uvs = prim.getAttribute('TEXCOORD_0')?.getArray();
      const idx = prim.getIndices()?.getArray();
      const count = idx ? idx.length : pos.length / 3;
      for (let t = 0; t < count; t += 3) {
        const p: number[] = [];
        const uv: number[] = [];
        for (let k = 0; k < 3; k++) {
          const v = idx ? idx[t + k]! : t + k;
          const [x, y, z] = [pos[v * 3]!, pos[v * 3 + 1]!, pos[v * 3 + 2]!];
          p.push(
            m[0] * x + m[4] * y + m[8] * z + m[12],
            m[1] * x + m[5] * y + m[9] * z + m[13],
            m[2] * x + m[6] * y + m[10] * z + m[14],
          );
          uv.push(uvs ? uvs[v * 2]! : 0, uvs ? uvs[v * 2 + 1]! : 0);
        }
        tris.push({ p, uv, ...(tex ? { tex } : {}), factor });
      }
    }
  }
  let x0 = Infinity;
  let x1 = -Infinity;
  let y0 = Infinity;
  let y1 = -Infinity;
  for (const t of tris)
    for (let k = 0; k < 9; k += 3) {
      const [sx, sy] = project(view, t.p[k]!, t.p[k + 1]!, t.p[k + 2]!);
      x0 = Math.min(x0, sx);
      x1 = Math.max(x1, sx);
      y0 = Math.min(y0, sy);
      y1 = Math.max(y1, sy);
    }
  const w = Math.max(x1 - x0, 1e-12);
  const h = Math.max(y1 - y0, 1e-12);
  const depth = new Float64Array(width * height).fill(-Infinity);
  const rgb = new Float32Array(width * height * 3);
  const inside = new Uint8Array(width * height);
  for (const t of tris) {
    const g = [0, 3, 6].map((k) => {
      const [sx, sy] = project(view, t.p[k]!, t.p[k + 1]!, t.p[k + 2]!);
      return [
        ((sx - x0) / w) * width,
        ((y1 - sy) / h) * height,
        towardCamera(view, t.p[k]!, t.p[k + 2]!),
      ];
    }) as [[number, number, number], [number, number, number], [number, number, number]];
    const [[ax, ay], [bx, by], [cx, cy]] = g;
    const area = (bx! - ax!) * (cy! - ay!) - (by! - ay!) * (cx! - ax!);
    if (Math.abs(area) < 1e-12) continue;
    const minX = Math.max(0, Math.floor(Math.min(ax!, bx!, cx!) - 0.5));
    const maxX = Math.min(width - 1, Math.ceil(Math.max(ax!, bx!, cx!) - 0.5));
    const minY = Math.max(0, Math.floor(Math.min(ay!, by!, cy!) - 0.5));
    const maxY = Math.min(height - 1, Math.ceil(Math.max(ay!, by!, cy!) - 0.5));
    for (let j = minY; j <= maxY; j++) {
      const py = j + 0.5;
      for (let i = minX; i <= maxX; i++) {
        const px = i + 0.5;
        const wa = ((bx! - px) * (cy! - py) - (by! - py) * (cx! - px)) / area;
        const wb = ((cx! - px) * (ay! - py) - (cy! - py) * (ax! - px)) / area;
        const wc = 1 - wa - wb;
        if (wa < -1e-9 || wb < -1e-9 || wc < -1e-9) continue;
        const d = wa * g[0]![2] + wb * g[1]![2] + wc * g[2]![2];
        const o = j * width + i;
        if (d <= depth[o]!) continue;
        depth[o] = d;
        inside[o] = 1;
        let colour = [255, 255, 255];
        if (t.tex) {
          const u = wa * t.uv[0]! + wb * t.uv[2]! + wc * t.uv[4]!;
          const v = wa * t.uv[1]! + wb * t.uv[3]! + wc * t.uv[5]!;
          const tx = Math.min(t.tex.w - 1, Math.max(0, Math.floor(u * t.tex.w)));
          const ty = Math.min(t.tex.h - 1, Math.max(0, Math.floor(v * t.tex.h)));
          const q = (ty * t.tex.w + tx) * 3;
          colour = [t.tex.data[q]!, t.tex.data[q + 1]!, t.tex.data[q + 2]!];
        }
        for (let k = 0; k < 3; k++) rgb[o * 3 + k] = colour[k]! * t.factor[k]!;
      }
    }
  }
  return { width, height, rgb, inside };
}
