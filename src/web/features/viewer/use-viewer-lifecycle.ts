import { useCallback, useEffect, useRef, useState } from 'react';
import type { RootState } from '@react-three/fiber';
import { ACESFilmicToneMapping, SRGBColorSpace } from 'three';
import { forget } from './loaders.ts';
import type { ModelInfo } from './model-view.tsx';

export type ViewerState = 'empty' | 'loading' | 'ready' | 'error' | 'lost';

type Outcome = { key: string; state: 'ready' } | { key: string; state: 'error'; message: string };

/** How long a lost WebGL context may take to come back before the viewer offers a restart. */
const RESTORE_WAIT_MS = 4000;

/** A sentence from a loader error ("Could not load /x.glb: fetch for "…" responded with 404: Not Found"). */
function describe(error: Error): string {
  const message = error.message.trim();
  if (/webgl/i.test(message)) return 'this browser could not start 3D graphics (WebGL).';
  const status = /responded with (\d{3})(?::\s*(.*))?$/s.exec(message);
  if (status)
    return `the server answered ${status[1]}${status[2] ? ` (${status[2].trim()})` : ''}.`;
  const inner = /^Could not load .*?: (.+)$/s.exec(message)?.[1] ?? message;
  return inner.endsWith('.') ? inner : `${inner}.`;
}

function configureRenderer({ gl }: RootState): void {
  gl.toneMapping = ACESFilmicToneMapping;
  gl.outputColorSpace = SRGBColorSpace;
  gl.setClearColor(0x000000, 0);
  // Test hook (e2e): what the renderer holds on the GPU, to check models are freed.
  Object.assign(gl.domElement, { kilnMemory: () => ({ ...gl.info.memory }) });
}

/**
 * One viewer's load, per source: its state (empty, loading, ready, error, or a lost WebGL
 * context), download progress, the loaded model, and the callbacks the stage and the canvas
 * report to. A new source, a retry or a restarted canvas starts again from "loading".
 * `onShown` hears when the model is first shown settled, or its error is.
 */
export function useViewerLifecycle(source: string | null, onShown?: () => void) {
  const [attempt, setAttempt] = useState(0);
  const [lost, setLost] = useState<'lost' | 'gone' | null>(null);
  const key = `${attempt}:${source}`;
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [progress, setProgress] = useState<{ key: string; percent: number } | null>(null);
  const [info, setInfo] = useState<{ key: string; info: ModelInfo } | null>(null);
  // The source whose model has been drawn once (the view may still be settling).
  const [drawnKey, setDrawnKey] = useState<string | null>(null);
  // Listeners on the current canvas (for WebGL context loss).
  const listening = useRef<AbortController | null>(null);

  const current = outcome?.key === key ? outcome : null;
  const state: ViewerState = !source ? 'empty' : lost ? 'lost' : (current?.state ?? 'loading');
  const percent = progress?.key === key ? progress.percent : null;
  const model = info?.key === key ? info.info : null;
  const settled = state === 'ready' || state === 'error';
  useEffect(() => {
    if (settled) onShown?.();
  }, [settled, onShown]);

  const onReady = useCallback(() => setOutcome({ key, state: 'ready' }), [key]);
  const onError = useCallback(
    (error: Error) => setOutcome({ key, state: 'error', message: describe(error) }),
    [key],
  );
  const onProgress = useCallback(
    (value: number) =>
      setProgress((p) => (p?.key === key && p.percent === value ? p : { key, percent: value })),
    [key],
  );
  const onLoaded = useCallback((loaded: ModelInfo) => setInfo({ key, info: loaded }), [key]);
  const onFirstFrame = useCallback(() => setDrawnKey(key), [key]);
  const retry = useCallback(() => {
    listening.current?.abort();
    if (source) forget(source);
    setLost(null);
    setAttempt((n) => n + 1);
  }, [source]);

  // WebGL context loss (GPU reset, driver update, too many contexts): three stops drawing and
  // waits; when the browser gives the context back, the canvas starts afresh. If it does not
  // within a few seconds, the viewer offers to restart it.
  useEffect(() => () => listening.current?.abort(), []);
  const onCreated = useCallback((root: RootState) => {
    configureRenderer(root);
    // Only the current canvas is listened to: an old one, freed when the canvas restarts, fires
    // "context lost" as it goes.
    listening.current?.abort();
    const controller = new AbortController();
    listening.current = controller;
    const { signal } = controller;
    const canvas = root.gl.domElement;
    let timer: ReturnType<typeof setTimeout> | undefined;
    signal.addEventListener('abort', () => clearTimeout(timer));
    canvas.addEventListener(
      'webglcontextlost',
      () => {
        setLost('lost');
        timer = setTimeout(() => setLost('gone'), RESTORE_WAIT_MS);
      },
      { signal },
    );
    canvas.addEventListener(
      'webglcontextrestored',
      () => {
        controller.abort();
        setLost(null);
        setAttempt((n) => n + 1);
      },
      { signal },
    );
  }, []);

  return {
    state,
    /** Why it failed, when it did. */
    errorMessage: current?.state === 'error' ? current.message : null,
    lost,
    attempt,
    percent,
    model,
    /** The model is on screen (drawn once), though the view may still be settling. */
    drawn: drawnKey === key,
    retry,
    onReady,
    onError,
    onProgress,
    onLoaded,
    onFirstFrame,
    onCreated,
  };
}

/** One viewer's load, as `useViewerLifecycle` gives it (what the canvas reports to). */
export type ViewerLifecycle = ReturnType<typeof useViewerLifecycle>;
