// /viewer, opened by address, starts its slow work from the entry script, before React renders:
// the viewer's code (three.js, react-three-fiber) and the models named in the query string
// download at once, instead of one after the other as each lazy piece renders, and the models
// are parsed (and their meshes and images decoded) while WebGL starts up, itself started early
// (webgl-warmup.ts).
import { modelPathsFromQuery } from './address.ts';
import { prefetch } from './model-bytes.ts';
import { warmUpWebGL } from './webgl-warmup.ts';

export function preloadViewer({ pathname, search }: Pick<Location, 'pathname' | 'search'>): void {
  if (pathname !== '/viewer') return;
  const paths = modelPathsFromQuery(search);
  if (!paths.a && !paths.b) return;
  // The same modules React.lazy imports (see app.tsx and index.ts): the browser loads each once.
  const models = [paths.a, paths.b].filter((path) => path !== null);
  for (const path of models) prefetch(path);
  void import('./viewer-page.tsx').catch(() => undefined);
  void import('./model-viewer.tsx').catch(() => undefined);
  // Parsing starts as soon as the loaders are in, while React still renders the page and WebGL
  // starts.
  void import('./loaders.ts').then(
    ({ preloadModel }) => models.forEach(preloadModel),
    () => undefined,
  );
  // After the requests above are out and React has had a turn to show the page's shell. Not in
  // development: StrictMode's replayed effects would have react-three-fiber tear down a root
  // whose canvas was swapped for the warm one (see createRenderer in model-viewer.tsx).
  if (!import.meta.env.DEV) setTimeout(warmUpWebGL, 0);
}
