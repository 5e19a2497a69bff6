// A share page's first frame, drawn with three.js alone (decision 0132): the model, lit and framed
// as the viewer will show it once settled, on the server-drawn page (src/server/share/
// first-paint.ts), before React, react-three-fiber and the page's code are asked for. A stranger
// on a phone sees the model after three.js, the loaders and the GLB, not after all of Kiln's code.
// The viewer takes over once it has drawn the same view (share-page.tsx calls `handOver`).
import {
  ACESFilmicToneMapping,
  Box3,
  Group,
  PerspectiveCamera,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
import { fitSkinnedBounds } from './clip-bounds.ts';
import { fitMargin, unitScale } from './framing.ts';
import { acquire, attachRenderer, loadModel, release, releaseRenderer } from './loaders.ts';
import { CAMERA, FIRST_FRAME_MARK, GL_OPTIONS, lightStage, pixelRatio } from './stage.ts';
import { takeWarmCanvas } from './webgl-warmup.ts';

/**
 * Where the camera stands for a model of `box` (centred, in view units), as drei's Bounds puts it
 * once its fit is over (model-view.tsx: `fit clip margin`): the box's largest side at `margin`,
 * seen from the view's starting direction.
 */
export function fittedCamera(box: Box3, margin: number, aspect: number): PerspectiveCamera {
  const size = box.getSize(new Vector3());
  const center = box.getCenter(new Vector3());
  const largest = Math.max(size.x, size.y, size.z);
  const fitHeight = largest / (2 * Math.atan((Math.PI * CAMERA.fov) / 360));
  const distance = margin * Math.max(fitHeight, fitHeight / aspect);
  const camera = new PerspectiveCamera(CAMERA.fov, aspect, distance / 100, distance * 100);
  const direction = CAMERA.position.clone().sub(center).normalize();
  camera.position.copy(center).addScaledVector(direction, distance);
  camera.lookAt(center);
  camera.updateMatrixWorld();
  return camera;
}

/** Lets a drawn first frame go, until the viewer has taken over. */
let letGo: (() => void) | null = null;

/**
 * Draws the model at `url` into `frame` (the server-drawn page's poster frame), reporting the
 * download's progress. Resolves once it is drawn (true) or cannot be (false: no WebGL, a file
 * that does not load; the viewer then says why).
 */
export async function paintFirstFrame(
  url: string,
  frame: HTMLElement,
  onProgress: (percent: number) => void,
): Promise<boolean> {
  const canvas = takeWarmCanvas() ?? document.createElement('canvas');
  let gl: WebGLRenderer;
  try {
    gl = new WebGLRenderer({ ...GL_OPTIONS, canvas, powerPreference: 'high-performance' });
  } catch {
    return false;
  }
  // What react-three-fiber sets on the viewer's renderer (flat={false}, linear={false}).
  gl.toneMapping = ACESFilmicToneMapping;
  gl.setPixelRatio(pixelRatio());
  attachRenderer(gl);
  const dropRenderer = () => {
    releaseRenderer(gl);
    gl.dispose();
    gl.forceContextLoss();
  };
  const loaded = await loadModel(url, onProgress);
  if (loaded instanceof Error || !frame.isConnected) {
    dropRenderer();
    return false;
  }
  acquire(loaded);

  // The model as model-view.tsx places it: centred on the origin, scaled to a unit footprint.
  const object = loaded.gltf.scene;
  fitSkinnedBounds(object, loaded.gltf.animations);
  const centred = new Group();
  const scaled = new Group();
  centred.add(object);
  scaled.add(centred);
  object.updateMatrixWorld(true);
  const raw = new Box3().setFromObject(object, true);
  const rawSize = raw.getSize(new Vector3());
  const unit = unitScale(rawSize);
  scaled.scale.setScalar(unit);
  centred.position.copy(raw.getCenter(new Vector3())).negate();

  const scene = new Scene();
  scene.add(scaled);
  const unlight = lightStage(scene, gl);
  const draw = () => {
    const { width, height } = frame.getBoundingClientRect();
    if (width < 1 || height < 1) return;
    gl.setSize(width, height, false);
    const aspect = width / height;
    const margin = fitMargin(rawSize.clone().multiplyScalar(unit), CAMERA.fov, aspect);
    scaled.updateMatrixWorld(true);
    gl.render(scene, fittedCamera(new Box3().setFromObject(scaled), margin, aspect));
  };

  canvas.className = 'share-page__first-frame';
  canvas.setAttribute('aria-hidden', 'true');
  canvas.removeAttribute('style');
  frame.append(canvas);
  draw();
  performance.mark(FIRST_FRAME_MARK);
  frame.classList.add('share-page__poster-frame--drawn');
  // A phone turned, a window resized: drawn again at the frame's new size.
  const resized = new ResizeObserver(() => draw());
  resized.observe(frame);

  letGo = () => {
    resized.disconnect();
    unlight();
    // The model goes back as it came (the viewer shows a copy of it).
    centred.remove(object);
    dropRenderer();
    canvas.remove();
    release(loaded);
  };
  return true;
}

/** The viewer shows the model now: the first frame's canvas and WebGL context are let go. */
export function handOver(): void {
  letGo?.();
  letGo = null;
}
