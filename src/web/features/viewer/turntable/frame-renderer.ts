// Draws a turntable's frames off screen, one at a time, at the chosen size: the viewer's scene
// from a camera on the orbit of the view as shown, into a render target (the canvas on screen is
// not touched), tone-mapped as the screen is, read back and laid over the backdrop.
import { Color, HalfFloatType, Vector3, WebGLRenderTarget, type PerspectiveCamera } from 'three';
import { OutputPass } from 'three/examples/jsm/postprocessing/OutputPass.js';
import type { TurntableStage } from '../view-handle.ts';
import { paintBackdrop, type Backdrop } from './backdrop.ts';
import { orbitDistance } from './frames.ts';

const UP = new Vector3(0, 1, 0);

/** How far the model reaches from the orbit's centre in any of its poses at `times`. */
function reachOver(stage: TurntableStage, times: readonly number[]): number {
  const { pose } = stage;
  if (!pose) return stage.reach();
  let reach = 0;
  for (const t of times) {
    pose(t);
    reach = Math.max(reach, stage.reach());
  }
  return reach;
}

export class FrameRenderer {
  /** The finished frame (backdrop and model), `width` × `height`. */
  readonly canvas: HTMLCanvasElement;
  private readonly context: CanvasRenderingContext2D;
  /** The model alone, as read back (straight alpha). */
  private readonly layer: HTMLCanvasElement;
  private readonly layerContext: CanvasRenderingContext2D;
  private readonly backdrop: HTMLCanvasElement | null;
  private readonly scene: WebGLRenderTarget;
  private readonly output: WebGLRenderTarget;
  private readonly pass = new OutputPass();
  private readonly pixels: Uint8Array;
  private readonly image: ImageData;
  private readonly camera: PerspectiveCamera;
  private readonly offset: Vector3;

  constructor(
    private readonly stage: TurntableStage,
    readonly width: number,
    readonly height: number,
    backdrop: Backdrop,
    /** The animation's time at each frame: the model is kept in frame in every pose. */
    times: readonly number[],
    /**
     * False: the camera stays as far as the view as shown (a screenshot as shown); else it moves
     * back as far as it must for the model to stay whole in this frame's proportions.
     */
    fit = true,
  ) {
    const canvas = (w: number, h: number) =>
      Object.assign(document.createElement('canvas'), { width: w, height: h });
    const context2d = (c: HTMLCanvasElement) => {
      const context = c.getContext('2d', { willReadFrequently: true });
      if (!context) throw new Error('the browser could not draw the frames.');
      return context;
    };
    this.layer = canvas(width, height);
    this.layerContext = context2d(this.layer);
    if (backdrop.kind === 'none') {
      this.canvas = this.layer;
      this.context = this.layerContext;
      this.backdrop = null;
    } else {
      this.canvas = canvas(width, height);
      this.context = context2d(this.canvas);
      this.backdrop = canvas(width, height);
      paintBackdrop(context2d(this.backdrop), backdrop);
    }
    // Linear light, antialiased, then tone-mapped and made sRGB by the output pass (three does
    // both only when drawing to the screen).
    this.scene = new WebGLRenderTarget(width, height, { type: HalfFloatType, samples: 4 });
    this.output = new WebGLRenderTarget(width, height);
    this.pixels = new Uint8Array(width * height * 4);
    this.image = new ImageData(width, height);
    this.camera = stage.camera.clone();
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    const shown = stage.camera.position.clone().sub(stage.target);
    const distance = fit
      ? orbitDistance(shown.length(), reachOver(stage, times), this.camera, width / height)
      : shown.length();
    this.offset = shown.setLength(distance);
  }

  /**
   * Draws the frame at orbit `angle` (radians, about the vertical through the target) with the
   * animation at `seconds`, into `canvas`.
   */
  draw(angle: number, seconds: number): void {
    const { gl, scene, target, pose } = this.stage;
    pose?.(seconds);
    this.camera.position.copy(this.offset).applyAxisAngle(UP, angle).add(target);
    this.camera.up.copy(UP);
    this.camera.lookAt(target);
    this.camera.updateMatrixWorld();

    const background = scene.background;
    const before = gl.getRenderTarget();
    const clearAlpha = gl.getClearAlpha();
    const clearColour = gl.getClearColor(new Color());
    scene.background = null;
    try {
      // Transparent black: what the read-back's premultiplied edges assume.
      gl.setClearColor(0x000000, 0);
      gl.setRenderTarget(this.scene);
      gl.clear();
      gl.render(scene, this.camera);
      this.pass.render(gl, this.output, this.scene, 0, false);
      gl.readRenderTargetPixels(this.output, 0, 0, this.width, this.height, this.pixels);
    } finally {
      gl.setRenderTarget(before);
      gl.setClearColor(clearColour, clearAlpha);
      scene.background = background;
    }
    this.compose();
  }

  /** The finished frame's pixels (RGBA, top row first). */
  rgba(): Uint8ClampedArray {
    return this.context.getImageData(0, 0, this.width, this.height).data;
  }

  /**
   * Read back bottom row first and premultiplied (antialiased edges are averaged with the clear
   * transparent black): flipped and made straight for the 2D canvas, then laid over the backdrop.
   */
  private compose(): void {
    const { width, height, pixels } = this;
    const out = this.image.data;
    const row = width * 4;
    for (let y = 0; y < height; y++) {
      const from = (height - 1 - y) * row;
      const to = y * row;
      for (let x = 0; x < row; x += 4) {
        const a = pixels[from + x + 3]!;
        if (a === 255 || a === 0) {
          out[to + x] = pixels[from + x]!;
          out[to + x + 1] = pixels[from + x + 1]!;
          out[to + x + 2] = pixels[from + x + 2]!;
        } else {
          const k = 255 / a;
          out[to + x] = pixels[from + x]! * k;
          out[to + x + 1] = pixels[from + x + 1]! * k;
          out[to + x + 2] = pixels[from + x + 2]! * k;
        }
        out[to + x + 3] = a;
      }
    }
    this.layerContext.putImageData(this.image, 0, 0);
    if (this.backdrop) {
      this.context.drawImage(this.backdrop, 0, 0);
      this.context.drawImage(this.layer, 0, 0);
    }
  }

  dispose(): void {
    this.scene.dispose();
    this.output.dispose();
    this.pass.dispose();
    this.stage.invalidate();
  }
}
