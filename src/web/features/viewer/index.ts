// The viewer's public entry. Only the lazy import below may reach three.js / react-three-fiber:
// importing this file keeps them (and viewer.css) in a chunk fetched when a viewer first renders.
import { lazy } from 'react';

export type { ModelViewerProps } from './model-viewer.tsx';

/** `<LazyModelViewer url label className? />`, to be rendered inside a <Suspense> boundary. */
export const LazyModelViewer = lazy(() => import('./model-viewer.tsx'));
