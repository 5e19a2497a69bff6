// Kiln's Node entry points (the server, the mock, the CLI) run from one esbuild bundle each, made
// into build/node/ when it is missing or older than a file it was made from (decision 0130).
// Loading one file instead of some 300 TypeScript modules through tsx's loader thread is about
// 2 s of CPU less per start. Packages stay in node_modules, and each module keeps the
// `import.meta.url` of its own source file, so paths relative to it (the SPA's dist/, worker
// threads' job modules) are what they are under tsx.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const BUNDLE_DIR = join(root, 'build', 'node');

/** What the bundle also depends on besides the modules it holds. */
const ALSO = [fileURLToPath(import.meta.url), join(root, 'tsconfig.json')];

/** `src/server/main.ts` → build/node/server-main.mjs. */
export function bundlePath(entry) {
  const rel = relative(join(root, 'src'), join(root, entry));
  return join(BUNDLE_DIR, `${rel.replace(/\.ts$/, '').split(/[\\/]/).join('-')}.mjs`);
}

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : null);

/** True when the bundle is missing, or a file it was made from changed (its mtime) or is gone. */
export function isStale(entry) {
  const out = bundlePath(entry);
  const inputsFile = `${out}.inputs.json`;
  if (!existsSync(out) || !existsSync(inputsFile)) return true;
  const made = JSON.parse(readFileSync(inputsFile, 'utf8'));
  return Object.entries(made).some(([path, when]) => mtime(join(root, path)) !== when);
}

/** Each source module's own `import.meta.url`, `.dirname` and `.filename`, as under tsx. */
const ownImportMeta = {
  name: 'own-import-meta',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta')) return undefined;
      const contents = text
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
        .replaceAll('import.meta.filename', JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

/** Writes `path` whole or not at all: a process starting beside a build never reads half a file. */
function writeWhole(path, data) {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

/**
 * The worker threads' job modules (src/workers): each entry's build makes their bundles too, and
 * tells the pools where they are (`KILN_JOB_BUNDLES`), so a thread loads one file without tsx.
 */
const WORKER_JOBS = [
  'src/generator/runtime/job.ts',
  'src/server/optimise/worker-job.ts',
  'src/mcp/facts-job.ts',
];

/** Builds the bundle of `entry` (a path from the repository root), and the jobs', now. */
export async function buildBundle(entry) {
  const out = bundlePath(entry);
  mkdirSync(BUNDLE_DIR, { recursive: true });
  const { build } = await import('esbuild');
  const points = [entry, ...WORKER_JOBS].map((p) => ({
    in: join(root, p),
    out: basename(bundlePath(p), '.mjs'),
  }));
  const jobBundles = Object.fromEntries(
    WORKER_JOBS.map((p) => [pathToFileURL(join(root, p)).href, pathToFileURL(bundlePath(p)).href]),
  );
  const result = await build({
    absWorkingDir: root,
    entryPoints: points,
    outdir: BUNDLE_DIR,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    write: false,
    metafile: true,
    logLevel: 'warning',
    define: { KILN_JOB_BUNDLES: JSON.stringify(jobBundles) },
    plugins: [ownImportMeta],
  });
  const inputs = Object.fromEntries(
    [...Object.keys(result.metafile.inputs), ...ALSO.map((p) => relative(root, p))].map((p) => [
      p,
      mtime(join(root, p)),
    ]),
  );
  // Everything else first, the entry's bundle last: a start that finds it finds the rest.
  for (const file of result.outputFiles.filter((f) => f.path !== out))
    writeWhole(file.path, file.contents);
  writeWhole(`${out}.inputs.json`, JSON.stringify(inputs));
  writeWhole(out, result.outputFiles.find((f) => f.path === out).contents);
  return out;
}

/** The bundle of `entry`, made first when it is stale. */
export async function entryBundle(entry) {
  return isStale(entry) ? buildBundle(entry) : bundlePath(entry);
}

/** `node` arguments that run `entry` from its bundle, with stack traces in its sources. */
export async function nodeArgs(entry) {
  return ['--enable-source-maps', await entryBundle(entry)];
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  for (const entry of process.argv.slice(2)) console.log(basename(await buildBundle(entry)));
