// The built SPA: its files (cached for good when content-hashed, precompressed siblings), the
// KTX2 worker's own policy, shared models' and collections' public pages, and the shell for
// client-side routes.
import { serveStatic } from '@hono/node-server/serve-static';
import type { Context, Hono } from 'hono';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { collectionPageRoutes } from './collections/routes.ts';
import { sharePageRoutes } from './share/routes.ts';
import { MANIFEST_PATH, readManifest, routeShells } from './spa-shell.ts';
import type { BlobStore } from './storage/blobs.ts';
import type { Storage } from './storage/database.ts';

/** The CSP of the KTX2 worker script: eval for embind, wasm, and nothing from elsewhere. */
export const KTX2_WORKER_CSP =
  "default-src 'none'; script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'; connect-src 'self'";

/** Serves `staticDir` on `app` when it holds a build (index.html); else does nothing. */
export function serveSite(
  app: Hono,
  deps: {
    staticDir?: string | undefined;
    storage: Storage;
    blobs: BlobStore;
    publicUrl?: string | undefined;
  },
): void {
  const { storage } = deps;
  const staticDir = deps.staticDir;
  if (staticDir && existsSync(join(staticDir, 'index.html'))) {
    const root = relative(process.cwd(), staticDir) || '.';
    const indexHtml = readFileSync(join(staticDir, 'index.html'), 'utf8');
    // Headers for the files serveStatic finds, set once its response exists (its onFound runs
    // after the response is built, so headers set there are lost): /assets/* are content-hashed,
    // cached for good; a file with precompressed siblings varies on Accept-Encoding.
    const served = new WeakMap<Context, string>();
    app.use('*', async (c, next) => {
      await next();
      const file = served.get(c);
      if (file === undefined) return;
      if (c.req.path.startsWith('/assets/'))
        c.header('Cache-Control', 'public, max-age=31536000, immutable');
      const compressed = /\.(?:br|gz)$/.test(file); // serveStatic has said Vary then
      if (!compressed && (existsSync(`${file}.br`) || existsSync(`${file}.gz`)))
        c.header('Vary', 'Accept-Encoding');
    });
    // The KTX2 transcoding worker (see vite.config.ts) runs Basis' embind-generated code, which
    // needs eval: it gets a policy of its own that allows it, in that worker only.
    app.use('/decoders/basis/ktx2-worker.js', async (c, next) => {
      await next();
      c.header('Content-Security-Policy', KTX2_WORKER_CSP);
    });
    // Vite's build manifest (read above, for the route shells) is not for browsers.
    app.all(`/${dirname(MANIFEST_PATH)}/*`, (c) => c.notFound());
    // The build writes .br and .gz siblings of its compressible files (vite.config.ts); they go
    // out with Content-Encoding to browsers that accept them (br first, then gzip), with the
    // original file's Content-Type.
    app.use(
      '*',
      serveStatic({ root, precompressed: true, onFound: (path, c) => void served.set(c, path) }),
    );
    // A shared model's public page: the shell with its link preview (Open Graph) tags.
    const manifest = readManifest(staticDir);
    app.route(
      '/s',
      sharePageRoutes({
        shares: storage.shares,
        blobs: deps.blobs,
        publicUrl: deps.publicUrl,
        indexHtml,
        manifest,
      }),
    );
    // A shared collection's public page, likewise.
    app.route(
      '/c',
      collectionPageRoutes({
        collections: storage.collections,
        publicUrl: deps.publicUrl,
        indexHtml,
        manifest,
      }),
    );
    // Client-side routes fall back to the SPA shell; some get one that names their chunks.
    const shells = routeShells(indexHtml, manifest);
    app.get('*', (c) =>
      c.html(shells.get(c.req.path) ?? indexHtml, 200, { 'Cache-Control': 'no-cache' }),
    );
  }
}
