// The first of the entry's modules to run (main.tsx imports it before anything else): work that
// should not wait for React and the app to be evaluated. Keep it small (no zod); it is in every
// page.
import { inlineShare, shareTokenOf } from './lib/inline-share.ts';
import { preloadViewer, startViewerEarly } from './features/viewer/preload.ts';

preloadViewer(location);

// A share link's page (`/s/{token}`, its embed): the server wrote the link's facts into the page
// (src/server/share/first-paint.ts), so the viewer's code, the model's parsing and WebGL start
// now, not once the page's code has asked for the facts. The GLB itself is already on its way
// (the page preloads it; the viewer's download is the same request).
const token = shareTokenOf(location.pathname);
const facts =
  token === null ? undefined : (inlineShare(token) as { model_url?: unknown } | undefined);
if (typeof facts?.model_url === 'string') startViewerEarly([facts.model_url]);
