// When a model is first drawn, and when its view has settled.
import { useRef } from 'react';
import { useFrame } from '@react-three/fiber';
import { Vector3 } from 'three';
import { FIRST_FRAME_MARK } from './stage.ts';

/** The longest a view is waited for to settle after its first frame (the fit takes 0.6 s). */
const SETTLE_AT_MOST_MS = 2000;

/**
 * Calls `onReady` once the model has been drawn and the camera has settled (the initial fit
 * animates): on the first frame whose camera pose equals the previous frame's. Until then it
 * keeps asking for frames, since the canvas renders on demand.
 */
export function ReadySignal({
  onReady,
  onFirstFrame,
}: {
  onReady: () => void;
  onFirstFrame: () => void;
}) {
  const last = useRef<Vector3 | null>(null);
  const frames = useRef(0);
  const done = useRef(false);
  const first = useRef(0);
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
    if (frames.current === 1) first.current = performance.now();
    const previous = last.current;
    // A camera that never rests (auto-rotate turning it) is settled once the fit is over.
    const still = previous && previous.distanceToSquared(camera.position) < 1e-12;
    if (frames.current > 3 && (still || performance.now() - first.current > SETTLE_AT_MOST_MS)) {
      done.current = true;
      onReady();
      return;
    }
    last.current = (previous ?? new Vector3()).copy(camera.position);
    invalidate();
  });
  return null;
}
