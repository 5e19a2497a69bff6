import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PublicShare } from '../../contract/index.ts';
import { diskBlobStore, type BlobStore } from '../storage/blobs.ts';
import {
  dayFor,
  decodersFor,
  firstPaintBody,
  firstPaintTags,
  glbExtensionReader,
  posterPreload,
  withFirstPaintBody,
} from './first-paint.ts';

/** A GLB whose JSON names `extensionsUsed`, with a binary chunk after it. */
function glb(json: object): Uint8Array {
  const text = new TextEncoder().encode(JSON.stringify(json).padEnd(64, ' '));
  const bin = new Uint8Array(16);
  const bytes = new Uint8Array(12 + 8 + text.byteLength + 8 + bin.byteLength);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, 0x46546c67, true);
  view.setUint32(4, 2, true);
  view.setUint32(8, bytes.byteLength, true);
  view.setUint32(12, text.byteLength, true);
  view.setUint32(16, 0x4e4f534a, true);
  bytes.set(text, 20);
  view.setUint32(20 + text.byteLength, bin.byteLength, true);
  view.setUint32(24 + text.byteLength, 0x004e4942, true);
  return bytes;
}

const VIEW: PublicShare = {
  object: 'shared_model',
  title: '“a </script><script>alert(1)</script> vase”',
  name: null,
  model: 'beta-text',
  input: 'prompt',
  prompt: 'a </script><script>alert(1)</script> vase',
  created: 1_764_000_000,
  model_url: '/api/shares/tok/model.glb',
  thumbnail_url: '/api/shares/tok/thumbnail.webp',
  usdz_url: null,
  url: 'http://127.0.0.1:8080/s/tok',
};

describe("the share page's first paint", () => {
  it('names each compression extension’s loader module and files, once each, and nothing else', () => {
    expect(decodersFor([])).toEqual({ modules: [], files: [] });
    expect(decodersFor(['KHR_materials_unlit', 'KHR_texture_transform'])).toEqual({
      modules: [],
      files: [],
    });
    expect(decodersFor(['KHR_draco_mesh_compression'])).toEqual({
      modules: ['node_modules/three/examples/jsm/loaders/DRACOLoader.js'],
      files: ['decoders/draco/draco_wasm_wrapper.js', 'decoders/draco/draco_decoder.wasm'],
    });
    expect(decodersFor(['KHR_texture_basisu']).files).toEqual([
      'decoders/basis/basis_transcoder.js',
      'decoders/basis/basis_transcoder.wasm',
    ]);
    const meshopt = decodersFor(['EXT_meshopt_compression', 'KHR_meshopt_compression']);
    expect(meshopt).toEqual({
      modules: ['node_modules/three/examples/jsm/libs/meshopt_decoder.module.js'],
      files: [],
    });
  });

  it('puts the facts inline where no text can end the script, and preloads the poster, the GLB and the decoders', () => {
    const tags = firstPaintTags(VIEW, ['decoders/draco/draco_decoder.wasm']);
    const inline = /<script type="application\/json" id="kiln-share">(.*?)<\/script>/.exec(tags);
    expect(inline?.[1]).not.toContain('<');
    expect(JSON.parse(inline![1]!)).toEqual(VIEW);
    expect(posterPreload(VIEW)).toBe(
      '\n    <link rel="preload" as="image" fetchpriority="high" href="/api/shares/tok/thumbnail.webp" />',
    );
    expect(tags).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/api/shares/tok/model.glb" />',
    );
    expect(tags).toContain(
      '<link rel="preload" as="fetch" crossorigin href="/decoders/draco/draco_decoder.wasm" />',
    );
    // No picture kept yet: no poster to preload.
    expect(posterPreload({ ...VIEW, thumbnail_url: null })).toBe('');
  });

  describe('the extensions of a stored GLB', () => {
    const store = (): BlobStore => diskBlobStore(mkdtempSync(join(tmpdir(), 'kiln-fp-')));

    it('are read from its JSON chunk alone, and remembered by hash', async () => {
      const blobs = store();
      const { sha256 } = await blobs.put(
        'assets',
        glb({ asset: { version: '2.0' }, extensionsUsed: ['KHR_draco_mesh_compression'] }),
        'glb',
      );
      let ranges = 0;
      const counted: BlobStore = {
        ...blobs,
        open: (...args) => {
          ranges++;
          return blobs.open(...args);
        },
      };
      const read = glbExtensionReader(counted);
      expect(await read(sha256)).toEqual(['KHR_draco_mesh_compression']);
      expect(ranges).toBe(2);
      expect(await read(sha256)).toEqual(['KHR_draco_mesh_compression']);
      expect(ranges).toBe(2);
    });

    it('are none for a GLB that names none, bytes that are not a GLB, or a file that is gone', async () => {
      const blobs = store();
      const read = glbExtensionReader(blobs);
      const plain = await blobs.put('assets', glb({ asset: { version: '2.0' } }), 'glb');
      expect(await read(plain.sha256)).toEqual([]);
      const junk = await blobs.put('assets', new TextEncoder().encode('not a model at all'), 'glb');
      expect(await read(junk.sha256)).toEqual([]);
      expect(await read('0'.repeat(64))).toEqual([]);
    });
  });
});

describe("the share page's first paint, drawn by the server", () => {
  const day = dayFor('en-GB');

  it('draws the top bar, the title and facts, and the picture in the stage, every value escaped', () => {
    const body = firstPaintBody(VIEW, { embed: false, day });
    expect(body).not.toContain('<script>');
    expect(body).toContain('<h1 class="share-page__title">“a &lt;/script&gt;&lt;script&gt;');
    expect(body).toContain('<span class="muted small">Shared model</span>');
    expect(body).toContain(
      '<p class="muted share-page__facts">From a text prompt · beta-text · 24 Nov 2025</p>',
    );
    expect(body).toContain(
      '<img class="share-page__poster" src="/api/shares/tok/thumbnail.webp" alt="" fetchpriority="high" />',
    );
    // The prompt under the title only for a named model (the title is the prompt otherwise).
    expect(body).not.toContain('<p class="share-page__facts">');
    const named = firstPaintBody({ ...VIEW, name: 'Vase', title: 'Vase' }, { embed: false, day });
    expect(named).toContain('<p class="share-page__facts">“a &lt;/script&gt;');
  });

  it('draws the embed as the frame shows it: the stage and the credit, no top bar', () => {
    const body = firstPaintBody({ ...VIEW, thumbnail_url: null }, { embed: true, day });
    expect(body).toContain(
      '<div class="share-page__poster-frame share-page__poster-frame--embed"></div>',
    );
    expect(body).toContain('href="http://127.0.0.1:8080/s/tok" target="_blank" rel="noopener"');
    expect(body).not.toContain('public-page__head');
  });

  it("writes the day in the reader's first language, English for a header it cannot read", () => {
    expect(dayFor('fr-FR,fr;q=0.9,en;q=0.8')(VIEW.created)).toBe('24 nov. 2025');
    expect(dayFor('en-US')(VIEW.created)).toBe('Nov 24, 2025');
    expect(dayFor(undefined)(VIEW.created)).toBe('24 Nov 2025');
    expect(dayFor('not a language!')(VIEW.created)).toBe('24 Nov 2025');
  });

  it("goes before the SPA's root, which stays empty for React", () => {
    const html = '<body>\n    <div id="root"></div>\n</body>';
    expect(withFirstPaintBody(html, '<p>$& $1</p>')).toBe(
      '<body>\n    <div id="kiln-first-paint"><p>$& $1</p></div>\n    <div id="root"></div>\n</body>',
    );
  });
});
