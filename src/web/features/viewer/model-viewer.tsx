// The 3D viewer: one GLB, lit offline, fitted to view, orbitable. Loaded with React.lazy
// (see index.ts) so three.js stays out of the initial bundle. Nothing is fetched from another
// origin: the environment is generated in the browser and the decoders are served by Kiln.
import {
  Component,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ComponentRef,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react';
import { Canvas, useFrame, useLoader, useThree, type RootState } from '@react-three/fiber';
import { Bounds, Center, ContactShadows, OrbitControls, useBounds } from '@react-three/drei';
import {
  ACESFilmicToneMapping,
  Box3,
  type CompressedTexture,
  Line,
  Mesh,
  PMREMGenerator,
  Points,
  SRGBColorSpace,
  Texture,
  Vector3,
  type Material,
  type Object3D,
  type WebGLRenderer,
} from 'three';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js';
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js';
import type { KTX2Loader } from 'three/examples/jsm/loaders/KTX2Loader.js';
import { clone as cloneObject } from 'three/examples/jsm/utils/SkeletonUtils.js';
import './viewer.css';

export interface ModelViewerProps {
  /** Where the GLB is (same origin). */
  url: string;
  /** What the model is, for assistive technology ("3D model of a chair"). */
  label: string;
  className?: string;
}

type ViewerState = 'loading' | 'ready' | 'error';

/** What the DOM side (buttons, keys) may ask of the scene. */
interface ViewHandle {
  reset(): void;
  orbit(azimuth: number, polar: number): void;
  zoom(factor: number): void;
}

/** The direction the camera looks from, before and after "Reset view": front, a little right and above. */
const VIEW_DIRECTION = new Vector3(0.45, 0.3, 1).normalize();
const FIT_MARGIN = 1.2;
/** Side of the contact-shadow square, in model footprints. */
const SHADOW_SCALE = 2.2;
const ORBIT_STEP = Math.PI / 12;
const GL_OPTIONS = { preserveDrawingBuffer: false, antialias: true, alpha: true };
const CAMERA_OPTIONS = { position: VIEW_DIRECTION.clone().multiplyScalar(4), fov: 35 };
const ZOOM_STEP = 0.85;

// ---------------------------------------------------------------------------------------------
// Loading: three's own GLTFLoader, with Draco, KTX2 (Basis) and meshopt decoders. The Draco and
// Basis decoders are served by Kiln under /decoders/ (see vite.config.ts) and fetched only when a
// model uses them; the meshopt decoder is inlined in three.

const DECODERS = `${import.meta.env.BASE_URL}decoders/`;

/**
 * Stands in for three's KTX2Loader, which (with its zstd decoder) weighs about as much as the
 * rest of the loaders together: it is imported, and the Basis transcoder fetched, only when a
 * model has KTX2 textures. GLTFLoader calls `parse` (embedded images) or `load` (external ones).
 */
class LazyKTX2Loader {
  readonly isKTX2Loader = true;
  renderer: WebGLRenderer | undefined;
  #loader: Promise<KTX2Loader> | undefined;

  #get(): Promise<KTX2Loader> {
    this.#loader ??= import('three/examples/jsm/loaders/KTX2Loader.js').then(({ KTX2Loader }) =>
      new KTX2Loader().setTranscoderPath(`${DECODERS}basis/`),
    );
    return this.#loader.then((loader) =>
      this.renderer ? loader.detectSupport(this.renderer) : loader,
    );
  }

  parse(
    buffer: ArrayBuffer,
    onLoad: (t: CompressedTexture) => void,
    onError: (e: unknown) => void,
  ) {
    this.#get().then((loader) => loader.parse(buffer, onLoad, onError), onError);
  }

  load(
    url: string,
    onLoad: (t: CompressedTexture) => void,
    onProgress: ((e: ProgressEvent) => void) | undefined,
    onError: (e: unknown) => void,
  ) {
    this.#get().then((loader) => loader.load(url, onLoad, onProgress, onError), onError);
  }
}

let dracoLoader: DRACOLoader | undefined;
const ktx2Loader = new LazyKTX2Loader();

function configureLoader(loader: GLTFLoader, gl: WebGLRenderer): void {
  dracoLoader ??= new DRACOLoader().setDecoderPath(`${DECODERS}draco/`);
  ktx2Loader.renderer = gl;
  loader
    .setDRACOLoader(dracoLoader)
    .setKTX2Loader(ktx2Loader as unknown as KTX2Loader)
    .setMeshoptDecoder(MeshoptDecoder);
}

/** Forgets a URL's cached load (or failed load), so the next render fetches it again. */
function forget(url: string): void {
  useLoader.clear(GLTFLoader, url);
}

/** Frees the GPU and image memory held by a loaded model. */
function disposeObject(root: Object3D): void {
  const textures = new Set<Texture>();
  const materials = new Set<Material>();
  root.traverse((node) => {
    if (!(node instanceof Mesh || node instanceof Line || node instanceof Points)) return;
    node.geometry.dispose();
    const list: unknown[] = Array.isArray(node.material) ? node.material : [node.material];
    for (const material of list) if (material) materials.add(material as Material);
  });
  for (const material of materials) {
    for (const value of Object.values(material)) if (value instanceof Texture) textures.add(value);
    material.dispose();
  }
  for (const texture of textures) {
    texture.dispose();
    // GLTFLoader decodes images to ImageBitmaps, which are not garbage-collected until closed.
    const data: unknown = texture.source.data;
    if (typeof ImageBitmap !== 'undefined' && data instanceof ImageBitmap) data.close();
  }
}

// Loaded models are cached by URL and may be shown by several viewers at once: count the
// viewers showing each one and free it when the last goes. Freeing waits a task, because
// StrictMode (and Suspense) unmount and remount at once; only what stays unused is freed.
const users = new Map<GLTF, number>();

function acquire(gltf: GLTF): void {
  users.set(gltf, (users.get(gltf) ?? 0) + 1);
}

function release(gltf: GLTF, url: string): void {
  const left = (users.get(gltf) ?? 1) - 1;
  if (left > 0) {
    users.set(gltf, left);
    return;
  }
  users.delete(gltf);
  setTimeout(() => {
    if (users.has(gltf)) return;
    forget(url);
    disposeObject(gltf.scene);
  }, 0);
}

// ---------------------------------------------------------------------------------------------
// Scene parts (inside <Canvas>).

/**
 * True when WebGL runs on the CPU (SwiftShader, llvmpipe, Windows' Basic Render Driver): there
 * prefiltering the environment (PMREM, 256 GGX samples a texel) blocks the page for seconds.
 */
function isSoftwareRenderer(gl: WebGLRenderer): boolean {
  const context = gl.getContext();
  const info = context.getExtension('WEBGL_debug_renderer_info');
  const name: unknown = context.getParameter(
    info ? info.UNMASKED_RENDERER_WEBGL : context.RENDERER,
  );
  return /swiftshader|llvmpipe|softpipe|software|basic render/i.test(String(name));
}

/**
 * Lighting: a soft key light over image-based lighting from three's RoomEnvironment, prefiltered
 * here (no HDR download). On a software renderer, a hemisphere and a fill light stand in for it.
 */
function Lighting() {
  const gl = useThree((s) => s.gl);
  const software = useMemo(() => isSoftwareRenderer(gl), [gl]);
  return (
    <>
      <directionalLight position={[3, 5, 4]} intensity={software ? 2 : 1.1} />
      {software ? (
        <>
          <hemisphereLight args={[0xffffff, 0x8d7f70, 2.6]} />
          <directionalLight position={[-4, 2, -3]} intensity={0.8} />
        </>
      ) : (
        <RoomEnvironmentMap />
      )}
    </>
  );
}

function RoomEnvironmentMap() {
  const get = useThree((s) => s.get);
  useEffect(() => {
    const { gl, scene, invalidate } = get();
    const pmrem = new PMREMGenerator(gl);
    const room = new RoomEnvironment();
    const target = pmrem.fromScene(room, 0.04);
    room.dispose();
    pmrem.dispose();
    scene.environment = target.texture;
    scene.environmentIntensity = 0.85;
    invalidate();
    return () => {
      if (scene.environment === target.texture) scene.environment = null;
      target.dispose();
    };
  }, [get]);
  return null;
}

interface SceneProps {
  url: string;
  onProgress: (event: ProgressEvent) => void;
  onReady: () => void;
  onError: (error: Error) => void;
  handleRef: RefObject<ViewHandle | null>;
}

/**
 * The current model and its contact shadow. The shadow outlives the models (drei's
 * ContactShadows does not free its render targets on unmount), and is redrawn for each one
 * once its size is known.
 */
function Scene({ url, ...props }: SceneProps) {
  const [fitted, setFitted] = useState<{ url: string; size: Vector3 } | null>(null);
  const size = fitted?.url === url ? fitted.size : null;
  const onSize = useCallback((size: Vector3) => setFitted({ url, size }), [url]);
  const height = size?.y ?? 1;
  return (
    <>
      <Suspense key={url} fallback={null}>
        <Model url={url} onSize={onSize} {...props} />
      </Suspense>
      {/* Models are scaled to a unit footprint, so `scale` (which, changed, makes ContactShadows
          allocate new render targets without freeing the old) stays put. */}
      <ContactShadows
        visible={size !== null}
        frames={1}
        position={[0, -height / 2 - 0.002, 0]}
        scale={SHADOW_SCALE}
        far={0.6 * height}
        resolution={512}
        blur={2.2}
        opacity={0.45}
      />
    </>
  );
}

interface ModelProps extends Omit<SceneProps, 'onError'> {
  onError: (error: Error) => void;
  onSize: (size: Vector3) => void;
}

/**
 * Loads a GLB (suspending meanwhile) and returns it, or the error that stopped it. Errors are
 * returned rather than thrown: react-three-fiber reports every error caught in its tree as an
 * uncaught one (window.reportError), and a missing model is not a crash.
 */
function useModel(url: string, onProgress: (event: ProgressEvent) => void): GLTF | Error {
  const gl = useThree((s) => s.gl);
  useEffect(
    () => () => {
      if (ktx2Loader.renderer === gl) ktx2Loader.renderer = undefined;
    },
    [gl],
  );
  try {
    return useLoader(GLTFLoader, url, (loader) => configureLoader(loader, gl), onProgress);
  } catch (thrown) {
    // A pending load throws its promise, which Suspense must see.
    if (thrown instanceof Promise) throw thrown;
    return thrown instanceof Error ? thrown : new Error(String(thrown));
  }
}

function Model({ url, onProgress, onReady, onError, onSize, handleRef }: ModelProps) {
  const loaded = useModel(url, onProgress);
  return loaded instanceof Error ? (
    <ReportError error={loaded} onError={onError} />
  ) : (
    <LoadedModel gltf={loaded} url={url} onReady={onReady} onSize={onSize} handleRef={handleRef} />
  );
}

function ReportError({ error, onError }: { error: Error; onError: (error: Error) => void }) {
  useEffect(() => onError(error), [error, onError]);
  return null;
}

interface LoadedModelProps {
  gltf: GLTF;
  url: string;
  onReady: () => void;
  onSize: (size: Vector3) => void;
  handleRef: RefObject<ViewHandle | null>;
}

/** The model, centred on the origin, scaled to a unit footprint and fitted to view. */
function LoadedModel({ gltf, url, onReady, onSize, handleRef }: LoadedModelProps) {
  // A clone per viewer (sharing geometry, materials and textures): an object has one parent.
  const object = useMemo(() => cloneObject(gltf.scene), [gltf]);
  const { unit, size } = useMemo(() => {
    object.updateMatrixWorld(true);
    const raw = new Box3().setFromObject(object, true).getSize(new Vector3());
    const footprint = Math.max(raw.x, raw.z, raw.y / 2);
    const unit = Number.isFinite(footprint) && footprint > 0 ? 1 / footprint : 1;
    return { unit, size: raw.multiplyScalar(unit) };
  }, [object]);
  useEffect(() => {
    acquire(gltf);
    return () => release(gltf, url);
  }, [gltf, url]);
  // Before the first frame, so the contact shadow is drawn with the model in place.
  useLayoutEffect(() => onSize(size), [onSize, size]);
  return (
    <>
      <Bounds fit clip observe margin={FIT_MARGIN} maxDuration={0.6}>
        <group scale={unit}>
          <Center>
            <primitive object={object} />
          </Center>
        </group>
        <ViewControls handleRef={handleRef} />
      </Bounds>
      {/* After Bounds, so that each frame it sees the camera Bounds has just moved. */}
      <ReadySignal onReady={onReady} />
    </>
  );
}

/** Fills the viewer's handle with camera moves, for its buttons and keys. */
function ViewControls({ handleRef }: { handleRef: RefObject<ViewHandle | null> }) {
  const bounds = useBounds();
  const controls = useThree((s) => s.controls) as ComponentRef<typeof OrbitControls> | null;
  const get = useThree((s) => s.get);
  // Each model starts from the default direction (Bounds keeps the camera's, and a layout
  // effect here runs before the one in which Bounds fits the view).
  useLayoutEffect(() => {
    const { camera } = get();
    camera.position.copy(VIEW_DIRECTION).multiplyScalar(camera.position.length() || 4);
  }, [get]);
  useEffect(() => {
    handleRef.current = {
      reset() {
        const { center, distance } = bounds.refresh().getSize();
        bounds
          .moveTo(center.clone().addScaledVector(VIEW_DIRECTION, distance))
          .lookAt({ target: center, up: [0, 1, 0] });
      },
      orbit(azimuth, polar) {
        if (!controls) return;
        if (azimuth) controls.setAzimuthalAngle(controls.getAzimuthalAngle() + azimuth);
        if (polar) controls.setPolarAngle(controls.getPolarAngle() + polar);
      },
      zoom(factor) {
        if (!controls) return;
        if (factor < 1) controls.dollyIn(factor);
        else controls.dollyOut(1 / factor);
      },
    };
    return () => {
      handleRef.current = null;
    };
  }, [bounds, controls, handleRef]);
  return null;
}

/**
 * Calls `onReady` once the model has been drawn and the camera has settled (the initial fit
 * animates): on the first frame whose camera pose equals the previous frame's. Until then it
 * keeps asking for frames, since the canvas renders on demand.
 */
function ReadySignal({ onReady }: { onReady: () => void }) {
  const last = useRef<Vector3 | null>(null);
  const frames = useRef(0);
  const done = useRef(false);
  useFrame(({ camera, invalidate }) => {
    if (done.current) return;
    frames.current += 1;
    const previous = last.current;
    if (previous && frames.current > 3 && previous.distanceToSquared(camera.position) < 1e-12) {
      done.current = true;
      onReady();
      return;
    }
    last.current = (previous ?? new Vector3()).copy(camera.position);
    invalidate();
  });
  return null;
}

// ---------------------------------------------------------------------------------------------
// DOM side.

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
function describe(error: Error): string {
  const message = error.message.trim();
  if (/webgl/i.test(message)) return 'this browser could not start 3D graphics (WebGL).';
  const status = /responded with (\d{3})(?::\s*(.*))?$/s.exec(message);
  if (status)
    return `the server answered ${status[1]}${status[2] ? ` (${status[2].trim()})` : ''}.`;
  const inner = /^Could not load .*?: (.+)$/s.exec(message)?.[1] ?? message;
  return inner.endsWith('.') ? inner : `${inner}.`;
}

function onCreated({ gl }: RootState): void {
  gl.toneMapping = ACESFilmicToneMapping;
  gl.outputColorSpace = SRGBColorSpace;
  gl.setClearColor(0x000000, 0);
}

type Outcome = { key: string; state: 'ready' } | { key: string; state: 'error'; message: string };

export default function ModelViewer({ url, label, className }: ModelViewerProps) {
  const captionId = useId();
  const [attempt, setAttempt] = useState(0);
  // Everything below is per load: a new URL or a retry starts again from "loading".
  const key = `${attempt}:${url}`;
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [progress, setProgress] = useState<{ key: string; percent: number } | null>(null);
  const handle = useRef<ViewHandle | null>(null);

  const current = outcome?.key === key ? outcome : null;
  const state: ViewerState = current?.state ?? 'loading';
  const percent = progress?.key === key ? progress.percent : null;

  const onReady = useCallback(() => setOutcome({ key, state: 'ready' }), [key]);
  const onError = useCallback(
    (error: Error) => setOutcome({ key, state: 'error', message: describe(error) }),
    [key],
  );
  const onProgress = useCallback(
    (event: ProgressEvent) => {
      if (!event.lengthComputable || event.total <= 0) return;
      const value = Math.min(100, Math.floor((100 * event.loaded) / event.total));
      setProgress((p) => (p?.key === key && p.percent === value ? p : { key, percent: value }));
    },
    [key],
  );
  const retry = useCallback(() => {
    forget(url);
    setAttempt((n) => n + 1);
  }, [url]);
  const reset = useCallback(() => handle.current?.reset(), []);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.target !== event.currentTarget || state !== 'ready') return;
    const view = handle.current;
    if (!view) return;
    const moves: Record<string, () => void> = {
      ArrowLeft: () => view.orbit(ORBIT_STEP, 0),
      ArrowRight: () => view.orbit(-ORBIT_STEP, 0),
      ArrowUp: () => view.orbit(0, -ORBIT_STEP),
      ArrowDown: () => view.orbit(0, ORBIT_STEP),
      '+': () => view.zoom(ZOOM_STEP),
      '=': () => view.zoom(ZOOM_STEP),
      '-': () => view.zoom(1 / ZOOM_STEP),
      Home: () => view.reset(),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };

  return (
    <figure
      className={className ? `model-viewer ${className}` : 'model-viewer'}
      data-testid="model-viewer"
      data-state={state}
      aria-label={label}
      aria-describedby={captionId}
      aria-busy={state === 'loading'}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onDoubleClick={state === 'ready' ? reset : undefined}
    >
      <div className="model-viewer__stage">
        {current?.state === 'error' ? (
          <div className="model-viewer__overlay model-viewer__error" role="alert">
            <p>The model could not be loaded: {current.message}</p>
            <button type="button" className="small" onClick={retry}>
              Try again
            </button>
          </div>
        ) : (
          <ViewerErrorBoundary key={attempt} onError={onError}>
            <Canvas
              aria-hidden="true"
              className="model-viewer__canvas"
              frameloop="demand"
              dpr={[1, 2]}
              flat={false}
              linear={false}
              gl={GL_OPTIONS}
              camera={CAMERA_OPTIONS}
              onCreated={onCreated}
            >
              <Lighting />
              <OrbitControls makeDefault enableDamping dampingFactor={0.12} />
              <Scene
                url={url}
                onProgress={onProgress}
                onReady={onReady}
                onError={onError}
                handleRef={handle}
              />
            </Canvas>
          </ViewerErrorBoundary>
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
        {state === 'ready' && (
          <div className="model-viewer__toolbar">
            <button type="button" title="Reset view" onClick={reset}>
              <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16">
                <path d="M3.5 12a8.5 8.5 0 1 0 2.5-6L3.5 8.5" />
                <path d="M3.5 3.5v5h5" />
              </svg>
              <span className="model-viewer__label">Reset view</span>
            </button>
          </div>
        )}
      </div>
      <figcaption id={captionId} className="visually-hidden">
        Drag to turn, scroll to zoom, double-click to reset. With the viewer focused, arrow keys
        turn, plus and minus zoom, Home resets the view.
      </figcaption>
    </figure>
  );
}
