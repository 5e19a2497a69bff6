// The viewer's public entry. Only the lazy imports below may reach three.js / react-three-fiber:
// importing this file keeps them (and viewer.css) in chunks fetched when a viewer first renders.
import { lazy } from 'react';

export type { LocalFile } from './use-local-file.ts';
// Plain TypeScript, no three.js: viewers given the same link share their camera moves.
export { CameraLink } from './camera-link.ts';
// Plain TypeScript: the /viewer address of one model or two, each named by its library entry.
export { addressPath, viewerHref } from './address.ts';

export { LazyModelViewer } from './lazy-model-viewer.ts';

/** A share page's first frame (first-frame.ts) is let go: the page's viewer shows the model now. */
export const handOverFirstFrame = () =>
  void import('./first-frame.ts').then(({ handOver }) => handOver()).catch(() => undefined);

/**
 * `<LazyBackgroundPictures entries />`: draws, off screen and one at a time, the pictures of the
 * finished models among `entries` that have none yet, and keeps them (inside a <Suspense>).
 */
export const LazyBackgroundPictures = lazy(() => import('./background-pictures.tsx'));

/**
 * `usdzOfUrl(url)`: the USDZ of the GLB at `url`, made in this browser with the viewer's export
 * (three.js comes with it, so it is imported only when called).
 */
export const loadUsdzMaker = () => import('./export/usdz-of-url.ts');
