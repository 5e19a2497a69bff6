// Shared helpers for the generator's tests (not part of the public API).
import { readFile } from 'node:fs/promises';
import { NodeIO, type Document } from '@gltf-transform/core';
import { validateBytes, type ValidationReport } from 'gltf-validator';

/** Bytes of a fixture photo from /work/shared/fixtures/photos (resolved from this repo). */
export async function photo(name: string): Promise<Uint8Array> {
  return new Uint8Array(
    await readFile(new URL(`../../../shared/fixtures/photos/${name}`, import.meta.url)),
  );
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
