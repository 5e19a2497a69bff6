// The SPA's HTML shell, per route. index.html loads the entry script, and each page's code comes
// in lazy chunks once the entry has run and React has rendered; for routes listed here the shell
// also names those chunks (<link rel="modulepreload">), so the browser fetches them alongside the
// entry instead of after it. Which files those are comes from Vite's build manifest.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { APP_PRELOAD_ATTRIBUTE, neutraliseBidi } from '../contract/index.ts';

/** The part of Vite's manifest (`build.manifest`) read here: chunk files and their imports. */
const ManifestSchema = z.record(
  z.string(),
  z.object({
    file: z.string(),
    isEntry: z.boolean().optional(),
    imports: z.array(z.string()).optional(),
    css: z.array(z.string()).optional(),
  }),
);
type Manifest = z.infer<typeof ManifestSchema>;

/** Source modules each route imports lazily at once (the page, and what it renders first). */
const ROUTE_MODULES: Readonly<Record<string, readonly string[]>> = {
  // The viewer page, and the viewer with three.js, react-three-fiber and the loaders (the entry
  // imports them at once on /viewer: see src/web/features/viewer/preload.ts).
  '/viewer': [
    'src/web/features/viewer/viewer-page.tsx',
    'src/web/features/viewer/model-viewer.tsx',
  ],
};

/** Where Vite writes its manifest in the build directory. */
export const MANIFEST_PATH = '.vite/manifest.json';

/** The chunks `modules` need, with their static imports, leaving out the entry's. */
function chunksOf(manifest: Manifest, modules: readonly string[]): Manifest[string][] {
  const chunks: Manifest[string][] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    // The entry (and what it imports) is already in index.html.
    if (!chunk || chunk.isEntry) return;
    chunks.push(chunk);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const module of modules) visit(module);
  return chunks;
}

/** The chunk files `modules` need, with their static imports, leaving out the entry's. */
export function chunkFiles(manifest: Manifest, modules: readonly string[]): string[] {
  return [...new Set(chunksOf(manifest, modules).map((chunk) => chunk.file))];
}

/**
 * `<link rel="stylesheet">` tags for the stylesheets of `modules`' chunks that `html` does not
 * name yet (the SPA loads them with the chunks), for a page the server draws before the SPA does.
 * The SPA's loader finds them in the page and does not ask again.
 */
export function stylesheetTags(
  html: string,
  manifest: unknown,
  modules: readonly string[],
  base = '/',
): string {
  const parsed = ManifestSchema.safeParse(manifest);
  if (!parsed.success) return '';
  const files = new Set(chunksOf(parsed.data, modules).flatMap((chunk) => chunk.css ?? []));
  return [...files]
    .filter((file) => !html.includes(file))
    .map((file) => `\n    <link rel="stylesheet" crossorigin href="${base}${file}" />`)
    .join('');
}

/** `html` with `tags` in its <head> before its first script (else at the head's end). */
export function beforeScripts(html: string, tags: string): string {
  if (tags === '') return html;
  const head = html.slice(0, html.indexOf('</head>') + 1 || html.length);
  const at = head.search(/\s*<script\b/);
  return at === -1
    ? html.replace(/\s*<\/head>/, () => `${tags}\n  </head>`)
    : `${html.slice(0, at)}${tags}${html.slice(at)}`;
}

/**
 * index.html for each route in ROUTE_MODULES (by path), with the hints before </head>. Routes
 * whose modules are not in the manifest are left out (they get index.html as it is).
 */
export function routeShells(indexHtml: string, manifest: unknown, base = '/'): Map<string, string> {
  const shells = new Map<string, string>();
  const parsed = ManifestSchema.safeParse(manifest);
  if (!parsed.success || !indexHtml.includes('</head>')) return shells;
  for (const [route, modules] of Object.entries(ROUTE_MODULES)) {
    const links = preloadLinks(indexHtml, parsed.data, modules, base);
    if (links === '') continue;
    shells.set(route, indexHtml.replace(/\s*<\/head>/, `${links}\n  </head>`));
  }
  return shells;
}

/** `<link rel="modulepreload">` tags for the chunks of `modules` index.html does not name. */
function preloadLinks(
  indexHtml: string,
  manifest: Manifest,
  modules: readonly string[],
  base: string,
) {
  // Not what index.html already names (the entry's own imports).
  const files = chunkFiles(manifest, modules).filter((file) => !indexHtml.includes(file));
  return files
    .map((file) => `\n    <link rel="modulepreload" crossorigin href="${base}${file}" />`)
    .join('');
}

/**
 * The public page of a shared model (`/s/{token}`): what its first frame is drawn with (three.js
 * and the loaders; decision 0132). The page and its viewer come after that frame.
 */
export const SHARE_MODULES: readonly string[] = ['src/web/features/viewer/first-frame.ts'];
/** The share page's own module, whose stylesheets its server-drawn first paint uses. */
export const SHARE_PAGE_MODULE = 'src/web/features/share/share-page.tsx';

/** `html` without the tags naming the app's code (APP_PRELOAD_ATTRIBUTE; see vite.config.ts). */
export const withoutAppPreloads = (html: string) =>
  html.replace(new RegExp(`\\s*<link\\b[^>]*\\s${APP_PRELOAD_ATTRIBUTE}\\b[^>]*>`, 'g'), '');

/** index.html naming the chunks of `modules` (as it is when the manifest lacks them). */
export function withPreloads(
  indexHtml: string,
  manifest: unknown,
  modules: readonly string[],
  base = '/',
): string {
  const parsed = ManifestSchema.safeParse(manifest);
  if (!parsed.success || !indexHtml.includes('</head>')) return indexHtml;
  const links = preloadLinks(indexHtml, parsed.data, modules, base);
  return links === '' ? indexHtml : indexHtml.replace(/\s*<\/head>/, `${links}\n  </head>`);
}

/** What a server-rendered page says of itself to link previews and crawlers. */
export interface PageMeta {
  title: string;
  description: string;
  /** The page's absolute address (og:url). */
  url?: string;
  /** An absolute picture address with its facts (og:image), when there is a picture. */
  image?: { url: string; alt: string; type: string; width: number; height: number } | null;
  /** Never listed by search engines (`<meta name="robots" content="noindex">`). */
  noindex?: boolean;
}

/** `& < > " '` as entities, for text and attribute values in HTML. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!,
  );

/**
 * `html` with its title and description replaced, and Open Graph and Twitter card tags (a chat
 * app's link preview) and robots added before </head>. Every value is escaped.
 */
export function withMeta(html: string, given: PageMeta): string {
  // No directional controls in a title or a preview (they could show words in another order).
  const meta = {
    ...given,
    title: neutraliseBidi(given.title),
    description: neutraliseBidi(given.description),
    image: given.image && { ...given.image, alt: neutraliseBidi(given.image.alt) },
  };
  const tag = (attr: 'name' | 'property', key: string, value: string | number) =>
    `\n    <meta ${attr}="${key}" content="${escapeHtml(String(value))}" />`;
  const image = meta.image;
  const tags = [
    meta.noindex ? tag('name', 'robots', 'noindex, nofollow') : '',
    tag('property', 'og:type', 'website'),
    tag('property', 'og:site_name', 'Kiln'),
    tag('property', 'og:title', meta.title),
    tag('property', 'og:description', meta.description),
    meta.url ? tag('property', 'og:url', meta.url) : '',
    ...(image
      ? [
          tag('property', 'og:image', image.url),
          tag('property', 'og:image:type', image.type),
          tag('property', 'og:image:width', image.width),
          tag('property', 'og:image:height', image.height),
          tag('property', 'og:image:alt', image.alt),
        ]
      : []),
    tag('name', 'twitter:card', image ? 'summary_large_image' : 'summary'),
    tag('name', 'twitter:title', meta.title),
    tag('name', 'twitter:description', meta.description),
    image ? tag('name', 'twitter:image', image.url) : '',
    image ? tag('name', 'twitter:image:alt', image.alt) : '',
  ].join('');
  const title = `<title>${escapeHtml(meta.title)} · Kiln</title>`;
  const description = `<meta name="description" content="${escapeHtml(meta.description)}" />`;
  let out = /<title>[^<]*<\/title>/.test(html)
    ? html.replace(/<title>[^<]*<\/title>/, () => title)
    : html.replace(/\s*<\/head>/, (end) => `\n    ${title}${end}`);
  out = /<meta name="description"[^>]*>/.test(out)
    ? out.replace(/<meta name="description"[^>]*>/, () => description)
    : out;
  return out.replace(/\s*<\/head>/, (end) => `${tags}${end}`);
}

/** The build's manifest, or null when there is none (an older build, or none at all). */
export function readManifest(staticDir: string): unknown {
  const path = join(staticDir, MANIFEST_PATH);
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return null;
  }
}
