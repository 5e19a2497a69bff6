// What the DOM side (buttons, keys) may ask of the scene, and the direction a view starts from.
import { Vector3, type PerspectiveCamera, type Scene, type WebGLRenderer } from 'three';

/**
 * The scene as the turntable draws it (turntable/): the renderer, the scene and camera as shown,
 * the point the camera orbits, how far the model reaches from it, and its animation's pose.
 */
export interface TurntableStage {
  gl: WebGLRenderer;
  scene: Scene;
  camera: PerspectiveCamera;
  /** The orbit's centre (the framed model's, unless panned). */
  target: Vector3;
  /** How far the model reaches from `target` as it is posed now (it stays within as it turns). */
  reach: () => number;
  /** Poses the playing clip at `seconds` (null: the model has no clip). */
  pose: ((seconds: number) => void) | null;
  /** The clip's time now, to pose it back afterwards. */
  poseTime: () => number;
  invalidate: () => void;
}

/** What the DOM side (buttons, keys) may ask of the scene. */
export interface ViewHandle {
  reset(): void;
  orbit(azimuth: number, polar: number): void;
  zoom(factor: number): void;
  /**
   * A picture of the model for the gallery: `width` × `height` from the middle of the view,
   * without background or grid (the contact shadow stays), WebP where the browser writes it.
   */
  picture(width: number, height: number): Promise<Blob>;
  /** The scene for a turntable, or null before the model is in view. */
  turntable(): TurntableStage | null;
}

/** The direction the camera looks from, before and after "Reset view": front, a little right and above. */
export const VIEW_DIRECTION = new Vector3(0.45, 0.3, 1).normalize();
