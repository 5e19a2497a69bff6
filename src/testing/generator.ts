// Shared helpers for the generator's tests (not part of the public API).
import { readFile } from 'node:fs/promises';
import { NodeIO, type Document } from '@gltf-transform/core';
import { validateBytes, type ValidationReport } from 'gltf-validator';
import sharp from 'sharp';
import { expect } from 'vitest';
import { photoPath } from './fixtures.ts';
import { GeneratorInputError } from '../generator/core/errors.ts';
import { maskBounds, type Mask } from '../generator/photo/mask.ts';
import { worldTriangles } from './render-views.ts';

export * from './render-views.ts';

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
