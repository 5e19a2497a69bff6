import { Hono } from 'hono';
import { serveStatic } from '@hono/node-server/serve-static';
import { readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ERROR_TYPES } from '../contract/index.ts';
import { proxyToUpstream, type ProxyTarget } from './proxy.ts';

export interface ServerDeps {
  /** Where `/api/v1/*` goes. */
  upstream: ProxyTarget;
  /** Mounted at `/mock/v1` in mock mode. */
  mock?: { fetch: (request: Request) => Response | Promise<Response> };
  /** The built SPA (vite build output); absent in API-only tests. */
  staticDir?: string;
  /** Facts the SPA may show: mock mode, the demo key. */
  info: { mode: 'mock' | 'upstream'; demoKey?: string };
}

export function createServerApp(deps: ServerDeps): Hono {
  const app = new Hono();

  app.get('/api/health', (c) => c.json({ ok: true }));
  app.get('/api/info', (c) => c.json(deps.info));

  app.all('/api/v1/*', (c) =>
    proxyToUpstream(c, deps.upstream, c.req.path.slice('/api/v1'.length)),
  );

  const mock = deps.mock;
  if (mock) app.all('/mock/v1/*', (c) => mock.fetch(c.req.raw));

  app.all('/api/*', (c) =>
    c.json(
      {
        error: {
          message: `No route ${c.req.method} ${c.req.path}.`,
          type: ERROR_TYPES.notFound,
          code: 'route_not_found',
        },
      },
      404,
    ),
  );

  const staticDir = deps.staticDir;
  if (staticDir && existsSync(join(staticDir, 'index.html'))) {
    const root = relative(process.cwd(), staticDir) || '.';
    const indexHtml = readFileSync(join(staticDir, 'index.html'), 'utf8');
    app.use(
      '/assets/*',
      serveStatic({
        root,
        onFound: (_path, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
      }),
    );
    app.use('*', serveStatic({ root }));
    // Client-side routes fall back to the SPA shell.
    app.get('*', (c) => c.html(indexHtml, 200, { 'Cache-Control': 'no-cache' }));
  }
  return app;
}
