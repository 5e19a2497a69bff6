// The SPA's HTML shell, per route. index.html loads the entry script, and each page's code comes
// in lazy chunks once the entry has run and React has rendered; for routes listed here the shell
// also names those chunks (<link rel="modulepreload">), so the browser fetches them alongside the
// entry instead of after it. Which files those are comes from Vite's build manifest.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The part of Vite's manifest (`build.manifest`) read here: chunk files and their imports. */
const ManifestSchema = z.record(
  z.string(),
  z.object({
    file: z.string(),
    isEntry: z.boolean().optional(),
    imports: z.array(z.string()).optional(),
  }),
);
type Manifest = z.infer<typeof ManifestSchema>;

/** Source modules each route imports lazily at once (the page, and what it renders first). */
export const ROUTE_MODULES: Readonly<Record<string, readonly string[]>> = {
  // The viewer page, and the viewer with three.js, react-three-fiber and the loaders (the entry
  // imports them at once on /viewer: see src/web/features/viewer/preload.ts).
  '/viewer': [
    'src/web/features/viewer/viewer-page.tsx',
    'src/web/features/viewer/model-viewer.tsx',
  ],
};

/** Where Vite writes its manifest in the build directory. */
export const MANIFEST_PATH = '.vite/manifest.json';

/** The chunk files `modules` need, with their static imports, leaving out the entry's. */
export function chunkFiles(manifest: Manifest, modules: readonly string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    // The entry (and what it imports) is already in index.html.
    if (!chunk || chunk.isEntry) return;
    files.add(chunk.file);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const module of modules) visit(module);
  return [...files];
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
    // Not what index.html already names (the entry's own imports).
    const files = chunkFiles(parsed.data, modules).filter((file) => !indexHtml.includes(file));
    if (files.length === 0) continue;
    const links = files
      .map((file) => `\n    <link rel="modulepreload" crossorigin href="${base}${file}" />`)
      .join('');
    shells.set(route, indexHtml.replace(/\s*<\/head>/, `${links}\n  </head>`));
  }
  return shells;
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
