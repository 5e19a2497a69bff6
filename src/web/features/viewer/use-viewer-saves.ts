import { useCallback, useState, type RefObject } from 'react';
import { saveBlob } from '../../lib/save-blob.ts';
import type { LoadedModel } from './loaders.ts';
import type { SaveWhat } from './save-menu.tsx';
import type { ScreenshotOptions } from './screenshot.ts';
import type { ViewHandle } from './view-handle.ts';

/** Which of the Save menu's dialogs is open, with what it shows. */
export interface SaveDialogState {
  /** "Turntable…" is open. */
  turning: boolean;
  /** "Screenshot (PNG)…" is asking the size and background; with the view's size shown. */
  shooting: { width: number; height: number } | null;
  /** "STL for slicers…" is asking the printed height; with the model's height at file scale. */
  slicing: { fileHeightMm: number | null } | null;
}

const CLOSED: SaveDialogState = { turning: false, shooting: null, slicing: null };

/**
 * The viewer's Save menu: `act` saves a file at once (the GLB, OBJ, STL, USDZ, or "png", the
 * shortcut's screenshot as shown), or opens the dialog that asks first (`dialogs`, closed by
 * `close`); `screenshot` draws and saves a picture of the view. A failed export is said through
 * `onNotice`.
 */
export function useViewerSaves({
  handle,
  figure,
  model,
  name,
  sceneColour,
  onNotice,
}: {
  handle: RefObject<ViewHandle | null>;
  figure: RefObject<HTMLElement | null>;
  model: LoadedModel | null;
  /** The download name, without extension. */
  name: string;
  sceneColour: string | null;
  onNotice: (notice: string | null) => void;
}) {
  const [dialogs, setDialogs] = useState<SaveDialogState>(CLOSED);
  const close = useCallback(() => setDialogs(CLOSED), []);

  const screenshot = useCallback(
    async (options: ScreenshotOptions) => {
      const stage = handle.current?.turntable();
      if (!stage) throw new Error('the view is not drawn yet: try again in a moment.');
      const { takeScreenshot, screenshotFileName } = await import('./screenshot.ts');
      const blob = await takeScreenshot(stage, figure.current, sceneColour, options);
      saveBlob(blob, screenshotFileName(name, options));
    },
    [handle, figure, name, sceneColour],
  );

  const act = useCallback(
    /** A Save menu choice, or "png" (the shortcut: a screenshot as shown, the stage as seen). */
    async (what: SaveWhat | 'png') => {
      try {
        if (what === 'turntable') return setDialogs({ ...CLOSED, turning: true });
        if (what === 'screenshot') {
          const canvas = figure.current?.querySelector('canvas');
          const shown = { width: canvas?.width ?? 0, height: canvas?.height ?? 0 };
          return setDialogs({ ...CLOSED, shooting: shown });
        }
        if (what === 'png') return await screenshot({ size: 'shown', background: 'stage' });
        if (!model) return;
        if (what === 'glb') {
          const glb = new Blob([model.bytes.slice()], { type: 'model/gltf-binary' });
          return saveBlob(glb, `${name}.glb`);
        }
        const { exportModel, exportFileNameFor, fileHeightMm } =
          await import('./export/export-model.ts');
        if (what === 'stl-z-up')
          return setDialogs({
            ...CLOSED,
            slicing: { fileHeightMm: fileHeightMm(model.gltf.scene) },
          });
        const blob = await exportModel(what, model.gltf.scene);
        saveBlob(blob, exportFileNameFor(what, name));
        onNotice(null);
      } catch (e) {
        onNotice(`The export failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    [figure, model, name, screenshot, onNotice],
  );

  /** The slicer STL at the printed height the dialog asked. */
  const saveSlicerStl = useCallback(
    async (heightMm: number) => {
      if (!model) return;
      const { exportModel, exportFileNameFor } = await import('./export/export-model.ts');
      const blob = await exportModel('stl-z-up', model.gltf.scene, { heightMm });
      saveBlob(blob, exportFileNameFor('stl-z-up', name));
    },
    [model, name],
  );

  return { dialogs, close, act, screenshot, saveSlicerStl };
}
