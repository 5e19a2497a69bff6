// The gallery's picture of the model (screenshots are screenshot.ts).
import type { RootState } from '@react-three/fiber';
import type { Object3D } from 'three';

/** The gallery picture's zoom against the view's fit. */
const PICTURE_ZOOM = 0.85;

type View = Pick<RootState, 'gl' | 'scene' | 'camera' | 'invalidate'>;

/**
 * A picture of the model for the gallery: `width` × `height` from the middle of the view,
 * without background or grid (the contact shadow stays), WebP where the browser writes it.
 */
export async function pictureOfView(
  { gl, scene, camera, invalidate }: View,
  width: number,
  height: number,
): Promise<Blob> {
  const background = scene.background;
  const hidden: Object3D[] = [];
  scene.traverse((o) => {
    if (o.type === 'GridHelper' && o.visible) hidden.push(o);
  });
  scene.background = null;
  for (const o of hidden) o.visible = false;
  // A little more room around the model than the view's tight fit (the card's corners
  // carry the input and a badge).
  const zoom = camera.zoom;
  camera.zoom = zoom * PICTURE_ZOOM;
  camera.updateProjectionMatrix();
  // Drawn and copied in one task: the drawing buffer is not preserved past it.
  gl.render(scene, camera);
  camera.zoom = zoom;
  camera.updateProjectionMatrix();
  const source = gl.domElement;
  const out = document.createElement('canvas');
  out.width = width;
  out.height = height;
  const scale = Math.min(source.width / width, source.height / height);
  const [w, h] = [width * scale, height * scale];
  const context = out.getContext('2d');
  context?.drawImage(
    source,
    (source.width - w) / 2,
    (source.height - h) / 2,
    w,
    h,
    0,
    0,
    width,
    height,
  );
  scene.background = background;
  for (const o of hidden) o.visible = true;
  invalidate();
  if (!context) throw new Error('the browser could not draw the picture.');
  const blob = await new Promise<Blob | null>((resolve) => out.toBlob(resolve, 'image/webp', 0.85));
  if (!blob) throw new Error('the browser could not encode the picture.');
  return blob;
}
