import { describe, expect, it } from 'vitest';
import {
  chunkFiles,
  routeShells,
  withMeta,
  withoutAppPreloads,
  withPreloads,
} from './spa-shell.ts';

const INDEX = `<!doctype html>
<html lang="en">
  <head>
    <title>Kiln</title>
    <script type="module" crossorigin src="/assets/index-E1.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/jsx-runtime-J1.js">
  </head>
  <body><div id="root"></div></body>
</html>
`;

// The shape Vite writes (build.manifest), trimmed to what the shell reads and a little more.
const MANIFEST = {
  'index.html': {
    file: 'assets/index-E1.js',
    isEntry: true,
    imports: ['_jsx-runtime-J1.js'],
    dynamicImports: ['src/web/features/viewer/viewer-page.tsx'],
  },
  '_jsx-runtime-J1.js': { file: 'assets/jsx-runtime-J1.js' },
  '_three.core-T1.js': { file: 'assets/three.core-T1.js' },
  '_loaders-L1.js': { file: 'assets/loaders-L1.js', imports: ['_three.core-T1.js'] },
  'src/web/features/viewer/viewer-page.tsx': {
    file: 'assets/viewer-page-V1.js',
    isDynamicEntry: true,
    imports: ['_jsx-runtime-J1.js', 'index.html'],
    css: ['assets/viewer-page-V1.css'],
  },
  'src/web/features/viewer/model-viewer.tsx': {
    file: 'assets/model-viewer-M1.js',
    isDynamicEntry: true,
    imports: ['_jsx-runtime-J1.js', 'index.html', '_loaders-L1.js', '_three.core-T1.js'],
  },
};

describe('chunkFiles', () => {
  it('follows static imports once each and leaves the entry out', () => {
    expect(chunkFiles(MANIFEST, ['src/web/features/viewer/model-viewer.tsx']).sort()).toEqual([
      'assets/jsx-runtime-J1.js',
      'assets/loaders-L1.js',
      'assets/model-viewer-M1.js',
      'assets/three.core-T1.js',
    ]);
  });

  it('skips modules the manifest does not have', () => {
    expect(chunkFiles(MANIFEST, ['src/web/nowhere.tsx'])).toEqual([]);
  });
});

describe('routeShells', () => {
  it('names the viewer chunks in the /viewer shell, not those index.html already loads', () => {
    const shells = routeShells(INDEX, MANIFEST);
    const viewer = shells.get('/viewer') ?? '';
    for (const file of ['viewer-page-V1', 'model-viewer-M1', 'loaders-L1', 'three.core-T1'])
      expect(viewer).toContain(
        `<link rel="modulepreload" crossorigin href="/assets/${file}.js" />`,
      );
    expect(viewer.match(/jsx-runtime-J1/g)).toHaveLength(1);
    // Before </head>, with index.html otherwise unchanged.
    expect(viewer.indexOf('model-viewer-M1')).toBeLessThan(viewer.indexOf('</head>'));
    expect(viewer.replace(/\n\s*<link rel="modulepreload" crossorigin href="[^"]+" \/>/g, '')).toBe(
      INDEX,
    );
    expect(shells.has('/')).toBe(false);
  });

  it('gives no special shells for a missing or malformed manifest', () => {
    expect(routeShells(INDEX, null).size).toBe(0);
    expect(routeShells(INDEX, { 'index.html': { file: 42 } }).size).toBe(0);
    expect(routeShells(INDEX, {}).size).toBe(0);
  });

  it('prefixes a base path', () => {
    expect(routeShells(INDEX, MANIFEST, '/kiln/').get('/viewer')).toContain(
      'href="/kiln/assets/model-viewer-M1.js"',
    );
  });
});

describe('withPreloads', () => {
  it('names the chunks of the given modules, or leaves index.html as it is', () => {
    const shell = withPreloads(INDEX, MANIFEST, ['src/web/features/viewer/model-viewer.tsx']);
    expect(shell).toContain('href="/assets/model-viewer-M1.js"');
    expect(shell.indexOf('model-viewer-M1')).toBeLessThan(shell.indexOf('</head>'));
    expect(withPreloads(INDEX, null, ['src/web/features/viewer/model-viewer.tsx'])).toBe(INDEX);
    expect(withPreloads(INDEX, MANIFEST, ['src/web/nowhere.tsx'])).toBe(INDEX);
  });
});

describe('withoutAppPreloads', () => {
  // As the build writes them (vite.config.ts: kiln-app-preloads).
  const built = `<head>
    <script type="module" crossorigin src="/assets/index-E.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-R.js">
    <link rel="stylesheet" crossorigin href="/assets/index-E.css">
    <link rel="modulepreload" crossorigin href="/assets/boot-B.js" data-kiln-app>
    <link rel="modulepreload" crossorigin href="/assets/react-dom-D.js" data-kiln-app>
  </head>`;

  it('leaves out exactly the app’s preloads (a share page asks for the app after its first frame)', () => {
    expect(withoutAppPreloads(built)).toBe(`<head>
    <script type="module" crossorigin src="/assets/index-E.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-R.js">
    <link rel="stylesheet" crossorigin href="/assets/index-E.css">
  </head>`);
  });

  it('leaves a page without them as it is', () => {
    expect(withoutAppPreloads(INDEX)).toBe(INDEX);
  });
});

describe('withMeta', () => {
  const meta = {
    title: 'a "red" <vase> & co',
    description: "It's <b>bold</b>",
    url: 'https://kiln.example/s/t?a=1&b=2',
  };

  it('replaces the title and description and adds link preview tags, all escaped', () => {
    const html = withMeta(
      '<html><head><meta name="description" content="old" /><title>Kiln</title></head></html>',
      { ...meta, noindex: true },
    );
    expect(html).toContain('<title>a &quot;red&quot; &lt;vase&gt; &amp; co · Kiln</title>');
    expect(html).toContain(
      '<meta name="description" content="It&#39;s &lt;b&gt;bold&lt;/b&gt;" />',
    );
    expect(html).not.toContain('content="old"');
    expect(html).toContain(
      '<meta property="og:title" content="a &quot;red&quot; &lt;vase&gt; &amp; co" />',
    );
    expect(html).toContain(
      '<meta property="og:url" content="https://kiln.example/s/t?a=1&amp;b=2" />',
    );
    expect(html).toContain('<meta name="robots" content="noindex, nofollow" />');
    expect(html).toContain('<meta name="twitter:card" content="summary" />');
    expect(html).not.toContain('og:image');
    expect(html).not.toMatch(/<vase>|<b>/);
    expect(html.indexOf('og:title')).toBeLessThan(html.indexOf('</head>'));
  });

  it('takes directional controls out of titles and descriptions', () => {
    const html = withMeta('<html><head><title>Kiln</title></head></html>', {
      title: 'a \u202egnp.exe\u202c vase\u2066\u2069',
      description: 'made \u200f\u202d from a photo',
    });
    expect(html).toContain('<title>a gnp.exe vase · Kiln</title>');
    expect(html).toContain('<meta property="og:title" content="a gnp.exe vase" />');
    expect(html).toContain('<meta name="twitter:description" content="made  from a photo" />');
    expect(html).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/);
  });

  it('adds the picture with its facts, and a title where there was none', () => {
    const html = withMeta('<html><head></head></html>', {
      ...meta,
      image: {
        url: 'https://kiln.example/p.webp',
        alt: 'A picture',
        type: 'image/webp',
        width: 480,
        height: 360,
      },
    });
    expect(html).toContain('<title>a &quot;red&quot; &lt;vase&gt; &amp; co · Kiln</title>');
    expect(html).toContain('<meta property="og:image" content="https://kiln.example/p.webp" />');
    expect(html).toContain('<meta property="og:image:height" content="360" />');
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html).not.toContain('robots');
  });
});
