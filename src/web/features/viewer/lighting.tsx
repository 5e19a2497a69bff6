// The scene's light, background and exposure.
import { useEffect, useLayoutEffect } from 'react';
import { useThree } from '@react-three/fiber';
import { Color } from 'three';
import { lightStage } from './stage.ts';

/**
 * The stage's light (stage.ts: the same as a share page's first frame), on the scene of
 * this canvas' renderer.
 */
export function Lighting() {
  const get = useThree((s) => s.get);
  const gl = useThree((s) => s.gl);
  // At commit, so the frame that first shows the model is lit.
  useLayoutEffect(() => {
    const { scene, invalidate } = get();
    const unlight = lightStage(scene, gl);
    invalidate();
    return () => {
      unlight();
      invalidate();
    };
  }, [get, gl]);
  return null;
}

/** Background colour and exposure, straight onto the scene and renderer. */
export function Backdrop({ color, exposure }: { color: string | null; exposure: number }) {
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

/** A pale colour on dark backgrounds, a dark one on light (or transparent) ones. */
export function isDark(color: string | null): boolean {
  if (!color) return window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false;
  const c = new Color(color);
  return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b < 0.35;
}
