// Shared helpers for the generator's tests (not part of the public API).
import { readFile } from 'node:fs/promises';
import { NodeIO, type Document, type Node as GltfNode } from '@gltf-transform/core';
import { validateBytes, type ValidationReport } from 'gltf-validator';
import sharp from 'sharp';
import { expect } from 'vitest';
import { photoPath } from './fixtures.ts';
import { GeneratorInputError } from '../generator/core/errors.ts';
import { maskBounds, type Mask } from '../generator/photo/mask.ts';

/** Bytes of a fixture photo (fixtures/photos). */
export async function photo(name: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(photoPath(name)));
}

export interface GlbSummary {
  magic: string;
  version: number;
  report: ValidationReport;
  doc: Document;
  triangles: number;
  /** MIME types of the base colour textures of all materials, in material order. */
  textureMimeTypes: (string | null)[];
  /** Axis-aligned bounds of all POSITION accessors. */
  min: [number, number, number];
  max: [number, number, number];
}

/** Checks the GLB header, runs gltf-validator and reads the asset back with glTF-Transform. */
export async function inspectGlb(glb: Uint8Array): Promise<GlbSummary> {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const magic = new TextDecoder().decode(glb.subarray(0, 4));
  const version = view.getUint32(4, true);
  const report = await validateBytes(glb, { writeTimestamp: false, maxIssues: 0 });
  const doc = await new NodeIO().readBinary(glb);
  let triangles = 0;
  const min: [number, number, number] = [Infinity, Infinity, Infinity];
  const max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  for (const mesh of doc.getRoot().listMeshes()) {
    for (const prim of mesh.listPrimitives()) {
      triangles += (prim.getIndices()?.getCount() ?? 0) / 3;
      const position = prim.getAttribute('POSITION');
      if (!position) continue;
      const lo = position.getMin([]);
      const hi = position.getMax([]);
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(min[k]!, lo[k]!);
        max[k] = Math.max(max[k]!, hi[k]!);
      }
    }
  }
  const textureMimeTypes = doc
    .getRoot()
    .listMaterials()
    .map((m) => m.getBaseColorTexture()?.getMimeType() ?? null);
  return { magic, version, report, doc, triangles, textureMimeTypes, min, max };
}

/** Issue codes for the report's errors and warnings (for readable assertion failures). */
export function problems(report: ValidationReport): string[] {
  return report.issues.messages
    .filter((m) => m.severity <= 1)
    .map((m) => `${m.code}: ${m.message} (${m.pointer ?? ''})`);
}

/**
 * Fraction of triangles whose winding (counter-clockwise = front) agrees with their vertex
 * normals; 1 when every face points outward as glTF expects.
 */
export function windingAgreement(doc: Document): number {
  let agree = 0;
  let total = 0;
  for (const prim of doc
    .getRoot()
    .listMeshes()
    .flatMap((m) => m.listPrimitives())) {
    const p = prim.getAttribute('POSITION')!.getArray()!;
    const n = prim.getAttribute('NORMAL')!.getArray()!;
    const idx = prim.getIndices()!.getArray()!;
    for (let t = 0; t < idx.length; t += 3) {
      const [a, b, c] = [idx[t]! * 3, idx[t + 1]! * 3, idx[t + 2]! * 3];
      const u = [p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!];
      const v = [p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!];
      const face = [
        u[1]! * v[2]! - u[2]! * v[1]!,
        u[2]! * v[0]! - u[0]! * v[2]!,
        u[0]! * v[1]! - u[1]! * v[0]!,
      ];
      let dot = 0;
      for (const i of [a, b, c]) for (let k = 0; k < 3; k++) dot += face[k]! * n[i + k]!;
      if (dot > 0) agree++;
      total++;
    }
  }
  return total === 0 ? 0 : agree / total;
}

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

/** Crops a mask to its bounding box and resamples it (nearest sample) to width × height. */
export function normaliseMask(mask: Mask, width: number, height: number): Mask {
  const b = maskBounds(mask);
  const inside = new Uint8Array(width * height);
  if (!b) return { width, height, inside };
  const bw = b.x1 - b.x0 + 1;
  const bh = b.y1 - b.y0 + 1;
  for (let j = 0; j < height; j++) {
    const sy = b.y0 + Math.min(bh - 1, Math.floor(((j + 0.5) * bh) / height));
    for (let i = 0; i < width; i++) {
      const sx = b.x0 + Math.min(bw - 1, Math.floor(((i + 0.5) * bw) / width));
      inside[j * width + i] = mask.inside[sy * mask.width + sx]!;
    }
  }
  return { width, height, inside };
}

/** Intersection over union of two masks of the same size. */
export function iou(a: Mask, b: Mask): number {
  if (a.width !== b.width || a.height !== b.height) throw new Error('mask sizes differ');
  let both = 0;
  let either = 0;
  for (let s = 0; s < a.inside.length; s++) {
    if (a.inside[s] && b.inside[s]) both++;
    if (a.inside[s] || b.inside[s]) either++;
  }
  return either === 0 ? 0 : both / either;
}

/** Signed volume enclosed by all triangles (positive when they face outward). */
export function signedVolume(doc: Document): number {
  const t = worldTriangles(doc);
  let volume = 0;
  for (let i = 0; i < t.length; i += 9) {
    const [ax, ay, az, bx, by, bz, cx, cy, cz] = t.subarray(i, i + 9);
    volume +=
      (ax! * (by! * cz! - bz! * cy!) -
        ay! * (bx! * cz! - bz! * cx!) +
        az! * (bx! * cy! - by! * cx!)) /
      6;
  }
  return volume;
}

/**
 * Every triangle of the document as three vertex ids, vertices welded by position across
 * primitives (so edges can be matched between parts).
 */
export function weldedTriangles(doc: Document): [number, number, number][] {
  const t = worldTriangles(doc);
  const ids = new Map<string, number>();
  const id = (i: number): number => {
    const key = `${t[i]},${t[i + 1]},${t[i + 2]}`;
    let n = ids.get(key);
    if (n === undefined) ids.set(key, (n = ids.size));
    return n;
  };
  const out: [number, number, number][] = [];
  for (let i = 0; i < t.length; i += 9) out.push([id(i), id(i + 3), id(i + 6)]);
  return out;
}

/**
 * Edges of the surface not shared by exactly two triangles, with vertices welded by position
 * across primitives: 0 for a closed (watertight), edge-manifold surface.
 */
export function edgeDefects(doc: Document): number {
  const uses = new Map<string, number>();
  for (const v of weldedTriangles(doc)) {
    for (let k = 0; k < 3; k++) {
      const a = v[k]!;
      const b = v[(k + 1) % 3]!;
      const key = a < b ? `${a},${b}` : `${b},${a}`;
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
  }
  let defects = 0;
  for (const n of uses.values()) if (n !== 2) defects++;
  return defects;
}

/**
 * The photo's alpha channel as a mask (alpha ≥ 128), cropped to its bounding box and resampled
 * to width × height, as renderSilhouette draws a model; undefined for a photo with no
 * transparent pixel.
 */
export async function alphaSilhouette(
  bytes: Uint8Array,
  width = 256,
  height = 256,
): Promise<Mask | undefined> {
  const { data, info } = await sharp(bytes)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const inside = new Uint8Array(info.width * info.height);
  let transparent = 0;
  for (let i = 0; i < inside.length; i++) {
    inside[i] = data[i * 4 + 3]! >= 128 ? 1 : 0;
    transparent += 1 - inside[i]!;
  }
  if (transparent === 0) return undefined;
  return normaliseMask({ width: info.width, height: info.height, inside }, width, height);
}

/** Awaits a generator call that must fail with a GeneratorInputError whose message matches. */
export async function expectInputError(
  promise: Promise<unknown>,
  pattern: RegExp,
): Promise<GeneratorInputError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GeneratorInputError);
  expect((error as Error).message).toMatch(pattern);
  return error as GeneratorInputError;
}

/**
 * What every generator output promises: a GLB 2.0 the validator passes with no errors and no
 * warnings, standing on the ground plane (lowest point y = 0), centred on x and z, with
 * power-of-two textures, positive volume, faces wound to agree with their normals, and a closed
 * surface: watertight and edge-manifold (every edge, vertices welded by position across
 * primitives, shared by exactly two triangles; {@link edgeDefects}).
 */
export function expectCleanModel(glb: GlbSummary): void {
  expect(glb.magic).toBe('glTF');
  expect(glb.version).toBe(2);
  expect(glb.report.issues.numErrors, problems(glb.report).join('\n')).toBe(0);
  expect(glb.report.issues.numWarnings, problems(glb.report).join('\n')).toBe(0);
  expect(glb.min[1]).toBeCloseTo(0, 5);
  for (const k of [0, 2]) expect(Math.abs(glb.max[k]! + glb.min[k]!) / 2).toBeLessThan(1e-4);
  for (const texture of glb.doc.getRoot().listTextures()) {
    const [w, h] = texture.getSize() ?? [0, 0];
    expect(Math.log2(w) % 1, `${w}×${h}`).toBe(0);
    expect(Math.log2(h) % 1, `${w}×${h}`).toBe(0);
  }
  expect(signedVolume(glb.doc)).toBeGreaterThan(0);
  expect(windingAgreement(glb.doc)).toBeGreaterThan(0.99);
  expect(edgeDefects(glb.doc), 'edges not shared by exactly two triangles').toBe(0);
}
