// The 3D viewer: one GLB, lit offline, fitted to view, orbitable, with looks, toggles, facts,
// exports, keyboard shortcuts, and a drop target for any local .glb. Loaded with React.lazy (see
// index.ts) so three.js stays out of the initial bundle. Nothing is fetched from another origin:
// the environment is generated in the browser and the decoders are served by Kiln.
import {
  Component,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useReducer,
  useRef,
  useState,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { Canvas } from '@react-three/fiber';
import { useDropzone } from 'react-dropzone';
import { WebGLRenderer, type WebGLRendererParameters } from 'three';
import type { CameraLink } from './camera-link.ts';
import { saveBlob as downloadBlob } from '../../lib/save-blob.ts';
import { isGlb } from './loaders.ts';
import type { SaveWhat } from './save-menu.tsx';
import type { ScreenshotOptions } from './screenshot.ts';
import {
  backgroundColor,
  DEFAULT_SETTINGS,
  settingsReducer,
  type Command,
  type SettingsAction,
  type ViewerSettings,
} from './settings.ts';
import { useViewerLifecycle } from './use-viewer-lifecycle.ts';
import { useViewerShortcuts } from './use-viewer-shortcuts.ts';
import { ErrorOverlay, HelpDialog, StageOverlays } from './viewer-overlays.tsx';
import { ViewerToolbar } from './viewer-toolbar.tsx';
import { takeWarmCanvas } from './webgl-warmup.ts';
import { Stage } from './scene.tsx';
import { VIEW_DIRECTION, type ViewHandle } from './view-handle.ts';
import './viewer.css';

const FactsPanel = lazy(() => import('./facts-panel.tsx'));
// With the muxer and the GIF encoder: fetched when "Turntable…" is first chosen.
const TurntableDialog = lazy(() => import('./turntable/turntable-dialog.tsx'));
const StlDialog = lazy(() => import('./stl-dialog.tsx'));
const ScreenshotDialog = lazy(() => import('./screenshot-dialog.tsx'));

export interface ModelViewerProps {
  /** Where the GLB is (same origin, or an object URL); null shows an empty viewer to drop into. */
  url: string | null;
  /** What the model is, for assistive technology ("3D model of a chair"). */
  label: string;
  /** File name for downloads and exports, without extension ("kiln-beta-chair-2026-11-22"). */
  fileName?: string;
  className?: string;
  /** Viewers on one link share their camera moves (side-by-side comparison). */
  cameraLink?: CameraLink;
  /** Called when a local file is dropped or opened (else the viewer shows it in place). */
  onOpenFile?: (file: LocalFile) => void;
  /**
   * Whether files from this device may be opened here ("Open…", dropping, the O key). Default
   * true; a public share page shows only its model.
   */
  openFiles?: boolean;
  /**
   * Asks for a picture of `url`'s model (480 × 360, transparent, WebP): given once per URL, the
   * first time the model is shown settled in the default look (the gallery's thumbnail).
   */
  onPicture?: (picture: Blob) => void;
  /**
   * Offers "Turntable…" in the Save menu (a video or GIF of one turn): the result, /viewer, and
   * the share page for its owner. Default false.
   */
  turntable?: boolean;
}

/** The size of the pictures `onPicture` receives (4:3, as the gallery's cards). */
export const PICTURE_SIZE = { width: 480, height: 360 } as const;

/** A .glb from the user's disk, shown through an object URL. */
export interface LocalFile {
  name: string;
  url: string;
  size: number;
}

/** Must match CONTEXT_ATTRIBUTES in webgl-warmup.ts (r3f adds powerPreference: high-performance). */
const GL_OPTIONS = { preserveDrawingBuffer: false, antialias: true, alpha: true };
/** The canvas' pixel ratio: the screen's, from 1 to 2. */
const DPR: [number, number] = [1, 2];

/**
 * The renderer. On a canvas that already has its final size: react-three-fiber would start WebGL
 * on a 300 × 150 canvas and resize it at once, which allocates the drawing buffer a second time
 * (about 0.4 s on a software renderer). And, for the first viewer on /viewer opened by address,
 * on the canvas whose context the entry script started (webgl-warmup.ts), put in the place of
 * react-three-fiber's own: r3f sizes the renderer's canvas and listens on its parent elements.
 * (r3f tears its root down when an effect finds its canvas out of the page, which happens only
 * when the viewer unmounts; or in development, where StrictMode replays effects: there is no
 * warm-up there, see preload.ts.)
 */
function createRenderer({
  canvas: given,
  ...defaults
}: Omit<WebGLRendererParameters, 'canvas'> & { canvas: EventTarget }): WebGLRenderer {
  if (!(given instanceof HTMLCanvasElement) || !given.parentElement)
    return new WebGLRenderer({ ...defaults, ...GL_OPTIONS, canvas: given as HTMLCanvasElement });
  let canvas = given;
  const warm = takeWarmCanvas();
  // r3f sizes the canvas to its parent, at the pixel ratio below (three floors the product).
  const { width, height } = given.parentElement.getBoundingClientRect();
  if (warm) {
    warm.style.cssText = given.style.cssText;
    given.replaceWith(warm);
    canvas = warm;
  }
  const ratio = Math.min(Math.max(window.devicePixelRatio || 1, DPR[0]), DPR[1]);
  canvas.width = Math.max(1, Math.floor(width * ratio));
  canvas.height = Math.max(1, Math.floor(height * ratio));
  return new WebGLRenderer({ ...defaults, ...GL_OPTIONS, canvas });
}
const CAMERA_OPTIONS = { position: VIEW_DIRECTION.clone().multiplyScalar(4), fov: 35 };

interface BoundaryProps {
  children: ReactNode;
  onError: (error: Error) => void;
}

/** Catches load and WebGL errors; the viewer shows them (it reads them through `onError`). */
class ViewerErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    this.props.onError(error instanceof Error ? error : new Error(String(error)));
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

/** The name of a file without its extension, for the names of what is exported from it. */
function baseName(name: string): string {
  return name.replace(/\.[^.]+$/, '') || 'model';
}

export default function ModelViewer({
  url,
  label,
  fileName,
  className,
  cameraLink,
  onOpenFile,
  openFiles = true,
  onPicture,
  turntable = false,
}: ModelViewerProps) {
  const captionId = useId();
  const helpId = useId();
  const [settings, dispatch] = useReducer(settingsReducer, DEFAULT_SETTINGS);
  // A dropped file shown in place of `url` (when the page does not take it itself).
  const [local, setLocal] = useState<LocalFile | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const source = local?.url ?? url;
  const lifecycle = useViewerLifecycle(source);
  const { state, model } = lifecycle;
  const handle = useRef<ViewHandle | null>(null);
  const figure = useRef<HTMLElement>(null);
  const [turning, setTurning] = useState(false);
  /** "STL for slicers…" is asking the printed height; with the model's height at file scale. */
  /** "Screenshot (PNG)…" is asking the size and background; with the view's size shown. */
  const [shooting, setShooting] = useState<{ width: number; height: number } | null>(null);
  const [slicing, setSlicing] = useState<{ fileHeightMm: number | null } | null>(null);

  // The gallery's picture of `url`'s model: once per URL, when first settled in the default look
  // (the exposure and the shadow as they start; the background and grid are left out anyway).
  const pictured = useRef<string | null>(null);
  const plain =
    settings.look === 'lit' &&
    !settings.wireframe &&
    settings.exposure === DEFAULT_SETTINGS.exposure;
  useEffect(() => {
    if (state !== 'ready' || !onPicture || !url || local || !plain || pictured.current === url)
      return;
    const view = handle.current;
    if (!view) return;
    pictured.current = url;
    view.picture(PICTURE_SIZE.width, PICTURE_SIZE.height).then(onPicture, () => {});
  }, [state, onPicture, url, local, plain]);

  const clips = model?.clips ?? [];
  const name = local ? baseName(local.name) : (fileName ?? 'model');

  // The object URL of a dropped file is this viewer's: revoked when replaced or unmounted.
  useEffect(() => {
    if (!local) return;
    return () => URL.revokeObjectURL(local.url);
  }, [local]);

  // Local files: dropped on the viewer or opened with the button (or O).
  const openFile = useCallback(
    async (files: File[]) => {
      const file = files[0];
      if (!file) return;
      const head = new Uint8Array(await file.slice(0, 12).arrayBuffer());
      if (!isGlb(head)) {
        setNotice(
          `“${file.name}” is not a GLB file (binary glTF), so it cannot be shown. Drop a .glb file.`,
        );
        return;
      }
      setNotice(null);
      const opened = { name: file.name, url: URL.createObjectURL(file), size: file.size };
      if (onOpenFile) onOpenFile(opened);
      else setLocal(opened);
    },
    [onOpenFile],
  );
  const { getRootProps, getInputProps, isDragActive, open } = useDropzone({
    onDrop: (accepted) => void openFile(accepted),
    multiple: false,
    noClick: true,
    noKeyboard: true,
    disabled: !openFiles,
    noDrag: !openFiles,
  });

  const sceneColour = backgroundColor(settings);
  const screenshot = useCallback(
    async (options: ScreenshotOptions) => {
      const stage = handle.current?.turntable();
      if (!stage) throw new Error('the view is not drawn yet: try again in a moment.');
      const { takeScreenshot, screenshotFileName } = await import('./screenshot.ts');
      const blob = await takeScreenshot(stage, figure.current, sceneColour, options);
      downloadBlob(blob, screenshotFileName(name, options));
    },
    [name, sceneColour],
  );

  const act = useCallback(
    /** A Save menu choice, or "png" (the shortcut: a screenshot as shown, the stage as seen). */
    async (what: SaveWhat | 'png') => {
      try {
        if (what === 'turntable') {
          setTurning(true);
          return;
        }
        if (what === 'screenshot') {
          const canvas = figure.current?.querySelector('canvas');
          setShooting({ width: canvas?.width ?? 0, height: canvas?.height ?? 0 });
          return;
        }
        if (what === 'png') {
          await screenshot({ size: 'shown', background: 'stage' });
          return;
        }
        if (!model) return;
        if (what === 'glb') {
          downloadBlob(
            new Blob([model.model.bytes.slice()], { type: 'model/gltf-binary' }),
            `${name}.glb`,
          );
          return;
        }
        const { exportModel, exportFileNameFor, fileHeightMm } =
          await import('./export/export-model.ts');
        if (what === 'stl-z-up') {
          setSlicing({ fileHeightMm: fileHeightMm(model.model.gltf.scene) });
          return;
        }
        const blob = await exportModel(what, model.model.gltf.scene);
        downloadBlob(blob, exportFileNameFor(what, name));
        setNotice(null);
      } catch (e) {
        setNotice(`The export failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    [model, name, screenshot],
  );

  const run = useCallback(
    (action: SettingsAction | Command) => {
      const view = handle.current;
      switch (action.type) {
        case 'reset':
          view?.reset();
          return;
        case 'orbit':
          view?.orbit(action.azimuth, action.polar);
          return;
        case 'zoom':
          view?.zoom(action.factor);
          return;
        case 'screenshot':
          void act('png');
          return;
        case 'open-file':
          if (openFiles) open();
          return;
        case 'next-clip':
          dispatch({ type: 'clip', clip: settings.clip + action.step, count: clips.length });
          return;
        default:
          dispatch(action);
      }
    },
    [act, clips.length, open, openFiles, settings.clip],
  );

  const onKeyDown = useViewerShortcuts(settings, state, run, dispatch);

  const resetView = useCallback(() => handle.current?.reset(), []);
  const onDoubleClick = useCallback((event: MouseEvent<HTMLElement>) => {
    // On the stage only: a quick second click in the toolbar is not a request to reset.
    if ((event.target as HTMLElement).closest('.model-viewer__stage canvas'))
      handle.current?.reset();
  }, []);
  const ready = state === 'ready';

  return (
    <>
      <figure
        ref={figure}
        className={className ? `model-viewer ${className}` : 'model-viewer'}
        data-testid="model-viewer"
        data-state={state}
        aria-label={label}
        aria-describedby={captionId}
        aria-busy={state === 'loading'}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onDoubleClick={ready ? onDoubleClick : undefined}
      >
        <div
          {...getRootProps({
            className: `model-viewer__stage${isDragActive ? ' model-viewer__stage--drop' : ''}`,
          })}
        >
          {openFiles && (
            <input
              {...getInputProps()}
              data-testid="viewer-file-input"
              aria-label="Open a .glb file"
            />
          )}
          {state === 'error' && lifecycle.errorMessage !== null ? (
            <ErrorOverlay message={lifecycle.errorMessage} onRetry={lifecycle.retry} />
          ) : source && lifecycle.lost !== 'gone' ? (
            <ViewerErrorBoundary key={lifecycle.attempt} onError={lifecycle.onError}>
              <Canvas
                aria-hidden="true"
                className="model-viewer__canvas"
                frameloop="demand"
                dpr={DPR}
                flat={false}
                linear={false}
                gl={createRenderer}
                camera={CAMERA_OPTIONS}
                onCreated={lifecycle.onCreated}
              >
                <Stage
                  url={source}
                  settings={settings}
                  onProgress={lifecycle.onProgress}
                  onReady={lifecycle.onReady}
                  onError={lifecycle.onError}
                  onLoaded={lifecycle.onLoaded}
                  onFirstFrame={lifecycle.onFirstFrame}
                  handleRef={handle}
                  cameraLink={cameraLink}
                />
              </Canvas>
            </ViewerErrorBoundary>
          ) : null}
          <StageOverlays
            state={state}
            drawn={lifecycle.drawn}
            lost={lifecycle.lost}
            percent={lifecycle.percent}
            dragging={isDragActive}
            onOpen={openFiles ? open : undefined}
            onRetry={lifecycle.retry}
          />
          {settings.help && (
            <HelpDialog id={helpId} onClose={() => dispatch({ type: 'close-help' })} />
          )}
        </div>

        <ViewerToolbar
          settings={settings}
          dispatch={dispatch}
          clips={clips}
          ready={ready}
          hasModel={model !== null}
          onResetView={resetView}
          onOpen={openFiles ? open : undefined}
          turntable={turntable}
          onSave={(what) => void act(what)}
        />

        {notice && (
          <p className="model-viewer__notice" role="alert">
            {notice}
          </p>
        )}
        {local && (
          <p className="model-viewer__source">
            Inspecting <strong>{local.name}</strong>, a file from this device.{' '}
            {url && (
              <button type="button" className="link" onClick={() => setLocal(null)}>
                Show the generated model again
              </button>
            )}
          </p>
        )}
        {settings.facts && model && (
          <Suspense fallback={<p className="muted small">Reading the file…</p>}>
            <FactsPanel
              bytes={model.model.bytes}
              motionSize={model.motionSize}
              posedSize={model.posedSize}
            />
          </Suspense>
        )}
        <figcaption id={captionId} className="visually-hidden">
          Drag to turn, right-drag to pan, scroll to zoom, double-click to reset. Press question
          mark for the keyboard shortcuts.
        </figcaption>
      </figure>
      {/* Beside the figure, not in it: keys typed in the dialog are not the viewer's shortcuts. */}
      {shooting && (
        <Suspense fallback={null}>
          <ScreenshotDialog
            shown={shooting}
            onSave={screenshot}
            onClose={() => setShooting(null)}
          />
        </Suspense>
      )}
      {slicing && model && (
        <Suspense fallback={null}>
          <StlDialog
            fileHeightMm={slicing.fileHeightMm}
            onSave={async (heightMm) => {
              const { exportModel, exportFileNameFor } = await import('./export/export-model.ts');
              const blob = await exportModel('stl-z-up', model.model.gltf.scene, { heightMm });
              downloadBlob(blob, exportFileNameFor('stl-z-up', name));
            }}
            onClose={() => setSlicing(null)}
          />
        </Suspense>
      )}
      {turning && (
        <Suspense fallback={null}>
          <TurntableDialog
            stage={() => handle.current?.turntable() ?? null}
            viewer={() => figure.current}
            sceneColour={sceneColour}
            fileBase={name}
            onClose={() => setTurning(false)}
          />
        </Suspense>
      )}
    </>
  );
}

export type { ViewerSettings };
