// The stage, in plain three.js: the viewer's canvas (viewer-canvas.tsx, lighting.tsx,
// ready-signal.tsx) and a share page's first frame (first-frame.ts) draw a model with the same
// camera, renderer and light, so the one hands over to the other unseen.
import {
  DirectionalLight,
  HemisphereLight,
  PMREMGenerator,
  type Object3D,
  type Scene,
  type WebGLRenderer,
} from 'three';
import { RoomEnvironment } from 'three/examples/jsm/environments/RoomEnvironment.js';
import { VIEW_DIRECTION } from './view-handle.ts';

/** The camera's field of view, in degrees, and where it stands before the model is fitted. */
export const CAMERA = { fov: 35, position: VIEW_DIRECTION.clone().multiplyScalar(4) };

/** Must match CONTEXT_ATTRIBUTES in webgl-warmup.ts (r3f adds powerPreference: high-performance). */
export const GL_OPTIONS = { preserveDrawingBuffer: false, antialias: true, alpha: true };

/** The canvas' pixel ratio: the screen's, from 1 to 2. */
export const DPR: [number, number] = [1, 2];

/** The pixel ratio DPR gives this screen. */
export const pixelRatio = () => Math.min(Math.max(window.devicePixelRatio || 1, DPR[0]), DPR[1]);

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
 * Lights `scene`: a soft key light over image-based lighting from three's RoomEnvironment,
 * prefiltered here (no HDR download). On a software renderer, a hemisphere and a fill light stand
 * in for the environment. Returns what takes the lights away again.
 */
export function lightStage(scene: Scene, gl: WebGLRenderer): () => void {
  const software = isSoftwareRenderer(gl);
  const key = new DirectionalLight(0xffffff, software ? 2 : 1.1);
  key.position.set(3, 5, 4);
  const lights: Object3D[] = [key];
  if (software) {
    const fill = new DirectionalLight(0xffffff, 0.8);
    fill.position.set(-4, 2, -3);
    lights.push(new HemisphereLight(0xffffff, 0x8d7f70, 2.6), fill);
  }
  scene.add(...lights);
  if (software)
    return () => {
      scene.remove(...lights);
    };
  const pmrem = new PMREMGenerator(gl);
  const room = new RoomEnvironment();
  const target = pmrem.fromScene(room, 0.04);
  room.dispose();
  pmrem.dispose();
  scene.environment = target.texture;
  scene.environmentIntensity = 0.85;
  return () => {
    scene.remove(...lights);
    if (scene.environment === target.texture) scene.environment = null;
    target.dispose();
  };
}
