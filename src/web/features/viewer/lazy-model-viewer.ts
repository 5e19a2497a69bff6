// The viewer itself, fetched (with three.js) when a viewer first renders.
import { lazy } from 'react';

/** `<LazyModelViewer url label fileName? cameraLink? onOpenFile? />`, inside a <Suspense>. */
export const LazyModelViewer = lazy(() => import('./model-viewer.tsx'));
