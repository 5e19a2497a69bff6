import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import * as THREE from 'three';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import * as THREE_SUBSET_EXPORTS from './src/web/lib/three-subset.ts';
import { APP_PRELOAD_ATTRIBUTE } from './src/contract/page-data.ts';

const api = process.env.KILN_DEV_API ?? 'http://127.0.0.1:8080';

/**
 * The KTX2 (Basis) transcoding worker as one same-origin script: exactly the body three's
 * KTX2Loader would otherwise assemble into a blob: URL at run time. Basis' transcoder is built
 * with embind, which compiles small functions from strings; served as a file, the worker can get
 * a CSP of its own that allows that (see src/server/app.ts), while the page's CSP still forbids
 * eval.
 */
async function ktx2WorkerSource(libs: string): Promise<string> {
  // The statics below are public but untyped in @types/three.
  const KTX2Loader = (await import('three/examples/jsm/loaders/KTX2Loader.js'))
    .KTX2Loader as unknown as Record<
    'BasisWorker' | 'EngineFormat' | 'EngineType' | 'TranscoderFormat' | 'BasisFormat',
    object
  >;
  const fn = KTX2Loader.BasisWorker.toString();
  return [
    '/* constants */',
    `let _EngineFormat = ${JSON.stringify(KTX2Loader.EngineFormat)}`,
    `let _EngineType = ${JSON.stringify(KTX2Loader.EngineType)}`,
    `let _TranscoderFormat = ${JSON.stringify(KTX2Loader.TranscoderFormat)}`,
    `let _BasisFormat = ${JSON.stringify(KTX2Loader.BasisFormat)}`,
    '/* basis_transcoder.js */',
    readFileSync(`${libs}basis/basis_transcoder.js`, 'utf8'),
    '/* worker */',
    fn.substring(fn.indexOf('{') + 1, fn.lastIndexOf('}')),
  ].join('\n');
}

/**
 * The 3D viewer's Draco and Basis decoders, served from this origin (the CSP allows no CDN):
 * emitted into the build as /decoders/{draco,basis}/* and served from node_modules in dev.
 * The viewer fetches them only when a model actually uses Draco meshes or KTX2 textures.
 */
function localDecoders(): Plugin {
  const libs = fileURLToPath(new URL('./node_modules/three/examples/jsm/libs/', import.meta.url));
  const files = new Map([
    ['/decoders/draco/draco_wasm_wrapper.js', `${libs}draco/gltf/draco_wasm_wrapper.js`],
    ['/decoders/draco/draco_decoder.wasm', `${libs}draco/gltf/draco_decoder.wasm`],
    ['/decoders/basis/basis_transcoder.js', `${libs}basis/basis_transcoder.js`],
    ['/decoders/basis/basis_transcoder.wasm', `${libs}basis/basis_transcoder.wasm`],
  ]);
  const worker = '/decoders/basis/ktx2-worker.js';
  return {
    name: 'kiln-local-decoders',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0] ?? '';
        if (path === worker) {
          res.setHeader('Content-Type', 'text/javascript');
          void ktx2WorkerSource(libs).then((source) => res.end(source), next);
          return;
        }
        const file = files.get(path);
        if (!file) return next();
        res.setHeader(
          'Content-Type',
          file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript',
        );
        res.end(readFileSync(file));
      });
    },
    async generateBundle() {
      for (const [url, file] of files)
        this.emitFile({ type: 'asset', fileName: url.slice(1), source: readFileSync(file) });
      this.emitFile({
        type: 'asset',
        fileName: worker.slice(1),
        source: await ktx2WorkerSource(libs),
      });
    },
  };
}

const THREE_SUBSET = fileURLToPath(new URL('./src/web/lib/three-subset.ts', import.meta.url));

/**
 * What three-subset.ts must hold, read from one module's source: the `THREE.<Name>` r3f reads,
 * and the classes behind the lowercase JSX elements drei's components (`createElement("mesh")`)
 * and the app's r3f files (`<mesh>`) render. `null` for modules that are none of these.
 */
export function threeNamesUsedBy(id: string, code: string): string[] | null {
  const names = new Set<string>();
  const element = (tag: string) => {
    // Also HTML/SVG elements, which r3f files may render outside the <Canvas>.
    if (['audio', 'line', 'path', 'source'].includes(tag)) return;
    const name = `${tag.charAt(0).toUpperCase()}${tag.slice(1)}`;
    if (name in THREE) names.add(name);
  };
  if (/[\\/]node_modules[\\/]@react-three[\\/]fiber[\\/]/.test(id))
    for (const [, name = ''] of code.matchAll(/\bTHREE\.([A-Za-z_$][\w$]*)/g)) names.add(name);
  else if (/[\\/]node_modules[\\/]@react-three[\\/]drei[\\/]/.test(id))
    for (const [, tag = ''] of code.matchAll(/createElement\(\s*["']([a-z][A-Za-z0-9]*)["']/g))
      element(tag);
  else if (/[\\/]src[\\/]web[\\/].*\.tsx$/.test(id) && code.includes('@react-three/'))
    for (const [, tag = ''] of code.matchAll(/<([a-z][A-Za-z0-9]*)(?=[\s/>])/g)) element(tag);
  else return null;
  return [...names];
}

/**
 * In builds, @react-three/fiber's imports of 'three', and only those, resolve to
 * src/web/lib/three-subset.ts: its <Canvas> registers the whole namespace as its catalogue of JSX
 * elements, which keeps all of three.js in the bundle; the subset has what r3f itself and the
 * viewer's JSX elements use (the app, drei and three's add-ons import what they use from 'three'
 * as usual). Once the bundle is known, every module in it that reads names off r3f's THREE or
 * renders an element is checked against the subset (see threeNamesUsedBy): a missing name fails
 * the build here rather than the viewer at run time ("R3F: <Name> is not part of the THREE
 * namespace!"). In dev, r3f is pre-bundled with all of three and none of this applies.
 */
function r3fThreeSubset(): Plugin {
  return {
    name: 'kiln-r3f-three-subset',
    apply: 'build',
    enforce: 'pre',
    resolveId: {
      filter: { id: /^three$/ },
      handler(source, importer) {
        if (source !== 'three' || !importer) return null;
        if (!/[\\/]node_modules[\\/]@react-three[\\/]fiber[\\/]/.test(importer)) return null;
        return THREE_SUBSET;
      },
    },
    generateBundle(_options, bundle) {
      const missing = new Map<string, string[]>();
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const [id, rendered] of Object.entries(chunk.modules)) {
          if (rendered.renderedLength === 0 || !existsSync(id)) continue;
          const names = threeNamesUsedBy(id, readFileSync(id, 'utf8')) ?? [];
          const absent = names.filter((name) => !(name in THREE_SUBSET_EXPORTS));
          if (absent.length) missing.set(id, absent);
        }
      }
      if (missing.size)
        this.error(
          `src/web/lib/three-subset.ts, all that react-three-fiber knows of three.js, lacks what these use; export it there:\n${[
            ...missing,
          ]
            .map(([id, names]) => `  ${id}: ${names.join(', ')}`)
            .join('\n')}`,
        );
    },
  };
}

/** What gets `.br` and `.gz` siblings: text, wasm (the decoders); not source maps. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|wasm|txt)$/;
const MIN_COMPRESS_BYTES = 1024;

/**
 * Precompressed copies of the build's compressible files (brotli 11 and gzip 9, each kept only
 * when smaller), written next to them once the build is on disk. The server sends them to
 * browsers that accept them (serveStatic's `precompressed`, see src/server/app.ts), so nothing
 * is compressed per request.
 */
function precompress(): Plugin {
  let outDir = '';
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  return {
    name: 'kiln-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle(error?: Error) {
      if (error || !outDir || !statSync(outDir, { throwIfNoEntry: false })?.isDirectory()) return;
      const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' })
        .map((f) => join(outDir, f))
        .filter((f) => COMPRESSIBLE.test(f) && statSync(f).isFile());
      // A sibling is kept only when smaller; one an earlier build left in the same directory
      // (emptyOutDir off) and this one does not rewrite would be stale: it is removed.
      const write = (file: string, bytes: Buffer, original: Buffer) => {
        if (bytes.byteLength < original.byteLength) writeFileSync(file, bytes);
        else rmSync(file, { force: true });
      };
      await Promise.all(
        files.map(async (file) => {
          const body = readFileSync(file);
          if (body.byteLength < MIN_COMPRESS_BYTES) {
            for (const ext of ['.br', '.gz']) rmSync(`${file}${ext}`, { force: true });
            return;
          }
          const [br, gzipped] = await Promise.all([
            brotli(body, {
              params: {
                [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
                [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
              },
            }),
            gz(body, { level: 9 }),
          ]);
          write(`${file}.br`, br, body);
          write(`${file}.gz`, gzipped, body);
        }),
      );
    },
  };
}

/** The app's module, which the entry imports once it has run (src/web/main.tsx). */
const APP_MODULE = '/src/web/boot.tsx';

/**
 * index.html names the app's chunk and its static imports (`<link rel="modulepreload">`, marked
 * with APP_PRELOAD_ATTRIBUTE): the entry imports the app once it has run, and without these the
 * browser would ask for the app only then, a round trip later. A share page's server-drawn shell
 * leaves them out (src/server/share/public-link.ts).
 */
function appPreloads(): Plugin {
  let base = '/';
  return {
    name: 'kiln-app-preloads',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return html;
        const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []));
        const app = chunks.find((c) => c.facadeModuleId?.endsWith(APP_MODULE));
        if (!app) throw new Error(`kiln-app-preloads: no chunk for ${APP_MODULE}`);
        const files = new Set<string>();
        const visit = (fileName: string) => {
          const chunk = bundle[fileName];
          if (files.has(fileName) || chunk?.type !== 'chunk' || chunk.isEntry) return;
          files.add(fileName);
          chunk.imports.forEach(visit);
        };
        visit(app.fileName);
        const tags = [...files]
          .filter((file) => !html.includes(file))
          .map((file) => ({
            tag: 'link',
            attrs: {
              rel: 'modulepreload',
              crossorigin: true,
              href: `${base}${file}`,
              [APP_PRELOAD_ATTRIBUTE]: true,
            },
            injectTo: 'head' as const,
          }));
        return { html, tags };
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), r3fThreeSubset(), localDecoders(), precompress(), appPreloads()],
  // The manifest tells the server which chunks a route needs (src/server/spa-shell.ts).
  build: { outDir: 'dist', sourcemap: true, assetsInlineLimit: 0, manifest: true },
  // `npm run dev` serves the SPA with hot reload and sends API calls to a running `npm run serve`.
  server: { proxy: { '/api': api, '/mock': api } },
});
