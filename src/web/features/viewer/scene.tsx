// The viewer's scene (everything inside <Canvas>): lighting and backdrop (lighting.tsx), the
// camera's controls, the model with its look, animation and camera handle (model-view.tsx), and
// the ground under it (ground.tsx). The DOM side (model-viewer.tsx) says what to show through
// `settings`, and acts on the scene through the `ViewHandle` (view-handle.ts) it is given.
import { Suspense, useCallback, useEffect, useState } from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import { OrbitControls } from '@react-three/drei';
import type { Vector3 } from 'three';
import { Ground } from './ground.tsx';
import { Backdrop, Lighting, isDark } from './lighting.tsx';
import { attachRenderer, releaseRenderer } from './loaders.ts';
import { Model, type ModelProps } from './model-view.tsx';
import { backgroundColor } from './settings.ts';

export type StageProps = Omit<ModelProps, 'onSize'>;

/** Keeps frames coming while something moves on its own (auto-rotate, an animation). */
function KeepRendering() {
  useFrame(({ invalidate }) => invalidate());
  return null;
}

/**
 * Everything in the canvas. The contact shadow outlives the models, and is redrawn for each one
 * once its size is known (see ground.tsx). The shadow and the grid join after the first model has
 * been drawn: their shaders (a depth pass and two blurs) are then compiled after the model's first
 * frame rather than before it, which on a software renderer shows the model about 0.4 s sooner.
 */
export function Stage({ url, settings, onFirstFrame: onDrawn, ...props }: StageProps) {
  const [fitted, setFitted] = useState<{ url: string; size: Vector3 } | null>(null);
  const size = fitted?.url === url ? fitted.size : null;
  const onSize = useCallback((size: Vector3) => setFitted({ url, size }), [url]);
  const [decorated, setDecorated] = useState(false);
  const onFirstFrame = useCallback(() => {
    setDecorated(true);
    onDrawn();
  }, [onDrawn]);
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
      {decorated && (
        <Ground
          height={size?.y ?? 1}
          known={size !== null}
          shadow={settings.shadow}
          grid={settings.grid}
          dark={dark}
        />
      )}
    </>
  );
}
