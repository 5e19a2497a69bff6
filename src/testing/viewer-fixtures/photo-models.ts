// Fixtures made from Kiln's own models of the fixture photos: Draco- and Meshopt-compressed, and
// with KTX2 textures encoded as the optimiser encodes them (encodeKtx2 in
// server/optimise/textures.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Document, NodeIO } from '@gltf-transform/core';
import { draco, meshopt } from '@gltf-transform/functions';
import { MeshoptEncoder } from 'meshoptimizer';
import { imageToGlb } from '../../generator/index.ts';
import { encodeKtx2 } from '../../server/optimise/textures.ts';
import { PHOTOS_DIR } from '../fixtures.ts';

async function photo(name: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(join(PHOTOS_DIR, name)));
}

export async function dracoChair(io: NodeIO): Promise<Document> {
  const doc = await io.readBinary(await imageToGlb(await photo('chair.png')));
  await doc.transform(draco({ method: 'edgebreaker' }));
  return doc;
}

export async function meshoptTeapot(io: NodeIO): Promise<Document> {
  const doc = await io.readBinary(await imageToGlb(await photo('teapot.png')));
  await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
  return doc;
}

// The Basis encoder's WASM prints a summary of every texture (slices, mip levels) through
// console.log even with debug off, binding console.log once, when the module first loads.
// So console.log is swapped for a collector while the encoder runs (and loads), and what it
// would have printed is kept for error messages instead.
const realConsoleLog = console.log;
let basisSink: string[] | undefined;
function basisLog(...args: unknown[]): void {
  if (basisSink) basisSink.push(args.map(String).join(' '));
  else realConsoleLog(...args);
}

async function quietBasis(run: () => Promise<unknown>): Promise<string[]> {
  const sink: string[] = [];
  basisSink = sink;
  console.log = basisLog;
  try {
    await run();
  } finally {
    console.log = realConsoleLog;
    basisSink = undefined;
  }
  return sink;
}

export async function ktx2Hamburger(io: NodeIO): Promise<Document> {
  const doc = await io.readBinary(await imageToGlb(await photo('hamburger.png')));
  const textures = doc.getRoot().listTextures();
  if (textures.length === 0) throw new Error('imageToGlb gave a model with no texture');
  // As the optimiser encodes them (Kiln's models carry base-colour textures only: ETC1S, sRGB).
  const basisOutput = await quietBasis(() => encodeKtx2(doc));
  // The transform logs and skips a texture it fails to encode; a fixture must not.
  const left = textures.filter((t) => t.getMimeType() !== 'image/ktx2');
  if (left.length > 0)
    throw new Error(
      `KTX2 encoding failed for ${left.map((t) => t.getName()).join(', ')}:\n${basisOutput.join('\n')}`,
    );
  return doc;
}
