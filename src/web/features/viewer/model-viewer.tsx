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
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { Canvas, type RootState } from '@react-three/fiber';
import { useDropzone } from 'react-dropzone';
import {
  ACESFilmicToneMapping,
  SRGBColorSpace,
  WebGLRenderer,
  type WebGLRendererParameters,
} from 'three';
import type { CameraLink } from './camera-link.ts';
import { downloadBlob } from './download.ts';
import { forget, isGlb } from './loaders.ts';
import { LOOKS, LOOK_LABELS } from './looks.ts';
import {
  BACKGROUND_LABELS,
  BACKGROUNDS,
  commandFor,
  DEFAULT_SETTINGS,
  EXPOSURE,
  keyLabel,
  settingsReducer,
  SHORTCUTS,
  type Background,
  type Command,
  type SettingsAction,
  type ViewerSettings,
} from './settings.ts';
import { takeWarmCanvas } from './webgl-warmup.ts';
import { Stage, VIEW_DIRECTION, type ModelInfo, type ViewHandle } from './scene.tsx';
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
}

/** A .glb from the user's disk, shown through an object URL. */
export interface LocalFile {
  name: string;
  url: string;
  size: number;
}

type ViewerState = 'empty' | 'loading' | 'ready' | 'error' | 'lost';

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
/** How long a lost WebGL context may take to come back before the viewer offers a restart. */
const RESTORE_WAIT_MS = 4000;

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

/** A sentence from a loader error ("Could not load /x.glb: fetch for "…" responded with 404: Not Found"). */
export function describe(error: Error): string {
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

/** The name of a file without its extension, for the names of what is exported from it. */
function baseName(name: string): string {
  return name.replace(/\.[^.]+$/, '') || 'model';
}

/** The "Show" toggles of the toolbar, with their keys (see SHORTCUTS in settings.ts). */
const SHOW_TOGGLES = [
  { key: 'wireframe', label: 'Wireframe', shortcut: 'W' },
  { key: 'grid', label: 'Grid', shortcut: 'G' },
  { key: 'shadow', label: 'Shadow', shortcut: 'S' },
  { key: 'autoRotate', label: 'Auto-rotate', shortcut: 'A' },
] as const;

/** The Save menu: screenshots need the view drawn, files only the loaded model. */
const SAVE_ITEMS = [
  { what: 'png', label: 'Screenshot (PNG)', needs: 'view' },
  { what: 'png-transparent', label: 'Screenshot, transparent background', needs: 'view' },
  { what: 'glb', label: 'Original GLB', needs: 'model' },
  { what: 'obj', label: 'OBJ', needs: 'model' },
  { what: 'stl', label: 'STL (binary)', needs: 'model' },
  { what: 'stl-z-up', label: 'STL, Z up (for slicers)', needs: 'model' },
  { what: 'usdz', label: 'USDZ (AR Quick Look)', needs: 'model' },
] as const;
type SaveWhat = (typeof SAVE_ITEMS)[number]['what'];

type Outcome = { key: string; state: 'ready' } | { key: string; state: 'error'; message: string };

export default function ModelViewer({
  url,
  label,
  fileName,
  className,
  cameraLink,
  onOpenFile,
}: ModelViewerProps) {
  const captionId = useId();
  const helpId = useId();
  const [settings, dispatch] = useReducer(settingsReducer, DEFAULT_SETTINGS);
  // A dropped file shown in place of `url` (when the page does not take it itself).
  const [local, setLocal] = useState<LocalFile | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [lost, setLost] = useState<'lost' | 'gone' | null>(null);
  const source = local?.url ?? url;
  // Everything below is per load: a new URL, a retry or a restarted canvas starts from "loading".
  const key = `${attempt}:${source}`;
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [progress, setProgress] = useState<{ key: string; percent: number } | null>(null);
  const [info, setInfo] = useState<{ key: string; info: ModelInfo } | null>(null);
  const handle = useRef<ViewHandle | null>(null);
  // Listeners on the current canvas (for WebGL context loss).
  const listening = useRef<AbortController | null>(null);
  const figure = useRef<HTMLElement>(null);

  const current = outcome?.key === key ? outcome : null;
  const state: ViewerState = !source ? 'empty' : lost ? 'lost' : (current?.state ?? 'loading');
  const percent = progress?.key === key ? progress.percent : null;
  const model = info?.key === key ? info.info : null;
  const clips = model?.clips ?? [];
  const name = local ? baseName(local.name) : (fileName ?? 'model');

  // The object URL of a dropped file is this viewer's: revoked when replaced or unmounted.
  useEffect(() => {
    if (!local) return;
    return () => URL.revokeObjectURL(local.url);
  }, [local]);

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
  const onCreated = useCallback((state: RootState) => {
    configureRenderer(state);
    // Only the current canvas is listened to: an old one, freed when the canvas restarts, fires
    // "context lost" as it goes.
    listening.current?.abort();
    const controller = new AbortController();
    listening.current = controller;
    const { signal } = controller;
    const canvas = state.gl.domElement;
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
  });

  const act = useCallback(
    async (what: SaveWhat) => {
      try {
        if (what === 'png' || what === 'png-transparent') {
          const view = handle.current;
          if (!view) return;
          const blob = await view.capture(what === 'png-transparent');
          downloadBlob(blob, `${name}${what === 'png' ? '' : '-transparent'}.png`);
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
        const { exportModel, exportFileName } = await import('./export/export-model.ts');
        const blob = await exportModel(what, model.model.gltf.scene);
        downloadBlob(
          blob,
          exportFileName(
            name,
            what === 'stl-z-up' ? 'stl' : what,
            what === 'stl-z-up' ? 'z-up' : undefined,
          ),
        );
        setNotice(null);
      } catch (e) {
        setNotice(`The export failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    [model, name],
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
          open();
          return;
        case 'next-clip':
          dispatch({ type: 'clip', clip: settings.clip + action.step, count: clips.length });
          return;
        default:
          dispatch(action);
      }
    },
    [act, clips.length, open, settings.clip],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const target = event.target as HTMLElement;
    // Typing in a field (or choosing in a list) is not a shortcut.
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName) || event.ctrlKey || event.metaKey) return;
    if (event.altKey) return;
    if (event.key === 'Escape' && settings.help) {
      event.preventDefault();
      dispatch({ type: 'close-help' });
      return;
    }
    // A focused button keeps Space and Enter for itself.
    if (target.tagName === 'BUTTON' && (event.key === ' ' || event.key === 'Enter')) return;
    const key = event.key.length === 1 && event.key !== 'E' ? event.key.toLowerCase() : event.key;
    const command = commandFor(key, settings);
    if (!command) return;
    const needsModel = ![
      'toggle',
      'look',
      'background',
      'cycle-background',
      'exposure',
      'open-file',
    ].includes(command.type);
    if (needsModel && state !== 'ready') return;
    event.preventDefault();
    run(command);
  };

  const resetView = useCallback(() => handle.current?.reset(), []);
  const onDoubleClick = useCallback((event: MouseEvent<HTMLElement>) => {
    // On the stage only: a quick second click in the toolbar is not a request to reset.
    if ((event.target as HTMLElement).closest('.model-viewer__stage canvas'))
      handle.current?.reset();
  }, []);
  const toggle = (
    key: 'wireframe' | 'grid' | 'shadow' | 'autoRotate' | 'playing' | 'facts' | 'help',
  ) => dispatch({ type: 'toggle', key });
  const ready = state === 'ready';

  return (
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
        <input {...getInputProps()} data-testid="viewer-file-input" aria-label="Open a .glb file" />
        {state === 'error' && current?.state === 'error' ? (
          <div className="model-viewer__overlay model-viewer__error" role="alert">
            <p>The model could not be loaded: {current.message}</p>
            <button type="button" className="small" onClick={retry}>
              Try again
            </button>
          </div>
        ) : source && lost !== 'gone' ? (
          <ViewerErrorBoundary key={attempt} onError={onError}>
            <Canvas
              aria-hidden="true"
              className="model-viewer__canvas"
              frameloop="demand"
              dpr={DPR}
              flat={false}
              linear={false}
              gl={createRenderer}
              camera={CAMERA_OPTIONS}
              onCreated={onCreated}
            >
              <Stage
                url={source}
                settings={settings}
                onProgress={onProgress}
                onReady={onReady}
                onError={onError}
                onLoaded={onLoaded}
                handleRef={handle}
                cameraLink={cameraLink}
              />
            </Canvas>
          </ViewerErrorBoundary>
        ) : null}
        {state === 'empty' && (
          <div className="model-viewer__overlay model-viewer__empty">
            <p>Drop a .glb file here to inspect it.</p>
            <button type="button" className="primary small" onClick={open}>
              Open a .glb file…
            </button>
          </div>
        )}
        {state === 'lost' && (
          <div className="model-viewer__overlay model-viewer__lost" role="status">
            {lost === 'gone' ? (
              <>
                <p>The 3D view stopped: the browser took back its graphics context.</p>
                <button type="button" className="small" onClick={retry}>
                  Restart the 3D view
                </button>
              </>
            ) : (
              <p>The graphics context was lost. Restoring the 3D view…</p>
            )}
          </div>
        )}
        {state === 'loading' && (
          <div className="model-viewer__overlay model-viewer__loading">
            {/* The live region says "Loading model…" once; the figure is for the eyes. */}
            <p role="status">
              Loading model…<span aria-hidden="true">{percent === null ? '' : ` ${percent}%`}</span>
            </p>
            <div
              className="progress"
              role="progressbar"
              aria-label="Model download"
              aria-valuemin={0}
              aria-valuemax={100}
              {...(percent === null ? {} : { 'aria-valuenow': percent })}
            >
              <span
                className={percent === null ? 'indeterminate' : undefined}
                style={{ width: `${percent ?? 30}%` }}
              />
            </div>
          </div>
        )}
        {isDragActive && (
          <div className="model-viewer__overlay model-viewer__dropping" aria-hidden="true">
            <p>Drop the .glb to inspect it</p>
          </div>
        )}
        {settings.help && (
          <div
            className="model-viewer__help"
            role="dialog"
            aria-labelledby={helpId}
            data-testid="viewer-help"
          >
            <div className="model-viewer__help-head">
              <h3 id={helpId}>Keyboard shortcuts</h3>
              <button
                type="button"
                className="small"
                onClick={() => dispatch({ type: 'close-help' })}
              >
                Close
              </button>
            </div>
            <dl>
              {SHORTCUTS.map((s) => (
                <div key={s.label}>
                  <dt>
                    {s.keys.map((k) => (
                      <kbd key={k}>{keyLabel(k)}</kbd>
                    ))}
                  </dt>
                  <dd>{s.label}</dd>
                </div>
              ))}
              <div>
                <dt>
                  <kbd>Esc</kbd>
                </dt>
                <dd>Close this help</dd>
              </div>
            </dl>
            <p className="muted small">Shortcuts work while the viewer has focus (click it).</p>
          </div>
        )}
      </div>

      <div className="model-viewer__bar" role="toolbar" aria-label="Viewer controls">
        <div className="model-viewer__group" role="group" aria-label="Look">
          {LOOKS.map((look, i) => (
            <button
              key={look}
              type="button"
              aria-pressed={settings.look === look}
              title={`${LOOK_LABELS[look]} (${i + 1})`}
              onClick={() => dispatch({ type: 'look', look })}
            >
              {LOOK_LABELS[look]}
            </button>
          ))}
        </div>
        <div className="model-viewer__group" role="group" aria-label="Show">
          {SHOW_TOGGLES.map((t) => (
            <ToggleButton
              key={t.key}
              on={settings[t.key]}
              onClick={() => toggle(t.key)}
              label={t.label}
              shortcut={t.shortcut}
            />
          ))}
        </div>
        <div className="model-viewer__group">
          <label className="model-viewer__field">
            <span>Background</span>
            <select
              value={settings.background}
              onChange={(e) =>
                dispatch({ type: 'background', background: e.target.value as Background })
              }
            >
              {BACKGROUNDS.map((b) => (
                <option key={b} value={b}>
                  {BACKGROUND_LABELS[b]}
                </option>
              ))}
            </select>
          </label>
          {settings.background === 'custom' && (
            <input
              type="color"
              aria-label="Background colour"
              value={settings.customBackground}
              onChange={(e) =>
                dispatch({ type: 'background', background: 'custom', color: e.target.value })
              }
            />
          )}
          <label className="model-viewer__field">
            <span>Exposure</span>
            <input
              type="range"
              min={EXPOSURE.min}
              max={EXPOSURE.max}
              step={EXPOSURE.step}
              value={settings.exposure}
              onChange={(e) => dispatch({ type: 'exposure', value: Number(e.target.value) })}
            />
            <output>{settings.exposure.toFixed(2)}</output>
          </label>
        </div>
        {clips.length > 0 && (
          <div className="model-viewer__group" role="group" aria-label="Animation">
            <button
              type="button"
              aria-pressed={settings.playing}
              title="Play or pause (Space)"
              onClick={() => toggle('playing')}
            >
              {settings.playing ? 'Pause' : 'Play'}
            </button>
            <label className="model-viewer__field">
              <span className="visually-hidden">Animation</span>
              <select
                aria-label="Animation"
                value={Math.min(settings.clip, clips.length - 1)}
                onChange={(e) =>
                  dispatch({ type: 'clip', clip: Number(e.target.value), count: clips.length })
                }
              >
                {clips.map((clip, i) => (
                  <option key={`${i}:${clip}`} value={i}>
                    {clip}
                  </option>
                ))}
              </select>
            </label>
          </div>
        )}
        <div className="model-viewer__group model-viewer__group--end">
          <button
            type="button"
            title="Reset view (R, Home, double-click)"
            disabled={!ready}
            onClick={resetView}
          >
            Reset view
          </button>
          <ToggleButton
            on={settings.facts}
            onClick={() => toggle('facts')}
            label="Facts"
            shortcut="I"
          />
          <details className="model-viewer__menu">
            <summary>Save</summary>
            <div role="group" aria-label="Save">
              {SAVE_ITEMS.map((item) => (
                <button
                  key={item.what}
                  type="button"
                  disabled={item.needs === 'view' ? !ready : !model}
                  onClick={() => void act(item.what)}
                >
                  {item.label}
                </button>
              ))}
            </div>
          </details>
          <button type="button" title="Open a .glb file (O)" onClick={open}>
            Open…
          </button>
          <button
            type="button"
            aria-pressed={settings.help}
            aria-label="Keyboard shortcuts"
            title="Keyboard shortcuts (?)"
            onClick={() => toggle('help')}
          >
            ?
          </button>
        </div>
      </div>

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
          <FactsPanel bytes={model.model.bytes} />
        </Suspense>
      )}
      <figcaption id={captionId} className="visually-hidden">
        Drag to turn, right-drag to pan, scroll to zoom, double-click to reset. Press question mark
        for the keyboard shortcuts.
      </figcaption>
    </figure>
  );
}

function ToggleButton({
  on,
  onClick,
  label,
  shortcut,
}: {
  on: boolean;
  onClick: () => void;
  label: string;
  shortcut: string;
}) {
  return (
    <button type="button" aria-pressed={on} title={`${label} (${shortcut})`} onClick={onClick}>
      {label}
    </button>
  );
}

export type { ViewerSettings };
