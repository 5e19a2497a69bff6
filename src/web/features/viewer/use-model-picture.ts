import { useEffect, useRef, type RefObject } from 'react';
import { DEFAULT_SETTINGS, type ViewerSettings } from './settings.ts';
import type { ViewerState } from './use-viewer-lifecycle.ts';
import type { ViewHandle } from './view-handle.ts';

/** The size of the pictures `onPicture` receives (4:3, as the gallery's cards). */
const PICTURE_SIZE = { width: 480, height: 360 } as const;

/**
 * The gallery's picture of `url`'s model: once per URL, when first settled in the default look
 * (the exposure and the shadow as they start; the background and grid are left out anyway), and
 * never of a local file shown in its place.
 */
export function useModelPicture({
  state,
  url,
  showingLocal,
  settings,
  handle,
  onPicture,
}: {
  state: ViewerState;
  url: string | null;
  showingLocal: boolean;
  settings: ViewerSettings;
  handle: RefObject<ViewHandle | null>;
  onPicture: ((picture: Blob) => void) | undefined;
}): void {
  const pictured = useRef<string | null>(null);
  const plain =
    settings.look === 'lit' &&
    !settings.wireframe &&
    settings.exposure === DEFAULT_SETTINGS.exposure;
  useEffect(() => {
    if (state !== 'ready' || !onPicture || !url || showingLocal || !plain) return;
    if (pictured.current === url) return;
    const view = handle.current;
    if (!view) return;
    pictured.current = url;
    view.picture(PICTURE_SIZE.width, PICTURE_SIZE.height).then(onPicture, () => {});
  }, [state, onPicture, url, showingLocal, plain, handle]);
}
