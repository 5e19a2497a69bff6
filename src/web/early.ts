// The first of the entry's modules to run (main.tsx imports it before anything else): work that
// should not wait for React and the app to be evaluated. Keep it small; it is in every page.
import { preloadViewer } from './features/viewer/preload.ts';

preloadViewer(location);
