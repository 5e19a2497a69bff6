// bench/bundle: build the SPA (vite build, into a temporary directory) and print what a browser
// downloads, raw, gzip (level 9) and brotli (quality 11; the server sends the build's
// precompressed .br/.gz siblings, see vite.config.ts):
//   - the initial JS: the entry chunk and the app's (boot.tsx), with their static imports, i.e.
//     what the built index.html loads through <script type="module"> and <link rel="modulepreload">;
//   - the lazy 3D-viewer chunks: model-viewer.tsx's chunk and its static imports beyond the initial
//     JS (where three.js lives), and any three.js add-on chunk the viewer imports on demand;
//   - the CSS (initial, and what ships with the viewer), and the viewer's on-demand decoders;
//   - the initial-JS budget (100 KB gzip).
// Prints figures; asserts nothing (exit 0). Run: npm run bench:bundle
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { build, type Rollup } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const VIEWER_ENTRY = 'src/web/features/viewer/index.ts';
const VIEWER_CHUNK_SRC = 'src/web/features/viewer/model-viewer.tsx';
const BUDGET_GZIP = 100 * 1024;
/** The app's module: the entry imports it once it has run; index.html preloads it. */
const APP_MODULE = 'src/web/boot.tsx';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

interface Built {
  outDir: string;
  manifest: Manifest;
  /** Output file (relative to outDir) → the module ids bundled into it. */
  modules: Map<string, string[]>;
}

async function viteBuild(extraInputs: string[] = []): Promise<Built> {
  const outDir = mkdtempSync(join(tmpdir(), 'kiln-bundle-'));
  const input = [join(ROOT, 'index.html'), ...extraInputs.map((p) => join(ROOT, p))];
  const result = await build({
    root: ROOT,
    logLevel: 'silent',
    build: {
      outDir,
      emptyOutDir: true,
      manifest: true,
      sourcemap: false,
      reportCompressedSize: false,
      rollupOptions: { input },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const modules = new Map<string, string[]>();
  for (const out of outputs)
    for (const item of out.output ?? [])
      if (item.type === 'chunk') modules.set(item.fileName, item.moduleIds ?? []);
  const manifest = JSON.parse(
    readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Manifest;
  return { outDir, manifest, modules };
}

/** The chunks a manifest entry pulls in statically (itself included). */
function staticClosure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) staticClosure(manifest, dep, seen);
  return seen;
}

const kb = (n: number) => `${(n / 1024).toFixed(1).padStart(7)} KB`;

function sizeOf(outDir: string, files: Iterable<string>) {
  let raw = 0;
  let gzip = 0;
  let br = 0;
  for (const f of files) {
    const bytes = readFileSync(join(outDir, f));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
    br += brotliCompressSync(bytes, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
        [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }).length;
  }
  return { raw, gzip, br };
}

const sizes = (s: { raw: number; gzip: number; br: number }) =>
  `${kb(s.raw)} raw ${kb(s.gzip)} gzip ${kb(s.br)} br`;

function line(label: string, outDir: string, files: string[]): { raw: number; gzip: number } {
  const s = sizeOf(outDir, files);
  console.log(
    `${label.padEnd(28)} ${sizes(s)}   (${files.length} file${files.length === 1 ? '' : 's'})`,
  );
  for (const f of files) console.log(`  ${f.padEnd(42)} ${sizes(sizeOf(outDir, [f]))}`);
  return s;
}

function walk(dir: string): string[] {
  if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

const hasThree = (ids: string[]) => ids.some((id) => /[\\/]node_modules[\\/]three[\\/]/.test(id));

const started = performance.now();
const app = await viteBuild();
const seconds = ((performance.now() - started) / 1000).toFixed(1);
const { outDir, manifest, modules } = app;

try {
  // Initial: what index.html loads (cross-checked against the manifest's static import graph).
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const fromHtml = new Set(
    [
      ...html.matchAll(
        /<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="\/?([^"]+\.js)"/g,
      ),
    ].map((m) => m[1] ?? ''),
  );
  const entryKey = Object.keys(manifest).find(
    (k) => manifest[k]?.isEntry && k.endsWith('index.html'),
  );
  // The entry, and the app it imports at once (boot.tsx, preloaded by index.html; decision 0132).
  const initialKeys = new Set(
    [entryKey, APP_MODULE].flatMap((k) =>
      k && manifest[k] ? [...staticClosure(manifest, k)] : [],
    ),
  );
  const initialJs = [...initialKeys]
    .map((k) => manifest[k]?.file ?? '')
    .filter((f) => f.endsWith('.js'));
  const initialCss = [...new Set([...initialKeys].flatMap((k) => manifest[k]?.css ?? []))];
  const mismatch = initialJs.length !== fromHtml.size || initialJs.some((f) => !fromHtml.has(f));

  console.log(`vite build: ${seconds} s, ${Object.keys(manifest).length} manifest entries\n`);
  const initial = line('initial JS', outDir, initialJs.sort());
  if (mismatch)
    console.log(
      `  (index.html loads: ${[...fromHtml].join(', ')} — differs from the manifest's graph)`,
    );
  const threeInInitial = initialJs.filter((f) => hasThree(modules.get(f) ?? []));
  console.log(
    `  three.js in initial JS: ${threeInInitial.length ? `YES (${threeInInitial.join(', ')})` : 'no'}`,
  );
  line('initial CSS', outDir, initialCss.sort());

  // The viewer: its lazy chunk (model-viewer.tsx) and what it imports statically, beyond the
  // initial JS; then any other chunk holding three.js (add-ons the viewer imports on demand).
  // If the app does not reach the viewer yet, build again with its entry as an extra input.
  let viewer: Built = app;
  let note = '';
  const findViewer = (b: Built) =>
    Object.keys(b.manifest).find((k) => b.manifest[k]?.src === VIEWER_CHUNK_SRC);
  let viewerKey = findViewer(app);
  if (!viewerKey) {
    note = ` (not reachable from index.html yet; measured with ${VIEWER_ENTRY} as an extra input)`;
    viewer = await viteBuild([VIEWER_ENTRY]);
    viewerKey = findViewer(viewer);
  }
  const vm = viewer.manifest;
  const entryFiles = new Set(
    Object.keys(vm)
      .filter((k) => vm[k]?.isEntry)
      .flatMap((k) => [...staticClosure(vm, k)])
      .map((k) => vm[k]?.file ?? ''),
  );
  const viewerKeys = viewerKey ? staticClosure(vm, viewerKey) : new Set<string>();
  const lazyJs = [...viewerKeys]
    .map((k) => vm[k]?.file ?? '')
    .filter((f) => f.endsWith('.js') && !entryFiles.has(f));
  const onDemand = [...viewer.modules]
    .filter(([f, ids]) => hasThree(ids) && !lazyJs.includes(f) && !entryFiles.has(f))
    .map(([f]) => f);
  const initialCssSet = new Set(
    Object.values(vm)
      .filter((c) => c.isEntry)
      .flatMap((c) => c.css ?? []),
  );
  const lazyCss = [...new Set([...viewerKeys].flatMap((k) => vm[k]?.css ?? []))].filter(
    (f) => !initialCssSet.has(f),
  );
  const threeIn = lazyJs.filter((f) => hasThree(viewer.modules.get(f) ?? []));
  console.log('');
  if (note) console.log(`viewer${note}`);
  line('lazy viewer JS', viewer.outDir, lazyJs.sort());
  console.log(`  chunks holding three.js: ${threeIn.join(', ') || 'none'}`);
  line('lazy viewer CSS', viewer.outDir, lazyCss.sort());
  line('three.js add-ons (on demand)', viewer.outDir, onDemand.sort());
  // (Not the precompressed .br/.gz siblings the build writes next to them.)
  const decoders = walk(join(viewer.outDir, 'decoders'))
    .filter((f) => !/\.(?:br|gz)$/.test(f))
    .map((f) => relative(viewer.outDir, f).split(sep).join('/'));
  line('decoders (on demand)', viewer.outDir, decoders.sort());
  if (viewer !== app) rmSync(viewer.outDir, { recursive: true, force: true });

  console.log(
    `\nbudget: initial ≤ ${BUDGET_GZIP / 1024} KB gzip — ${initial.gzip <= BUDGET_GZIP ? 'OK' : 'OVER'} (${(initial.gzip / 1024).toFixed(1)} KB)`,
  );
} finally {
  rmSync(outDir, { recursive: true, force: true });
}
