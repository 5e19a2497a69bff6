import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const api = process.env.KILN_DEV_API ?? 'http://127.0.0.1:8080';

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
  return {
    name: 'kiln-local-decoders',
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const file = files.get((req.url ?? '').split('?')[0] ?? '');
        if (!file) return next();
        res.setHeader(
          'Content-Type',
          file.endsWith('.wasm') ? 'application/wasm' : 'text/javascript',
        );
        res.end(readFileSync(file));
      });
    },
    generateBundle() {
      for (const [url, file] of files)
        this.emitFile({ type: 'asset', fileName: url.slice(1), source: readFileSync(file) });
    },
  };
}

export default defineConfig({
  plugins: [react(), localDecoders()],
  build: { outDir: 'dist', sourcemap: true, assetsInlineLimit: 0 },
  // `npm run dev` serves the SPA with hot reload and sends API calls to a running `npm run serve`.
  server: { proxy: { '/api': api, '/mock': api } },
});
