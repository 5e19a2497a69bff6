// The Save menu's dialogs, each loaded when first opened: the screenshot's size and background,
// the slicer STL's printed height, and the turntable (with the muxer and the GIF encoder).
import { lazy, Suspense, type RefObject } from 'react';
import type { ScreenshotOptions } from './screenshot.ts';
import type { SaveDialogState } from './use-viewer-saves.ts';
import type { ViewHandle } from './view-handle.ts';

const TurntableDialog = lazy(() => import('./turntable/turntable-dialog.tsx'));
const StlDialog = lazy(() => import('./stl-dialog.tsx'));
const ScreenshotDialog = lazy(() => import('./screenshot-dialog.tsx'));

/** The open one of the viewer's save dialogs (`dialogs` says which), or nothing. */
export function SaveDialogs({
  dialogs,
  hasModel,
  handle,
  figure,
  sceneColour,
  name,
  screenshot,
  saveSlicerStl,
  onClose,
}: {
  dialogs: SaveDialogState;
  hasModel: boolean;
  handle: RefObject<ViewHandle | null>;
  figure: RefObject<HTMLElement | null>;
  sceneColour: string | null;
  /** The download name, without extension. */
  name: string;
  screenshot: (options: ScreenshotOptions) => Promise<void>;
  saveSlicerStl: (heightMm: number) => Promise<void>;
  onClose: () => void;
}) {
  return (
    <>
      {dialogs.shooting && (
        <Suspense fallback={null}>
          <ScreenshotDialog shown={dialogs.shooting} onSave={screenshot} onClose={onClose} />
        </Suspense>
      )}
      {dialogs.slicing && hasModel && (
        <Suspense fallback={null}>
          <StlDialog
            fileHeightMm={dialogs.slicing.fileHeightMm}
            onSave={saveSlicerStl}
            onClose={onClose}
          />
        </Suspense>
      )}
      {dialogs.turning && (
        <Suspense fallback={null}>
          <TurntableDialog
            stage={() => handle.current?.turntable() ?? null}
            viewer={() => figure.current}
            sceneColour={sceneColour}
            fileBase={name}
            onClose={onClose}
          />
        </Suspense>
      )}
    </>
  );
}
