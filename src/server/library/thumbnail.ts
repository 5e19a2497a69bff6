import sharp from 'sharp';
import { normaliseImage } from '../uploads/normalise-image.ts';

/** A thumbnail's body: a picture the browser drew, small by nature. */
export const THUMBNAIL_MAX_BYTES = 512 * 1024;
/** The long side a stored thumbnail is brought down to (the gallery shows it at most ~360 px). */
const THUMBNAIL_MAX_SIDE = 480;

/**
 * Turns a picture a browser sent into the stored thumbnail: the same checks as any upload (PNG,
 * JPEG or WebP by content, size and pixel caps, fully decoded), scaled to fit 480 px and always
 * re-encoded as WebP, so what is served is Kiln's own file, never the sender's bytes.
 */
export async function normaliseThumbnail(bytes: Uint8Array): Promise<Uint8Array> {
  const image = await normaliseImage(bytes, {
    maxBytes: THUMBNAIL_MAX_BYTES,
    maxPixels: 4_000_000,
    maxSide: THUMBNAIL_MAX_SIDE,
  });
  const data = await sharp(image.bytes).webp({ quality: 82, alphaQuality: 90 }).toBuffer();
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
