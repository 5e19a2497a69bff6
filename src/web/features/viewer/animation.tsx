// A model's animation clips, played.
import { useEffect, useMemo, useRef, type RefObject } from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import { AnimationMixer, type AnimationAction, type Object3D } from 'three';
import type { LoadedModel } from './loaders.ts';

/** Plays one of the model's clips (the chosen one) while `playing`. */
export function Animation({
  object,
  model,
  clip,
  playing,
  mixerRef,
}: {
  object: Object3D;
  model: LoadedModel;
  clip: number;
  playing: boolean;
  /** Given the mixer while a clip is chosen (the turntable poses it frame by frame). */
  mixerRef: RefObject<AnimationMixer | null>;
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
    mixerRef.current = mixer;
    invalidate();
    return () => {
      next.stop();
      action.current = null;
      mixerRef.current = null;
    };
  }, [clips, clip, mixer, invalidate, mixerRef]);
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
