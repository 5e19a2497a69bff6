// The camera's moves for the viewer's buttons and keys, through the handle it is given.
import { useEffect, useLayoutEffect, type ComponentRef, type RefObject } from 'react';
import { useThree } from '@react-three/fiber';
import { useBounds, type OrbitControls } from '@react-three/drei';
import { PerspectiveCamera, Sphere, type AnimationMixer } from 'three';
import { pictureOfView } from './capture.ts';
import { VIEW_DIRECTION, type ViewHandle } from './view-handle.ts';

/** Fills the viewer's handle with camera moves and captures, for its buttons and keys. */
export function ViewControls({
  handleRef,
  mixerRef,
}: {
  handleRef: RefObject<ViewHandle | null>;
  /** The model's animation, when it has one (the turntable poses it frame by frame). */
  mixerRef: RefObject<AnimationMixer | null>;
}) {
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
        // drei's Bounds only marks the move as started; its frames run once a frame is asked for
        // (frameloop "demand"). Without this, Reset showed nothing until the next redraw, when
        // nothing else happened to draw a frame (Chromium compositing in software, decision 0119).
        get().invalidate();
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
      picture: (width, height) => pictureOfView(get(), width, height),
      turntable() {
        const { gl, scene, camera, invalidate } = get();
        if (!(camera instanceof PerspectiveCamera)) return null;
        const { box, center } = bounds.refresh().getSize();
        if (box.isEmpty()) return null;
        const target = (controls?.target ?? center).clone();
        const mixer = mixerRef.current;
        return {
          gl,
          scene,
          camera,
          target,
          reach() {
            const sphere = bounds.refresh().getSize().box.getBoundingSphere(new Sphere());
            return sphere.radius + sphere.center.distanceTo(target);
          },
          pose: mixer ? (seconds) => mixer.setTime(seconds) : null,
          poseTime: () => mixer?.time ?? 0,
          invalidate,
        };
      },
    };
    return () => {
      handleRef.current = null;
    };
  }, [bounds, controls, get, handleRef, mixerRef]);
  return null;
}
