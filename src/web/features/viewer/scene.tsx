// The viewer's scene (everything inside <Canvas>): lighting, the model with its look, grid,
// shadow and animation, the camera and its controls. The DOM side (model-viewer.tsx) says what to
// show through `settings`, and acts on the scene through the `ViewHandle` it is given.
import {
  Suspense,
  use,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ComponentRef,
  type RefObject,
} from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import { Bounds, Center, ContactShadows, OrbitControls, useBounds } from '@react-three/drei';
import {
  AnimationMixer,
  Box3,
  Color,
  PMREMGenerator,
  Vector3,
  type AnimationAction,
  type Object3D,
  type WebGLRenderer,
} from 'three';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import { clone as cloneObject } from 'three/examples/jsm/utils/SkeletonUtils.js';
import type { CameraLink, CameraPose } from './camera-link.ts';
import {
  acquire,
  attachRenderer,
  loadModel,
  release,
  releaseRenderer,
  type LoadedModel,
} from './loaders.ts';
import { fitSkinnedBounds, motionSize } from './clip-bounds.ts';
import { addWireframe, applyLook } from './looks.ts';
import { backgroundColor, type ViewerSettings } from './settings.ts';

/** What the DOM side (buttons, keys) may ask of the scene. */
export interface ViewHandle {
  reset(): void;
  orbit(azimuth: number, polar: number): void;
  zoom(factor: number): void;
  /** A PNG of the view as shown; with `transparent`, without the background colour. */
  capture(transparent: boolean): Promise<Blob>;
  /**
   * A picture of the model for the gallery: `width` × `height` from the middle of the view,
   * without background or grid (the contact shadow stays), WebP where the browser writes it.
   */
  picture(width: number, height: number): Promise<Blob>;
}

/** The direction the camera looks from, before and after "Reset view": front, a little right and above. */
export const VIEW_DIRECTION = new Vector3(0.45, 0.3, 1).normalize();
const FIT_MARGIN = 1.2;
/** The gallery picture's zoom against the view's fit. */
const PICTURE_ZOOM = 0.85;
/** Side of the contact-shadow square and of the grid, in model footprints. */
const SHADOW_SCALE = 3;
const GRID_SIZE = 4;
/** Marked once per page, at the first frame drawn with a model (read by bench/viewer). */
export const FIRST_FRAME_MARK = 'kiln:viewer:first-frame';

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

/** Background colour and exposure, straight onto the scene and renderer. */
function Backdrop({ color, exposure }: { color: string | null; exposure: number }) {
  const get = useThree((s) => s.get);
  useEffect(() => {
    const { scene, invalidate } = get();
    scene.background = color ? new Color(color) : null;
    invalidate();
  }, [color, get]);
  useEffect(() => {
    const { gl, invalidate } = get();
    gl.toneMappingExposure = exposure;
    invalidate();
  }, [exposure, get]);
  return null;
}

/** Keeps frames coming while something moves on its own (auto-rotate, an animation). */
function KeepRendering() {
  useFrame(({ invalidate }) => invalidate());
  return null;
}

/** A pale colour on dark backgrounds, a dark one on light (or transparent) ones. */
function isDark(color: string | null): boolean {
  if (!color) return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  const c = new Color(color);
  return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b < 0.35;
}

/** What a loaded model tells the DOM side. */
export interface ModelInfo {
  model: LoadedModel;
  clips: string[];
  /**
   * The size (W × H × D, in the file's units) the view is framed to when the first clip takes a
   * skinned model beyond the box it has as posed in the file; null when the two are the same.
   */
  motionSize: [number, number, number] | null;
}

export interface StageProps {
  url: string;
  settings: ViewerSettings;
  onProgress: (percent: number) => void;
  onReady: () => void;
  onError: (error: Error) => void;
  onLoaded: (info: ModelInfo) => void;
  handleRef: RefObject<ViewHandle | null>;
  cameraLink?: CameraLink | undefined;
}

/**
 * Everything in the canvas. The contact shadow outlives the models (drei's ContactShadows does
 * not free its render targets on unmount), and is redrawn for each one once its size is known.
 * The shadow and the grid join after the first model has been drawn: their shaders (a depth pass
 * and two blurs) are then compiled after the model's first frame rather than before it, which on
 * a software renderer shows the model about 0.4 s sooner.
 */
export function Stage({ url, settings, ...props }: StageProps) {
  const [fitted, setFitted] = useState<{ url: string; size: Vector3 } | null>(null);
  const size = fitted?.url === url ? fitted.size : null;
  const onSize = useCallback((size: Vector3) => setFitted({ url, size }), [url]);
  const [decorated, setDecorated] = useState(false);
  const onFirstFrame = useCallback(() => setDecorated(true), []);
  const height = size?.y ?? 1;
  const color = backgroundColor(settings);
  const dark = isDark(color);
  // Here rather than in <Model>, which suspends (its effects wait for the load, and a load with
  // KTX2 textures waits for a renderer).
  const gl = useThree((s) => s.gl);
  useEffect(() => {
    attachRenderer(gl);
    return () => releaseRenderer(gl);
  }, [gl]);
  return (
    <>
      <Lighting />
      <Backdrop color={color} exposure={settings.exposure} />
      <OrbitControls
        makeDefault
        enableDamping
        dampingFactor={0.12}
        autoRotate={settings.autoRotate}
        autoRotateSpeed={1.6}
      />
      {settings.autoRotate && <KeepRendering />}
      <Suspense key={url} fallback={null}>
        <Model
          url={url}
          settings={settings}
          onSize={onSize}
          onFirstFrame={onFirstFrame}
          {...props}
        />
      </Suspense>
      {/* Models are scaled to a unit footprint, so `scale` (which, changed, makes ContactShadows
          allocate new render targets without freeing the old) stays put. */}
      {/* ContactShadows makes itself visible each time it draws: hide it through a parent. */}
      {decorated && (
        <group visible={size !== null && settings.shadow}>
          <ContactShadows
            frames={1}
            position={[0, -height / 2 - 0.002, 0]}
            scale={SHADOW_SCALE}
            far={0.6 * height}
            resolution={512}
            blur={2.2}
            opacity={dark ? 0.7 : 0.45}
          />
        </group>
      )}
      {decorated && settings.grid && size && (
        <gridHelper
          key={dark ? 'dark' : 'light'}
          args={[GRID_SIZE, 40, dark ? 0x8a8580 : 0x6b6560, dark ? 0x4a4642 : 0xc9c4bd]}
          position={[0, -height / 2 - 0.001, 0]}
        />
      )}
    </>
  );
}

interface ModelProps extends Omit<StageProps, 'url'> {
  url: string;
  onSize: (size: Vector3) => void;
  /** Called once the model has been drawn for the first time. */
  onFirstFrame: () => void;
}

function Model({ url, onProgress, onError, ...props }: ModelProps) {
  const loaded = use(loadModel(url, onProgress));
  return loaded instanceof Error ? (
    <ReportError error={loaded} onError={onError} />
  ) : (
    <LoadedModelView model={loaded} {...props} />
  );
}

function ReportError({ error, onError }: { error: Error; onError: (error: Error) => void }) {
  useEffect(() => onError(error), [error, onError]);
  return null;
}

interface LoadedModelProps extends Omit<ModelProps, 'url' | 'onProgress' | 'onError'> {
  model: LoadedModel;
}

/** The model, centred on the origin, scaled to a unit footprint and fitted to view. */
function LoadedModelView({
  model,
  settings,
  onReady,
  onSize,
  onLoaded,
  onFirstFrame,
  handleRef,
  cameraLink,
}: LoadedModelProps) {
  const invalidate = useThree((s) => s.invalidate);
  // A copy per viewer (sharing geometry, materials and textures): an object has one parent, and
  // the looks swap materials on this copy's meshes only.
  const object = useMemo(() => cloneObject(model.gltf.scene), [model]);
  const { unit, size, motion } = useMemo(() => {
    // A skinned mesh keeps the box it first computes (Bounds' fit and "Reset view" read it): make
    // it now, with every joint in place (not whenever it is first asked for, with the joints
    // moved by the centring), and wide enough for every pose its clips take it to.
    const fitted = fitSkinnedBounds(object, model.gltf.animations);
    object.updateMatrixWorld(true);
    const raw = new Box3().setFromObject(object, true).getSize(new Vector3());
    const footprint = Math.max(raw.x, raw.z, raw.y / 2);
    const unit = Number.isFinite(footprint) && footprint > 0 ? 1 / footprint : 1;
    return {
      unit,
      size: raw.multiplyScalar(unit),
      motion: fitted ? motionSize(fitted) : null,
    };
  }, [object, model]);
  useEffect(() => {
    acquire(model);
    return () => release(model);
  }, [model]);
  // Before the first frame, so the contact shadow is drawn with the model in place.
  useLayoutEffect(() => onSize(size), [onSize, size]);
  useLayoutEffect(
    () =>
      onLoaded({
        model,
        clips: model.gltf.animations.map((c, i) => c.name || `Clip ${i + 1}`),
        motionSize: motion,
      }),
    [model, onLoaded, motion],
  );

  const { look, wireframe } = settings;
  const dark = isDark(backgroundColor(settings));
  useLayoutEffect(() => {
    const undo = applyLook(object, look);
    invalidate();
    return () => {
      undo();
      invalidate();
    };
  }, [object, look, invalidate]);
  useLayoutEffect(() => {
    if (!wireframe) return;
    const undo = addWireframe(object, dark ? 0xf5f1ea : 0x1c1917);
    invalidate();
    return () => {
      undo();
      invalidate();
    };
  }, [object, wireframe, dark, invalidate]);

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
      <Animation object={object} model={model} clip={settings.clip} playing={settings.playing} />
      {cameraLink && <LinkedCamera link={cameraLink} />}
      {/* After Bounds, so that each frame it sees the camera Bounds has just moved. */}
      <ReadySignal onReady={onReady} onFirstFrame={onFirstFrame} />
    </>
  );
}

/** Plays one of the model's clips (the chosen one) while `playing`. */
function Animation({
  object,
  model,
  clip,
  playing,
}: {
  object: ReturnType<typeof cloneObject>;
  model: LoadedModel;
  clip: number;
  playing: boolean;
}) {
  const invalidate = useThree((s) => s.invalidate);
  const mixer = useMemo(() => new AnimationMixer(object), [object]);
  const action = useRef<AnimationAction | null>(null);
  const clips = model.gltf.animations;
  useEffect(
    () => () => {
      mixer.stopAllAction();
      mixer.uncacheRoot(object);
    },
    [mixer, object],
  );
  useEffect(() => {
    const chosen = clips[clip];
    if (!chosen) return;
    const next = mixer.clipAction(chosen).reset().play();
    action.current = next;
    invalidate();
    return () => {
      next.stop();
      action.current = null;
    };
  }, [clips, clip, mixer, invalidate]);
  useFrame((_, delta) => {
    if (!playing || !action.current) return;
    // After an idle spell (the canvas renders on demand) the first delta is long: cap it.
    mixer.update(Math.min(delta, 0.1));
    invalidate();
  });
  useEffect(() => {
    if (playing) invalidate();
  }, [playing, invalidate]);
  return null;
}

/** Fills the viewer's handle with camera moves and captures, for its buttons and keys. */
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
        // three-stdlib's dollyIn multiplies the distance by its argument (and updates).
        controls.dollyIn(factor);
      },
      async capture(transparent) {
        const { gl, scene, camera, invalidate } = get();
        const background = scene.background;
        if (transparent) scene.background = null;
        // Drawn and read in one task: the drawing buffer is not preserved past it.
        gl.render(scene, camera);
        const blob = await new Promise<Blob | null>((resolve) =>
          gl.domElement.toBlob(resolve, 'image/png'),
        );
        scene.background = background;
        invalidate();
        if (!blob) throw new Error('the browser could not encode the picture.');
        return blob;
      },
      async picture(width, height) {
        const { gl, scene, camera, invalidate } = get();
        const background = scene.background;
        const hidden: Object3D[] = [];
        scene.traverse((o) => {
          if (o.type === 'GridHelper' && o.visible) hidden.push(o);
        });
        scene.background = null;
        for (const o of hidden) o.visible = false;
        // A little more room around the model than the view's tight fit (the card's corners
        // carry the input and a badge).
        const zoom = camera.zoom;
        camera.zoom = zoom * PICTURE_ZOOM;
        camera.updateProjectionMatrix();
        // Drawn and copied in one task: the drawing buffer is not preserved past it.
        gl.render(scene, camera);
        camera.zoom = zoom;
        camera.updateProjectionMatrix();
        const source = gl.domElement;
        const out = document.createElement('canvas');
        out.width = width;
        out.height = height;
        const scale = Math.min(source.width / width, source.height / height);
        const [w, h] = [width * scale, height * scale];
        const context = out.getContext('2d');
        context?.drawImage(
          source,
          (source.width - w) / 2,
          (source.height - h) / 2,
          w,
          h,
          0,
          0,
          width,
          height,
        );
        scene.background = background;
        for (const o of hidden) o.visible = true;
        invalidate();
        if (!context) throw new Error('the browser could not draw the picture.');
        const blob = await new Promise<Blob | null>((resolve) =>
          out.toBlob(resolve, 'image/webp', 0.85),
        );
        if (!blob) throw new Error('the browser could not encode the picture.');
        return blob;
      },
    };
    return () => {
      handleRef.current = null;
    };
  }, [bounds, controls, get, handleRef]);
  return null;
}

/** Shares this camera's moves with the other viewers on the link, and follows theirs. */
function LinkedCamera({ link }: { link: CameraLink }) {
  const controls = useThree((s) => s.controls) as ComponentRef<typeof OrbitControls> | null;
  const get = useThree((s) => s.get);
  useEffect(() => {
    if (!controls) return;
    const id = Symbol('viewer');
    let applying = false;
    const pose = (): CameraPose => {
      const { camera } = get();
      return {
        position: camera.position.toArray() as CameraPose['position'],
        target: controls.target.toArray() as CameraPose['target'],
      };
    };
    const onChange = () => {
      if (!applying) link.publish(id, pose());
    };
    const leave = link.join(id, (p) => {
      const { camera, invalidate } = get();
      applying = true;
      camera.position.fromArray(p.position);
      controls.target.fromArray(p.target);
      controls.update();
      applying = false;
      invalidate();
    });
    controls.addEventListener('change', onChange);
    return () => {
      controls.removeEventListener('change', onChange);
      leave();
    };
  }, [controls, get, link]);
  return null;
}

/**
 * Calls `onReady` once the model has been drawn and the camera has settled (the initial fit
 * animates): on the first frame whose camera pose equals the previous frame's. Until then it
 * keeps asking for frames, since the canvas renders on demand.
 */
function ReadySignal({ onReady, onFirstFrame }: { onReady: () => void; onFirstFrame: () => void }) {
  const last = useRef<Vector3 | null>(null);
  const frames = useRef(0);
  const done = useRef(false);
  useFrame(({ camera, invalidate }) => {
    if (done.current) return;
    frames.current += 1;
    // useFrame runs before the frame is drawn; a microtask runs once it has been (the draw,
    // shader compilation included, is synchronous within this animation-frame callback).
    if (frames.current === 1)
      queueMicrotask(() => {
        if (performance.getEntriesByName(FIRST_FRAME_MARK).length === 0)
          performance.mark(FIRST_FRAME_MARK);
        onFirstFrame();
      });
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
