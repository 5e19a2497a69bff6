// The scene's light, background and exposure.
import { useEffect, useMemo } from 'react';
import { useThree } from '@react-three/fiber';
import { Color, PMREMGenerator, type WebGLRenderer } from 'three';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';

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
export function Lighting() {
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
