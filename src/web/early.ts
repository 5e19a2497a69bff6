// The first of the entry's modules to run (main.tsx imports it before anything else): work that
// should not wait for React and the app to be evaluated. Keep it small (no zod, no React, no
// three.js); it is in every page.
import { FIRST_PAINT_ID } from '../contract/page-data.ts';
import { inlineShare, shareTokenOf } from './lib/inline-share.ts';
import {
  paintFirstFrameEarly,
  preloadViewer,
  startViewerEarly,
} from './features/viewer/preload.ts';

preloadViewer(location);

/**
 * A share link's page (`/s/{token}`, its embed): the server wrote the link's facts and its first
 * look into the page (src/server/share/first-paint.ts). The model is drawn into that look with
 * three.js alone, and the app is asked for once it is (decision 0132); without a drawn look, the
 * viewer's code, the model's parsing and WebGL start now, beside the app.
 */
function startSharePage(): Promise<unknown> {
  const token = shareTokenOf(location.pathname);
  const facts =
    token === null ? undefined : (inlineShare(token) as { model_url?: unknown } | undefined);
  if (typeof facts?.model_url !== 'string') return Promise.resolve();
  const frame = document.querySelector<HTMLElement>(`#${FIRST_PAINT_ID} .share-page__poster-frame`);
  if (!frame) {
    startViewerEarly([facts.model_url]);
    return Promise.resolve();
  }
  return paintFirstFrameEarly(facts.model_url, frame).then(() => {
    // Beside the app, not after it: the page and its viewer (react-three-fiber).
    void import('./features/share/share-page.tsx').catch(() => undefined);
    void import('./features/viewer/model-viewer.tsx').catch(() => undefined);
  });
}

/** When the app may be asked for: at once, or on a share page once its first frame is drawn. */
export const appMayStart: Promise<unknown> = startSharePage();
