// The optimiser: one GLB in, the file a target wants out (a lighter GLB, or a printable STL),
// with facts about both. Pure computation on glTF-Transform; run on a worker thread (pool.ts).
import { getBounds, type Document } from '@gltf-transform/core';
import { center, dedup, draco, meshopt, prune, simplify, weld } from '@gltf-transform/functions';
import { MeshoptEncoder, MeshoptSimplifier } from 'meshoptimizer';
import type { OptimiseFacts, OptimisePlan } from '../../contract/index.ts';
import { countTriangles, documentFacts } from './facts.ts';
import { optimiseIO } from './io.ts';
import {
  boundsOf,
  closeHoles,
  edgeReport,
  encodeStl,
  isWatertight,
  meshDocument,
  placeOnFloor,
  weldTriangles,
  worldTriangles,
} from './print-mesh.ts';
import { compressTextures } from './textures.ts';

/** Hears how far the work is (0–100) and what is being done. */
export type Report = (progress: number, stage: string) => void;

export interface OptimiseOutput {
  format: 'glb' | 'stl';
  file: Uint8Array;
  /** STL: a GLB of the printed mesh, for the viewer; null for a GLB (the file is its own). */
  preview: Uint8Array | null;
  before: OptimiseFacts;
  after: OptimiseFacts;
  /** STL: every edge shared by two triangles; null for a GLB. */
  watertight: boolean | null;
  notes: string[];
}

/** A model that cannot be optimised as asked; the message says why, for the user. */
export class OptimiseInputError extends Error {
  override name = 'OptimiseInputError';
}

const count = (n: number) => n.toLocaleString('en');
const formatName = { webp: 'WebP', png: 'PNG', jpeg: 'JPEG', ktx2: 'KTX2', keep: '' } as const;

/** Optimises `source` (a GLB) as `plan` says. */
export async function optimiseModel(
  source: Uint8Array,
  plan: OptimisePlan,
  report: Report = () => {},
): Promise<OptimiseOutput> {
  report(2, 'Reading the model');
  const io = await optimiseIO();
  let doc: Document;
  try {
    doc = await io.readBinary(source);
  } catch (err) {
    throw new OptimiseInputError(
      `The model could not be read as a GLB: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const before = documentFacts(doc, source.byteLength);
  if (before.triangles === 0)
    throw new OptimiseInputError('The model has no triangles to optimise.');
  const notes: string[] = [];

  if (plan.triangles !== null && before.triangles > plan.triangles)
    notes.push(...(await simplifyTo(doc, plan.triangles, report)));

  if (plan.output === 'stl') return printable(doc, plan, before, notes, report);

  if (plan.texture_size !== null || plan.texture_format !== 'keep') {
    const what =
      plan.texture_format === 'keep'
        ? `Resizing textures to ${plan.texture_size} px`
        : `Encoding textures as ${formatName[plan.texture_format]}${plan.texture_size ? ` (≤ ${plan.texture_size} px)` : ''}`;
    if (doc.getRoot().listTextures().length > 0) report(45, what);
    notes.push(...(await compressTextures(doc, plan.texture_size, plan.texture_format)));
  }
  if (plan.pivot !== 'keep') {
    report(
      65,
      plan.pivot === 'bottom' ? 'Moving the pivot to the bottom centre' : 'Centring the pivot',
    );
    await doc.transform(center({ pivot: plan.pivot === 'bottom' ? 'below' : 'center' }));
  }
  if (plan.height_m !== null) {
    report(68, `Scaling to ${plan.height_m} m tall`);
    scaleToHeight(doc, plan.height_m);
  }
  await doc.transform(prune({ keepLeaves: true }), dedup());
  if (plan.compression === 'draco') {
    report(75, 'Compressing geometry (Draco)');
    await doc.transform(draco({ method: 'edgebreaker' }));
  } else if (plan.compression === 'meshopt') {
    report(75, 'Compressing geometry (Meshopt)');
    await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
  }
  report(85, 'Writing the GLB');
  doc.getRoot().getAsset().generator =
    `Kiln optimise (${plan.preset}); ${doc.getRoot().getAsset().generator ?? ''}`.trim();
  const file = await io.writeBinary(doc);
  // Read back with the decoders: what the facts say is what a viewer will see.
  report(92, 'Checking the result');
  const after = documentFacts(await io.readBinary(file), file.byteLength);
  return { format: 'glb', file, preview: null, before, after, watertight: null, notes };
}

/** Simplifies to at most `target` triangles (welded first; a few passes when one falls short). */
async function simplifyTo(doc: Document, target: number, report: Report): Promise<string[]> {
  report(10, 'Welding vertices');
  await doc.transform(weld());
  for (let pass = 0; pass < 6; pass++) {
    const now = countTriangles(doc);
    if (now <= target) break;
    report(
      Math.min(40, 15 + pass * 5),
      `Simplifying ${count(now)} → ${count(target)} triangles (meshoptimizer)`,
    );
    await doc.transform(
      simplify({
        simplifier: MeshoptSimplifier,
        // Slightly under the ratio: simplify stops at or above it.
        ratio: Math.min(1, (target / now) * 0.98),
        // The target is the limit the user asked for; the error bound would stop short of it.
        error: 1,
      }),
    );
  }
  const reached = countTriangles(doc);
  if (reached <= target) return [];
  const parts = doc
    .getRoot()
    .listMeshes()
    .reduce((n, m) => n + m.listPrimitives().length, 0);
  return [
    `Simplified to ${count(reached)} triangles, not ${count(target)}: the model's ${parts} part${parts === 1 ? '' : 's'} cannot lose more without disappearing.`,
  ];
}

/** Wraps each scene in a node that scales it to `height` metres tall (y). */
function scaleToHeight(doc: Document, height: number): void {
  for (const scene of doc.getRoot().listScenes()) {
    const { min, max } = getBounds(scene);
    const tall = max[1] - min[1];
    if (!(tall > 0) || !Number.isFinite(tall))
      throw new OptimiseInputError('The model has no height to scale (it is empty or flat).');
    const s = height / tall;
    const wrapper = doc.createNode('Kiln scale').setScale([s, s, s]);
    for (const child of scene.listChildren()) wrapper.addChild(child);
    scene.addChild(wrapper);
  }
}

/** The 3D print path: a welded, watertight mesh `height_m` tall, as binary STL in millimetres. */
async function printable(
  doc: Document,
  plan: OptimisePlan,
  before: OptimiseFacts,
  notes: string[],
  report: Report,
): Promise<OptimiseOutput> {
  report(45, 'Collecting triangles in world space');
  const height = plan.height_m ?? before.size_m[1];
  let soup: Float64Array;
  try {
    soup = placeOnFloor(worldTriangles(doc), height);
  } catch (err) {
    throw new OptimiseInputError(err instanceof Error ? err.message : String(err));
  }
  report(55, 'Welding into one closed surface');
  let mesh = weldTriangles(soup);
  let edges = edgeReport(mesh.indices);
  if (edges.open > 0) {
    report(65, 'Closing holes');
    const closed = closeHoles(mesh);
    mesh = closed.mesh;
    edges = edgeReport(mesh.indices);
    if (closed.holes > 0)
      notes.push(
        `Closed ${closed.holes} hole${closed.holes === 1 ? '' : 's'} so that the mesh is watertight.`,
      );
  }
  const watertight = isWatertight(edges);
  if (!watertight)
    notes.push(
      `The mesh is not watertight (${edges.open} open edges, ${edges.nonManifold} shared by more than two triangles, ${edges.misoriented} facing the wrong way): a slicer may need to repair it.`,
    );
  report(80, `Writing the STL (${Math.round(height * 1000 * 100) / 100} mm tall)`);
  const file = encodeStl(mesh);
  report(88, 'Making a preview');
  const io = await optimiseIO();
  const preview = await io.writeBinary(meshDocument(mesh));
  const { min, max } = boundsOf(mesh.positions);
  const after: OptimiseFacts = {
    triangles: mesh.indices.length / 3,
    vertices: mesh.positions.length / 3,
    bytes: file.byteLength,
    textures: [],
    size_m: [max[0]! - min[0]!, max[1]! - min[1]!, max[2]! - min[2]!],
    extensions: [],
  };
  return { format: 'stl', file, preview, before, after, watertight, notes };
}
