import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A built SPA in a temp dir, as far as a public page's shell reads it (a model's link, a
 * collection's): index.html and Vite's manifest, with `page` (the page's module, built to
 * `chunk`) and the viewer as chunks the shell preloads.
 */
export function builtSpa(page: string, chunk: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'kiln-static-'));
  mkdirSync(join(dir, '.vite'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <meta name="description" content="Kiln: a browser studio for image-to-3D generation." />
    <title>Kiln</title>
    <script type="module" crossorigin src="/assets/index-E.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/boot-B.js" data-kiln-app>
  </head>
  <body><div id="root"></div></body>
</html>
`,
  );
  writeFileSync(
    join(dir, '.vite/manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-E.js', isEntry: true },
      [page]: { file: chunk, css: [chunk.replace(/\.js$/, '.css')] },
      'src/web/features/viewer/model-viewer.tsx': { file: 'assets/model-viewer-M.js' },
      'src/web/features/viewer/first-frame.ts': {
        file: 'assets/first-frame-F.js',
        imports: ['_three-T.js'],
      },
      '_three-T.js': { file: 'assets/three-T.js' },
    }),
  );
  return dir;
}
