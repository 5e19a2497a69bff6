// The share page's first paint (issue 36, decision 0123): what its first frame needs is named in
// the page's <head>, so that a phone asks for all of it with the HTML instead of one piece after
// another (the page's code, then the link's facts, then the GLB, then its decoders): the kept
// picture as the poster, the GLB, the decoders its extensions call for, and the link's facts
// inline.
import {
  FIRST_PAINT_ID,
  INLINE_SHARE_ID,
  factsLine,
  type PublicShare,
} from '../../contract/index.ts';
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
 * The tags for the page's <head>: the link's facts inline, the GLB preloaded (fetched as the
 * viewer fetches it, so the browser uses the same download), and the decoders' files. `base` is
 * the SPA's base path.
 */
export function firstPaintTags(view: PublicShare, decoderFiles: readonly string[], base = '/') {
  const fetched = (href: string) =>
    `\n    <link rel="preload" as="fetch" crossorigin href="${escapeHtml(href)}" />`;
  return [
    `\n    <script type="application/json" id="${INLINE_SHARE_ID}">${inlineJson(view)}</script>`,
    fetched(view.model_url),
    ...decoderFiles.map((file) => fetched(`${base}${file}`)),
  ].join('');
}

/**
 * The poster picture's preload, for the head's top, before the page's scripts: the browser asks
 * for requests of one priority in the order it finds them, over at most six connections, so a
 * picture named after the page's thirty scripts waits for them on a slow network.
 */
export const posterPreload = (view: PublicShare) =>
  view.thumbnail_url
    ? `\n    <link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(view.thumbnail_url)}" />`
    : '';

/**
 * A day writer for the reader's first language (`Accept-Language`), as the SPA writes days
 * (`dateStyle: 'medium'`), in UTC; English when the header names no language Intl knows.
 */
export function dayFor(acceptLanguage: string | undefined): (seconds: number) => string {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim() ?? '';
  let locale = 'en-GB';
  try {
    locale = Intl.DateTimeFormat.supportedLocalesOf(first)[0] ?? locale;
  } catch {
    // Not a language tag: English.
  }
  const format = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  return (seconds) => format.format(new Date(seconds * 1000));
}

/**
 * The page as the SPA draws it first (share-page.tsx: the top bar, the title and facts, and the
 * kept picture where the viewer will be), in the same elements and classes, so that the picture
 * is painted with the HTML, before any script has run: the page's largest paint at once. It sits
 * before the SPA's root, which is empty until the page's code has run; the SPA removes it as it
 * draws the page. Every value is escaped.
 */
export function firstPaintBody(
  view: PublicShare,
  page: { embed: boolean; day: (seconds: number) => string },
): string {
  const title = escapeHtml(view.title);
  const picture = view.thumbnail_url
    ? `<img class="share-page__poster" src="${escapeHtml(view.thumbnail_url)}" alt="" fetchpriority="high" />`
    : '';
  const frame = (embed: boolean) =>
    `<div class="share-page__poster-frame${embed ? ' share-page__poster-frame--embed' : ''}">${picture}</div>`;
  if (page.embed)
    return [
      `<main class="share-embed"><h1 class="visually-hidden">${title}</h1>`,
      frame(true),
      `<a class="share-embed__credit" href="${escapeHtml(view.url)}" target="_blank" rel="noopener">`,
      `<img src="/favicon.svg" alt="" width="14" height="14" /> Made with Kiln</a></main>`,
    ].join('');
  const prompt = view.name && view.prompt?.trim();
  return [
    '<div class="share-page"><header class="public-page__head">',
    '<a href="/" class="brand" aria-label="Kiln, home"><img src="/favicon.svg" alt="" width="22" height="22" /> Kiln</a>',
    '<span class="muted small">Shared model</span></header>',
    `<main class="share-page__main"><h1 class="share-page__title">${title}</h1>`,
    prompt ? `<p class="share-page__facts">“${escapeHtml(prompt)}”</p>` : '',
    `<p class="muted share-page__facts">${escapeHtml(factsLine(view, page.day))}</p>`,
    frame(false),
    '</main></div>',
  ].join('');
}

/** `html` with `body` in its first-paint element, before the SPA's root. */
export function withFirstPaintBody(html: string, body: string): string {
  return html.replace(
    '<div id="root">',
    () => `<div id="${FIRST_PAINT_ID}">${body}</div>\n    <div id="root">`,
  );
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
