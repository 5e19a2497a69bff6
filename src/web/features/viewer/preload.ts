// /viewer, opened by address (and a share link's page: src/web/early.ts), starts its slow work
// from the entry script, before React renders: the viewer's code (three.js, react-three-fiber)
// and the models named in the query string download at once, instead of one after the other as each lazy piece renders, and the models
// are parsed (and their meshes and images decoded) while WebGL starts up, itself started early
// (webgl-warmup.ts).
import { modelPathsFromQuery } from './address.ts';
import { prefetch } from './model-bytes.ts';
import { warmUpWebGL } from './webgl-warmup.ts';

export function preloadViewer({ pathname, search }: Pick<Location, 'pathname' | 'search'>): void {
  if (pathname !== '/viewer') return;
  const paths = modelPathsFromQuery(search);
  const models = [paths.a, paths.b].filter((path) => path !== null);
  if (models.length === 0) return;
  void import('./viewer-page.tsx').catch(() => undefined);
  startViewerEarly(models);
}

/**
 * Starts what a viewer of `models` will need, before React renders it: the models' bytes, the
 * viewer's code and loaders (then the models' parsing), and WebGL. A page that shows a viewer
 * first (/viewer by address, a share link) calls it from the entry script.
 */
export function startViewerEarly(models: readonly string[]): void {
  if (models.length === 0) return;
  startModelsEarly(models);
  // The same module React.lazy imports (see app.tsx and index.ts): the browser loads it once.
  void import('./model-viewer.tsx').catch(() => undefined);
}

/**
 * The models' bytes, their parsing once the loaders are in (while React still renders the page
 * and WebGL starts), and WebGL.
 */
function startModelsEarly(models: readonly string[]): void {
  for (const path of models) prefetch(path);
  void import('./loaders.ts').then(
    ({ preloadModel }) => models.forEach(preloadModel),
    () => undefined,
  );
  // After the requests above are out and React has had a turn to show the page's shell. Not in
  // development: StrictMode's replayed effects would have react-three-fiber tear down a root
  // whose canvas was swapped for the warm one (see createRenderer in model-viewer.tsx).
  if (!import.meta.env.DEV) setTimeout(warmUpWebGL, 0);
}

/**
 * A share page's first frame (decision 0132): starts the model's download, its parsing and WebGL,
 * then draws the model with three.js alone into `frame` (the server-drawn page's poster frame),
 * with the download's progress on it meanwhile. Resolves when the frame is drawn, or cannot be
 * (false); the page's code is asked for then, so that until the model is seen it has the network
 * to itself.
 */
export function paintFirstFrameEarly(url: string, frame: HTMLElement): Promise<boolean> {
  startModelsEarly([url]);
  // As the viewer says it (viewer-overlays.tsx): the live region once, the figure for the eyes.
  const status = document.createElement('p');
  status.className = 'share-page__progress';
  status.setAttribute('role', 'status');
  status.textContent = 'Loading model…';
  const figure = document.createElement('span');
  figure.setAttribute('aria-hidden', 'true');
  status.append(figure);
  frame.append(status);
  const onProgress = (percent: number) => {
    if (percent >= 100) status.textContent = 'Preparing the model…';
    else figure.textContent = ` ${Math.round(percent)}%`;
  };
  return import('./first-frame.ts')
    .then(({ paintFirstFrame }) => paintFirstFrame(url, frame, onProgress))
    .catch(() => false)
    .finally(() => status.remove());
}
