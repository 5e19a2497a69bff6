// The share page's first paint (issue 36, decision 0123): what its first frame needs is named in
// the page's <head>, so that a phone asks for all of it with the HTML instead of one piece after
// another (the page's code, then the link's facts, then the GLB, then its decoders): the kept
// picture as the poster, the GLB, the decoders its extensions call for, and the link's facts
// inline.
import { INLINE_SHARE_ID, type PublicShare } from '../../contract/index.ts';
import { GLB_JSON_START, glbExtensionsUsed, glbJsonLength } from '../../formats/index.ts';
import type { BlobStore } from '../storage/blobs.ts';
import { escapeHtml } from '../spa-shell.ts';

/** What each compression extension needs fetched: its loader's module, and the files it loads. */
const DECODERS: Readonly<Record<string, { module: string; files: readonly string[] }>> = {
  KHR_draco_mesh_compression: {
    module: 'node_modules/three/examples/jsm/loaders/DRACOLoader.js',
    files: ['decoders/draco/draco_wasm_wrapper.js', 'decoders/draco/draco_decoder.wasm'],
  },
  KHR_texture_basisu: {
    module: 'node_modules/three/examples/jsm/loaders/KTX2Loader.js',
    files: ['decoders/basis/basis_transcoder.js', 'decoders/basis/basis_transcoder.wasm'],
  },
  EXT_meshopt_compression: {
    module: 'node_modules/three/examples/jsm/libs/meshopt_decoder.module.js',
    files: [],
  },
  KHR_meshopt_compression: {
    module: 'node_modules/three/examples/jsm/libs/meshopt_decoder.module.js',
    files: [],
  },
};

/** The decoders' modules (for `<link rel="modulepreload">`) and files a model's extensions need. */
export function decodersFor(extensions: readonly string[]): {
  modules: string[];
  files: string[];
} {
  const needed = extensions.flatMap((e) => (DECODERS[e] ? [DECODERS[e]] : []));
  return {
    modules: [...new Set(needed.map((d) => d.module))],
    files: [...new Set(needed.flatMap((d) => d.files))],
  };
}

/** JSON that may sit inside a <script> element: no `<` to end it early. */
const inlineJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The tags for the page's <head>: the link's facts inline, the poster picture and the GLB
 * preloaded (fetched as the viewer fetches them, so the browser uses the same download), and the
 * decoders' files. `base` is the SPA's base path.
 */
export function firstPaintTags(view: PublicShare, decoderFiles: readonly string[], base = '/') {
  const fetched = (href: string) =>
    `\n    <link rel="preload" as="fetch" crossorigin href="${escapeHtml(href)}" />`;
  return [
    `\n    <script type="application/json" id="${INLINE_SHARE_ID}">${inlineJson(view)}</script>`,
    view.thumbnail_url
      ? `\n    <link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(view.thumbnail_url)}" />`
      : '',
    fetched(view.model_url),
    ...decoderFiles.map((file) => fetched(`${base}${file}`)),
  ].join('');
}

/** Reads `[start, end]` of a stored GLB, or undefined when it is gone. */
async function readRange(
  blobs: BlobStore,
  sha256: string,
  start: number,
  end: number,
): Promise<Uint8Array | undefined> {
  const opened = await blobs.open('assets', sha256, 'glb', { start, end });
  if (!opened) return undefined;
  return new Uint8Array(await new Response(opened.stream).arrayBuffer());
}

/** The most GLBs whose extensions are remembered (a GLB's bytes never change under its hash). */
const REMEMBERED = 1000;
/** A JSON chunk larger than this is not read for a page (the viewer finds the decoders itself). */
const JSON_READ_LIMIT = 1024 * 1024;

/**
 * The `extensionsUsed` of stored GLBs by hash, read from the JSON chunk alone (two ranged reads)
 * and remembered; [] for a GLB that is gone or unreadable, which costs the page only its hints.
 */
export function glbExtensionReader(blobs: BlobStore) {
  const known = new Map<string, string[]>();
  return async (sha256: string): Promise<string[]> => {
    const remembered = known.get(sha256);
    if (remembered) return remembered;
    let extensions: string[] = [];
    try {
      const first = await readRange(blobs, sha256, 0, GLB_JSON_START - 1);
      const length = first ? glbJsonLength(first) : null;
      if (length !== null && length > 0 && length <= JSON_READ_LIMIT) {
        const json = await readRange(blobs, sha256, GLB_JSON_START, GLB_JSON_START + length - 1);
        if (json) extensions = glbExtensionsUsed(json);
      }
    } catch {
      return [];
    }
    if (known.size >= REMEMBERED) known.delete(known.keys().next().value!);
    known.set(sha256, extensions);
    return extensions;
  };
}
