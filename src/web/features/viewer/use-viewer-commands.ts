import type { RefObject } from 'react';
import type { Command, SettingsAction } from './settings.ts';
import type { ViewHandle } from './view-handle.ts';

/**
 * What the viewer's shortcuts ask for, done: camera moves on the view, the screenshot, opening a
 * file, the next clip (of `clipCount`), and every settings change through `dispatch`.
 */
export function useViewerCommands({
  handle,
  dispatch,
  clip,
  clipCount,
  screenshot,
  open,
}: {
  handle: RefObject<ViewHandle | null>;
  dispatch: (action: SettingsAction) => void;
  /** The clip playing. */
  clip: number;
  clipCount: number;
  /** The shortcut's screenshot: as shown, the stage as seen. */
  screenshot: () => void;
  /** Opens a local file; undefined where files cannot be opened. */
  open: (() => void) | undefined;
}) {
  return (action: SettingsAction | Command) => {
    const view = handle.current;
    switch (action.type) {
      case 'reset':
        return view?.reset();
      case 'orbit':
        return view?.orbit(action.azimuth, action.polar);
      case 'zoom':
        return view?.zoom(action.factor);
      case 'screenshot':
        return screenshot();
      case 'open-file':
        return open?.();
      case 'next-clip':
        return dispatch({ type: 'clip', clip: clip + action.step, count: clipCount });
      default:
        dispatch(action);
    }
  };
}
