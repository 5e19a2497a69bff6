// The model in the canvas: loaded (suspending meanwhile), dressed in its look, fitted to view.
import { use, useEffect, useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import { useThree } from '@react-three/fiber';
import { Bounds, Center } from '@react-three/drei';
import { Box3, Vector3, type AnimationMixer } from 'three';
import { clone as cloneObject } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { Animation } from './animation.tsx';
import type { CameraLink } from './camera-link.ts';
import { fitSkinnedBounds, motionSize } from './clip-bounds.ts';
import { fitMargin, unitScale } from './framing.ts';
import { LinkedCamera } from './linked-camera.tsx';
import { isDark } from './lighting.tsx';
import { acquire, loadModel, release, type LoadedModel } from './loaders.ts';
import { addWireframe, applyLook } from './looks.ts';
import { ReadySignal } from './ready-signal.tsx';
import { backgroundColor, type ViewerSettings } from './settings.ts';
import { ViewControls } from './view-controls.tsx';
import type { ViewHandle } from './view-handle.ts';

/** What a loaded model tells the DOM side. */
export interface ModelInfo {
  model: LoadedModel;
  clips: string[];
  /**
   * The size (W × H × D, in the file's units) the view is framed to when the first clip takes a
   * skinned model beyond the box it has as posed in the file; null when the two are the same.
   */
  motionSize: [number, number, number] | null;
  /**
   * A skinned model's size (W × H × D) as posed in the file, measured on its decoded vertices
   * where its joints put them; null for a model with no skinned mesh.
   */
  posedSize: [number, number, number] | null;
}

export interface ModelProps {
  url: string;
  settings: ViewerSettings;
  onProgress: (percent: number) => void;
  onReady: () => void;
  onError: (error: Error) => void;
  onLoaded: (info: ModelInfo) => void;
  handleRef: RefObject<ViewHandle | null>;
  cameraLink?: CameraLink | undefined;
  onSize: (size: Vector3) => void;
  /** Called once the model has been drawn for the first time. */
  onFirstFrame: () => void;
}

/** The model at `url`, once loaded (it suspends until then), or its error, reported. */
export function Model({ url, onProgress, onError, ...props }: ModelProps) {
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
  const mixer = useRef<AnimationMixer | null>(null);
  // A copy per viewer (sharing geometry, materials and textures): an object has one parent, and
  // the looks swap materials on this copy's meshes only.
  const object = useMemo(() => cloneObject(model.gltf.scene), [model]);
  const { unit, size, motion, posed } = useMemo(() => {
    // A skinned mesh keeps the box it first computes (Bounds' fit and "Reset view" read it): make
    // it now, with every joint in place (not whenever it is first asked for, with the joints
    // moved by the centring), and wide enough for every pose its clips take it to.
    const fitted = fitSkinnedBounds(object, model.gltf.animations);
    object.updateMatrixWorld(true);
    const raw = new Box3().setFromObject(object, true).getSize(new Vector3());
    const unit = unitScale(raw);
    return {
      unit,
      size: raw.multiplyScalar(unit),
      motion: fitted ? motionSize(fitted) : null,
      posed: fitted ? fitted.rest.getSize(new Vector3()).toArray() : null,
    };
  }, [object, model]);
  // Room under (and around) every model: more than Bounds' own for a wide, flat one.
  const fov = useThree((s) => (s.camera as { fov?: number }).fov ?? 35);
  const aspect = useThree((s) => s.size.width / Math.max(1, s.size.height));
  const margin = useMemo(() => fitMargin(size, fov, aspect), [size, fov, aspect]);
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
        posedSize: posed,
      }),
    [model, onLoaded, motion, posed],
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
      <Bounds fit clip observe margin={margin} maxDuration={0.6}>
        <group scale={unit}>
          <Center>
            <primitive object={object} />
          </Center>
        </group>
        <ViewControls handleRef={handleRef} mixerRef={mixer} />
      </Bounds>
      <Animation
        object={object}
        model={model}
        clip={settings.clip}
        playing={settings.playing}
        mixerRef={mixer}
      />
      {cameraLink && <LinkedCamera link={cameraLink} />}
      {/* After Bounds, so that each frame it sees the camera Bounds has just moved. */}
      <ReadySignal onReady={onReady} onFirstFrame={onFirstFrame} />
    </>
  );
}
