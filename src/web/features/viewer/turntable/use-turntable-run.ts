import { useEffect, useRef, useState } from 'react';
import { formatBytes } from '../../../../formats/index.ts';
import { saveBlob } from '../../../lib/save-blob.ts';
import type { TurntableStage } from '../view-handle.ts';
import { chosenBackdrop } from './backdrop.ts';
import { makeTurntable, type Progress } from './make-turntable.ts';
import { turntableFileName, type TurntableOptions } from './options.ts';
import { formatAvailability, probeSupport, type Support } from './support.ts';

export type Phase =
  | { kind: 'idle' }
  | { kind: 'running'; progress: Progress | null }
  | { kind: 'done'; message: string }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string };

/** What this browser encodes (null while asked), and the format chosen: the first it makes. */
export function useTurntableFormat() {
  const [support, setSupport] = useState<Support | null>(null);
  const [format, setFormat] = useState<TurntableOptions['format']>('webm');
  useEffect(() => {
    let live = true;
    probeSupport().then(
      (found) => {
        if (!live) return;
        setSupport(found);
        setFormat((f) => (formatAvailability(found, f) ? 'gif' : f));
      },
      () => live && setSupport({ webCodecs: false, webm: null, mp4: false, webmAlpha: false }),
    );
    return () => {
      live = false;
    };
  }, []);
  return { support, format, setFormat };
}

/**
 * One turntable at a time: `run` makes it (progress in `phase`), saves it as `fileBase` and says
 * so; `cancel` (or closing the dialog) stops it and throws it away. Focus moves to Cancel while it
 * runs and back to Start after (`cancelRef`, `startRef`).
 */
export function useTurntableRun({
  stage,
  viewer,
  sceneColour,
  fileBase,
}: {
  stage: () => TurntableStage | null;
  viewer: () => HTMLElement | null;
  sceneColour: string | null;
  fileBase: string;
}) {
  const abort = useRef<AbortController | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const startRef = useRef<HTMLButtonElement>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  useEffect(() => () => abort.current?.abort(), []);

  const run = async (options: TurntableOptions, support: Support) => {
    const scene = stage();
    if (!scene) {
      setPhase({ kind: 'failed', message: 'The view is not drawn yet: try again in a moment.' });
      return;
    }
    const backdrop = chosenBackdrop(options.background, viewer(), sceneColour, options.colour);
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'running', progress: null });
    // Focus moves to Cancel, which takes Start's place.
    requestAnimationFrame(() => cancelRef.current?.focus());
    try {
      const blob = await makeTurntable(scene, options, backdrop, support, {
        signal: controller.signal,
        onProgress: (progress) => setPhase({ kind: 'running', progress }),
      });
      if (controller.signal.aborted) throw new DOMException('cancelled', 'AbortError');
      const name = turntableFileName(fileBase, options.format);
      saveBlob(blob, name);
      setPhase({ kind: 'done', message: `Saved ${name} (${formatBytes(blob.size)}).` });
    } catch (e) {
      if (controller.signal.aborted || (e instanceof DOMException && e.name === 'AbortError'))
        setPhase({ kind: 'cancelled' });
      else
        setPhase({
          kind: 'failed',
          message: `The turntable could not be made: ${e instanceof Error ? e.message : String(e)}`,
        });
    } finally {
      if (abort.current === controller) abort.current = null;
      requestAnimationFrame(() => startRef.current?.focus());
    }
  };
  const cancel = () => abort.current?.abort();
  return { phase, run, cancel, cancelRef, startRef };
}
