import sharp from 'sharp';
import { ApiError } from '../../http/index.ts';
import {
  IMAGE_MAX_BYTES,
  formatBytes,
  imageKind,
  unusableImageSentence,
} from '../../formats/index.ts';

/** 50 megapixels, checked from the header before any pixel is decoded. */
const UPLOAD_MAX_PIXELS = 50_000_000;
/** The long side of a stored upload; larger images are scaled down, smaller ones kept. */
const UPLOAD_MAX_SIDE = 2048;

export interface NormaliseLimits {
  maxBytes?: number;
  maxPixels?: number;
  maxSide?: number;
}

type UploadExt = 'png' | 'jpg' | 'webp';

export interface NormalisedImage {
  bytes: Uint8Array;
  ext: UploadExt;
  mime: string;
  width: number;
  height: number;
}

export type UploadErrorStatus = 400 | 413 | 415;

type UploadErrorCode =
  | 'empty_file'
  | 'file_too_large'
  | 'image_too_large'
  | 'image_damaged'
  | 'unsupported_image_type'
  | 'invalid_multipart'
  | 'missing_file';

/** Why an upload was refused: an HTTP status, a stable code and a sentence naming the file. */
export class UploadError extends ApiError {
  override name = 'UploadError';
  declare readonly status: UploadErrorStatus;
  constructor(status: UploadErrorStatus, code: UploadErrorCode, message: string) {
    super(status, { code, message, param: 'file' });
  }
  get code(): string {
    return this.error.code ?? '';
  }
}

const FORMATS = {
  png: { ext: 'png', mime: 'image/png' },
  jpeg: { ext: 'jpg', mime: 'image/jpeg' },
  webp: { ext: 'webp', mime: 'image/webp' },
} as const;

const ACCEPTED = 'upload a PNG, JPEG or WebP photo';

/** The 413 for too many bytes; `size` is unknown when the body was cut off while streaming. */
export function tooLarge(size: number | undefined, maxBytes: number): UploadError {
  const limit = formatBytes(maxBytes);
  return new UploadError(
    413,
    'file_too_large',
    size === undefined
      ? `The file is larger than ${limit}, the limit for one image; pick a smaller image.`
      : `The file is ${formatBytes(size)}; the limit is ${limit} per image, so pick a smaller image.`,
  );
}

const damaged = () =>
  new UploadError(
    400,
    'image_damaged',
    'The image is damaged or incomplete (perhaps it did not finish copying or downloading); open it, save it again and retry.',
  );

/**
 * Turns untrusted bytes into an upload Kiln stores:
 *
 * - PNG, JPEG and WebP only, recognised by content. GIF is refused (415), not converted: it is
 *   a 256-colour, often animated format that makes a poor source photo, and silently taking the
 *   first frame would surprise more than a clear "convert it first". Animated WebP/APNG keep their
 *   first frame.
 * - Size and pixel caps (413). The pixel count comes from the header (`metadata()` parses only
 *   headers), so a small file declaring a huge canvas is refused before anything is allocated;
 *   `limitInputPixels` on the decode is a second guard.
 * - Fully decoded with `failOn: 'error'`, so a truncated or corrupt file is a 400 rather than an
 *   image with a grey bottom half. (`'warning'`, sharp's default, would also refuse files with
 *   harmless quirks that every viewer opens.)
 * - Turned upright from EXIF orientation, long side at most 2048 px (never enlarged), and
 *   re-encoded in its own format: PNG keeps alpha, JPEG and WebP at quality 90. sharp writes no
 *   metadata unless asked, so EXIF (GPS included), XMP, IPTC and ICC are all dropped, with pixels
 *   converted to sRGB.
 */
export async function normaliseImage(
  bytes: Uint8Array,
  limits: NormaliseLimits = {},
): Promise<NormalisedImage> {
  const maxBytes = limits.maxBytes ?? IMAGE_MAX_BYTES;
  const maxPixels = limits.maxPixels ?? UPLOAD_MAX_PIXELS;
  const maxSide = limits.maxSide ?? UPLOAD_MAX_SIDE;

  if (bytes.byteLength === 0)
    throw new UploadError(400, 'empty_file', `The file is empty; ${ACCEPTED}.`);
  if (bytes.byteLength > maxBytes) throw tooLarge(bytes.byteLength, maxBytes);

  const kind = imageKind(bytes);
  const format = kind === 'png' || kind === 'jpeg' || kind === 'webp' ? kind : undefined;
  if (!format)
    throw new UploadError(
      415,
      'unsupported_image_type',
      unusableImageSentence(kind, { accepted: 'a PNG, JPEG or WebP photo' }),
    );

  let width: number;
  let height: number;
  try {
    const header = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (header.format !== format) throw damaged();
    width = header.width;
    height = header.height;
  } catch (err) {
    if (err instanceof UploadError) throw err;
    throw damaged();
  }
  if (!(width > 0 && height > 0)) throw damaged();
  if (width * height > maxPixels)
    throw new UploadError(
      413,
      'image_too_large',
      `The image is ${width} × ${height} pixels (${megapixels(width * height)} megapixels); ` +
        `the limit is ${megapixels(maxPixels)} megapixels, so scale it down and retry.`,
    );

  const { ext, mime } = FORMATS[format];
  const pipeline = sharp(bytes, {
    failOn: 'error',
    limitInputPixels: maxPixels,
    autoOrient: true,
  }).resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
  if (format === 'png') pipeline.png();
  else if (format === 'jpeg') pipeline.jpeg({ quality: 90, mozjpeg: false });
  else pipeline.webp({ quality: 90 });

  try {
    const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
    return {
      bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      ext,
      mime,
      width: info.width,
      height: info.height,
    };
  } catch (err) {
    if (err instanceof Error && /pixel limit/i.test(err.message))
      throw new UploadError(
        413,
        'image_too_large',
        `The image is larger than ${megapixels(maxPixels)} megapixels; scale it down and retry.`,
      );
    throw damaged();
  }
}

function megapixels(pixels: number): string {
  const mp = pixels / 1_000_000;
  return mp >= 10 || Number.isInteger(mp) ? String(Math.round(mp)) : mp.toFixed(1);
}
