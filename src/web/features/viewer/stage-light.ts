// The stage's light, in plain three.js: the viewer's scene (lighting.tsx) and a share page's first
// frame (first-frame.ts) light a model the same way, so the one hands over to the other unseen.
import {
  DirectionalLight,
  HemisphereLight,
  PMREMGenerator,
  type Object3D,
  type Scene,
  type WebGLRenderer,
} from 'three';
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
