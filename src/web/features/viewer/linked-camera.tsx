// Cameras that move together (two models compared side by side).
import { useEffect, type ComponentRef } from 'react';
import { useThree } from '@react-three/fiber';
import type { OrbitControls } from '@react-three/drei';
import type { CameraLink, CameraPose } from './camera-link.ts';

/** Shares this camera's moves with the other viewers on the link, and follows theirs. */
export function LinkedCamera({ link }: { link: CameraLink }) {
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
