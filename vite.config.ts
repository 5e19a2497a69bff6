import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const api = process.env.KILN_DEV_API ?? 'http://127.0.0.1:8080';

/**
 * The KTX2 (Basis) transcoding worker as one same-origin script: exactly the body three's
 * KTX2Loader would otherwise assemble into a blob: URL at run time. Basis' transcoder is built
 * with embind, which compiles small functions from strings; served as a file, the worker can get
 * a CSP of its own that allows that (see src/server/app.ts), while the page's CSP still forbids
 * eval.
 */
export async function ktx2WorkerSource(libs: string): Promise<string> {
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

export default defineConfig({
  plugins: [react(), localDecoders()],
  build: { outDir: 'dist', sourcemap: true, assetsInlineLimit: 0 },
  // `npm run dev` serves the SPA with hot reload and sends API calls to a running `npm run serve`.
  server: { proxy: { '/api': api, '/mock': api } },
});
