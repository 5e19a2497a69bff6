// The models of the preview sheets: the fixture photos, a synthetic 4-view chair, prompts, and
// photos composited over backdrops, each with its figures (triangles, size, time).
import { NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { imageToGlb, promptToGlb, viewsToGlb } from '../../src/generator/index.ts';
import { loadSubject } from '../../src/generator/photo/subject.ts';
import { syntheticViews } from '../../src/generator/views/synthetic-views.ts';
import { composite, type BackdropName } from '../../src/testing/backdrops.ts';
import { PHOTOS_DIR } from '../../src/testing/fixtures.ts';
import { CELL } from './sheets.ts';

/** One composite per backdrop, the photos in turn. */
const COMPOSITES: [string, BackdropName][] = [
  ['chair', 'vertical-gradient'],
  ['robot', 'radial-vignette'],
  ['horse', 'two-tone-horizon'],
  ['hamburger', 'wall-with-shadow'],
  ['chair', 'wood-grain'],
  ['flamingo', 'jpeg-70'],
  ['robot', 'darker-than-object'],
  ['hamburger', 'close-hue'],
];

const PROMPTS = [
  'a ceramic teapot',
  'a red robot with wheels',
  'a guitar',
  'a bicycle',
  'a pineapple',
  'a cat',
  'a rubber duck',
  'a pumpkin',
  'a sailing ship',
  'a green dragon',
  'a fire extinguisher',
  'a treasure chest',
  'an ancient stone bridge',
  'a wooden chair',
  'a mug',
  'a car',
  'a tree',
  'a house',
];

export interface Model {
  /** File name on /preview/ (without .glb) and the model's key. */
  id: string;
  title: string;
  detail: string;
  /** The input pictures, for the sheet's first column (none for prompts). */
  inputs: Uint8Array[];
  /** The object as the generator cut it out (composites only). */
  cutOut?: Buffer;
  glb: Uint8Array;
}

const io = new NodeIO()
  .registerExtensions(ALL_EXTENSIONS)
  .registerDependencies({ 'meshopt.decoder': MeshoptDecoder });

async function triangles(glb: Uint8Array): Promise<number> {
  await MeshoptDecoder.ready;
  const doc = await io.readBinary(glb);
  let count = 0;
  for (const mesh of doc.getRoot().listMeshes())
    for (const prim of mesh.listPrimitives())
      if (prim.getMode() === 4)
        count += Math.floor(
          (prim.getIndices()?.getCount() ?? prim.getAttribute('POSITION')?.getCount() ?? 0) / 3,
        );
  return count;
}

async function make(
  id: string,
  title: string,
  what: string,
  inputs: Uint8Array[],
  run: () => Promise<Uint8Array>,
): Promise<Model> {
  const started = performance.now();
  const glb = await run();
  const ms = performance.now() - started;
  const took = ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(1)} s`;
  const detail = `${what} · ${(await triangles(glb)).toLocaleString('en-US')} triangles · ${(glb.byteLength / 1024).toFixed(0)} KB · made in ${took}`;
  console.log(`  ${title.padEnd(22)} ${detail}`);
  return { id, title, detail, inputs, glb };
}

/** The input with everything outside the generator's mask replaced by dark grey. */
async function cutOutCell(input: Uint8Array): Promise<Buffer> {
  const { mask } = await loadSubject(input);
  const alpha = Buffer.from(mask.inside.map((v) => (v ? 255 : 0)));
  const raw = { width: CELL, height: CELL };
  // One step at a time: within one pipeline sharp resizes a one-channel picture to sRGB, and
  // removes the alpha after joining one.
  const matte = await sharp(alpha, { raw: { width: mask.width, height: mask.height, channels: 1 } })
    .resize(CELL, CELL, { fit: 'fill', kernel: 'nearest' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const rgb = await sharp(input).resize(CELL, CELL, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const cut = await sharp(rgb, { raw: { ...raw, channels: 3 } })
    .joinChannel(matte, { raw: { ...raw, channels: 1 } })
    .png()
    .toBuffer();
  return sharp(cut).flatten({ background: '#3f3f46' }).png().toBuffer();
}

export async function makeComposites(): Promise<Model[]> {
  const models: Model[] = [];
  for (const [name, backdrop] of COMPOSITES) {
    const bytes = await composite(
      new Uint8Array(readFileSync(join(PHOTOS_DIR, `${name}.png`))),
      backdrop,
    );
    const model = await make(
      `backdrop-${name}-${backdrop}`,
      `${name} on ${backdrop}`,
      'imageToGlb',
      [bytes],
      () => imageToGlb(bytes),
    );
    models.push({ ...model, cutOut: await cutOutCell(bytes) });
  }
  return models;
}

export async function makeModels(): Promise<{ photos: Model[]; prompts: Model[] }> {
  if (!existsSync(PHOTOS_DIR)) throw new Error(`no fixture photos at ${PHOTOS_DIR} `);
  const photos: Model[] = [];
  for (const file of readdirSync(PHOTOS_DIR)
    .filter((f) => f.toLowerCase().endsWith('.png'))
    .sort()) {
    const bytes = new Uint8Array(readFileSync(join(PHOTOS_DIR, file)));
    const { width, height } = await sharp(bytes).metadata();
    const name = file.replace(/\.png$/i, '');
    photos.push(
      await make(name, name, `imageToGlb, ${width}×${height} photo`, [bytes], () =>
        imageToGlb(bytes),
      ),
    );
  }
  const views = await syntheticViews('chair');
  const { width, height } = await sharp(views[0]!).metadata();
  photos.push(
    await make(
      'views-chair',
      'chair, 4 views',
      `viewsToGlb, 4 synthetic ${width}×${height} views`,
      views,
      () => viewsToGlb(views),
    ),
  );
  const prompts: Model[] = [];
  for (const [i, prompt] of PROMPTS.entries())
    prompts.push(
      await make(`prompt-${i + 1}`, `“${prompt}”`, 'promptToGlb', [], () => promptToGlb(prompt)),
    );
  return { photos, prompts };
}
