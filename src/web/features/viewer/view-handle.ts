// What the DOM side (buttons, keys) may ask of the scene, and the direction a view starts from.
import { Vector3 } from 'three';

/** What the DOM side (buttons, keys) may ask of the scene. */
export interface ViewHandle {
  reset(): void;
  orbit(azimuth: number, polar: number): void;
  zoom(factor: number): void;
  /** A PNG of the view as shown; with `transparent`, without the background colour. */
  capture(transparent: boolean): Promise<Blob>;
  /**
   * A picture of the model for the gallery: `width` × `height` from the middle of the view,
   * without background or grid (the contact shadow stays), WebP where the browser writes it.
   */
  picture(width: number, height: number): Promise<Blob>;
}

/** The direction the camera looks from, before and after "Reset view": front, a little right and above. */
export const VIEW_DIRECTION = new Vector3(0.45, 0.3, 1).normalize();
