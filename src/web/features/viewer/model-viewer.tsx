// The 3D viewer: one GLB, lit offline, fitted to view, orbitable, with looks, toggles, facts,
// exports, keyboard shortcuts, and a drop target for any local .glb. Loaded with React.lazy (see
// index.ts) so three.js stays out of the initial bundle. Nothing is fetched from another origin:
// the environment is generated in the browser and the decoders are served by Kiln.
import {
  lazy,
  Suspense,
  useCallback,
  useId,
  useReducer,
  useRef,
  useState,
  type MouseEvent,
  type RefObject,
} from 'react';
import type { DropzoneState } from 'react-dropzone';
import type { CameraLink } from './camera-link.ts';
import type { ModelInfo } from './model-view.tsx';
import { SaveDialogs } from './save-dialogs.tsx';
import {
  backgroundColor,
  DEFAULT_SETTINGS,
  settingsReducer,
  type ViewerSettings,
} from './settings.ts';
import { useLocalFile, type LocalFile } from './use-local-file.ts';
import { useModelPicture } from './use-model-picture.ts';
import { useViewerCommands } from './use-viewer-commands.ts';
import { useViewerLifecycle, type ViewerLifecycle } from './use-viewer-lifecycle.ts';
import { useViewerSaves } from './use-viewer-saves.ts';
import { useViewerShortcuts } from './use-viewer-shortcuts.ts';
import { ViewerCanvas } from './viewer-canvas.tsx';
import { ErrorOverlay, HelpDialog, StageOverlays } from './viewer-overlays.tsx';
import { ViewerToolbar } from './viewer-toolbar.tsx';
import type { ViewHandle } from './view-handle.ts';
import type { OriginFact } from '../../lib/entry-format.ts';
import './viewer.css';

const FactsPanel = lazy(() => import('./facts-panel.tsx'));

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
  /** Where the model came from (its library entry: made by, time taken, price), first in its facts. */
  origin?: readonly OriginFact[] | undefined;
  /**
   * A picture of the model shown on the stage until the model is first drawn (a share page's
   * kept picture): the page's largest paint comes at once, not after the GLB and WebGL.
   */
  poster?: string | null | undefined;
  /** Called once the model is first shown settled, or its error is (a share page's hand-over). */
  onShown?: (() => void) | undefined;
}

/** The name of a file without its extension, for the names of what is exported from it. */
function baseName(name: string): string {
  return name.replace(/\.[^.]+$/, '') || 'model';
}

/** What the viewer says under its toolbar: a notice, the local file shown, the file's facts. */
function ViewerNotes({
  notice,
  local,
  onShowGenerated,
  facts,
  origin,
}: {
  notice: string | null;
  local: LocalFile | null;
  /** Shows the generated model again in place of the local file; undefined when there is none. */
  onShowGenerated: (() => void) | undefined;
  /** The loaded model, when the facts panel is open. */
  facts: ModelInfo | null;
  origin: readonly OriginFact[] | undefined;
}) {
  return (
    <>
      {notice && (
        <p className="model-viewer__notice" role="alert">
          {notice}
        </p>
      )}
      {local && (
        <p className="model-viewer__source">
          Inspecting <strong>{local.name}</strong>, a file from this device.{' '}
          {onShowGenerated && (
            <button type="button" className="link" onClick={onShowGenerated}>
              Show the generated model again
            </button>
          )}
        </p>
      )}
      {facts && (
        <Suspense fallback={<p className="muted small">Reading the file…</p>}>
          <FactsPanel
            bytes={facts.model.bytes}
            motionSize={facts.motionSize}
            posedSize={facts.posedSize}
            origin={origin}
          />
        </Suspense>
      )}
    </>
  );
}

/** The stage: the drop target, the canvas (or why it failed), its overlays, the shortcuts' help. */
function ViewerStage({
  dropzone,
  openFiles,
  source,
  settings,
  lifecycle,
  handle,
  cameraLink,
  onCloseHelp,
  poster,
}: {
  poster: string | null | undefined;
  dropzone: DropzoneState;
  openFiles: boolean;
  source: string | null;
  settings: ViewerSettings;
  lifecycle: ViewerLifecycle;
  handle: RefObject<ViewHandle | null>;
  cameraLink: CameraLink | undefined;
  onCloseHelp: () => void;
}) {
  const helpId = useId();
  const { getRootProps, getInputProps, isDragActive } = dropzone;
  const { state } = lifecycle;
  return (
    <div
      {...getRootProps({
        className: `model-viewer__stage${isDragActive ? ' model-viewer__stage--drop' : ''}`,
      })}
    >
      {openFiles && (
        <input {...getInputProps()} data-testid="viewer-file-input" aria-label="Open a .glb file" />
      )}
      {state === 'error' && lifecycle.errorMessage !== null ? (
        <ErrorOverlay message={lifecycle.errorMessage} onRetry={lifecycle.retry} />
      ) : source && lifecycle.lost !== 'gone' ? (
        <ViewerCanvas
          source={source}
          settings={settings}
          lifecycle={lifecycle}
          handleRef={handle}
          cameraLink={cameraLink}
        />
      ) : null}
      {poster && !lifecycle.drawn && state !== 'error' && (
        <img className="model-viewer__poster" src={poster} alt="" decoding="async" />
      )}
      <StageOverlays
        state={state}
        drawn={lifecycle.drawn}
        lost={lifecycle.lost}
        percent={lifecycle.percent}
        dragging={isDragActive}
        onOpen={openFiles ? dropzone.open : undefined}
        onRetry={lifecycle.retry}
      />
      {settings.help && <HelpDialog id={helpId} onClose={onCloseHelp} />}
    </div>
  );
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
  origin,
  poster,
  onShown,
}: ModelViewerProps) {
  const captionId = useId();
  const [settings, dispatch] = useReducer(settingsReducer, DEFAULT_SETTINGS);
  const [notice, setNotice] = useState<string | null>(null);
  // A dropped file shown in place of `url` (when the page does not take it itself).
  const { local, closeLocal, dropzone } = useLocalFile({
    onOpenFile,
    openFiles,
    onNotice: setNotice,
  });
  const open = openFiles ? dropzone.open : undefined;
  const source = local?.url ?? url;
  const lifecycle = useViewerLifecycle(source, onShown);
  const { state, model } = lifecycle;
  const handle = useRef<ViewHandle | null>(null);
  const figure = useRef<HTMLElement>(null);
  useModelPicture({ state, url, showingLocal: local !== null, settings, handle, onPicture });

  const clips = model?.clips ?? [];
  const name = local ? baseName(local.name) : (fileName ?? 'model');
  const sceneColour = backgroundColor(settings);
  const saves = useViewerSaves({
    handle,
    figure,
    model: model?.model ?? null,
    name,
    sceneColour,
    onNotice: setNotice,
  });
  const { act } = saves;
  const screenshotAsShown = useCallback(() => void act('png'), [act]);
  const run = useViewerCommands({
    handle,
    dispatch,
    clip: settings.clip,
    clipCount: clips.length,
    screenshot: screenshotAsShown,
    open,
  });
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
        <ViewerStage
          poster={local ? null : poster}
          dropzone={dropzone}
          openFiles={openFiles}
          source={source}
          settings={settings}
          lifecycle={lifecycle}
          handle={handle}
          cameraLink={cameraLink}
          onCloseHelp={() => dispatch({ type: 'close-help' })}
        />

        <ViewerToolbar
          settings={settings}
          dispatch={dispatch}
          clips={clips}
          ready={ready}
          hasModel={model !== null}
          onResetView={resetView}
          onOpen={open}
          turntable={turntable}
          onSave={(what) => void act(what)}
        />

        <ViewerNotes
          notice={notice}
          local={local}
          onShowGenerated={url ? closeLocal : undefined}
          facts={settings.facts ? model : null}
          origin={origin}
        />
        <figcaption id={captionId} className="visually-hidden">
          Drag to turn, right-drag to pan, scroll to zoom, double-click to reset. Press question
          mark for the keyboard shortcuts.
        </figcaption>
      </figure>
      {/* Beside the figure, not in it: keys typed in the dialog are not the viewer's shortcuts. */}
      <SaveDialogs
        dialogs={saves.dialogs}
        hasModel={model !== null}
        handle={handle}
        figure={figure}
        sceneColour={sceneColour}
        name={name}
        screenshot={saves.screenshot}
        saveSlicerStl={saves.saveSlicerStl}
        onClose={saves.close}
      />
    </>
  );
}

export type { ViewerSettings };
