import sharp, { type Metadata, type SharpOptions } from 'sharp';
import { imageKind, unusableImageSentence } from '../../formats/index.ts';
import { GeneratorInputError } from '../core/errors.ts';

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

export interface ImageInfo {
  /** Width as displayed, i.e. after the EXIF orientation is applied. */
  width: number;
  /** Height as displayed, i.e. after the EXIF orientation is applied. */
  height: number;
  format: ImageFormat;
}

/** Images above this many pixels are refused before their pixels are decoded. */
export const MAX_INPUT_PIXELS = 50_000_000;

const FORMAT_NAMES: Record<ImageFormat, string> = {
  png: 'PNG',
  jpeg: 'JPEG',
  webp: 'WebP',
  gif: 'GIF',
};

/**
 * Options for every sharp pipeline that reads untrusted input. `failOn: 'error'` rejects
 * truncated and corrupt data but tolerates the harmless warnings many camera JPEGs produce.
 */
export const SHARP_INPUT_OPTIONS: SharpOptions = {
  limitInputPixels: MAX_INPUT_PIXELS,
  failOn: 'error',
};

/** Identifies a supported image format from its leading bytes, without decoding anything. */
function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  const kind = imageKind(bytes);
  return (GENERATOR_FORMATS as readonly string[]).includes(kind)
    ? (kind as ImageFormat)
    : undefined;
}

const GENERATOR_FORMATS: readonly ImageFormat[] = ['png', 'jpeg', 'webp', 'gif'];

/**
 * Bytes of a kind the generator cannot read, said in the sentence the studio and the upload
 * endpoint use for the same file (src/formats): "Image 2 is an SVG drawing; use a PNG, JPEG or
 * WebP image. Export the drawing as a PNG."
 */
function unusable(bytes: Uint8Array, imageIndex?: number) {
  const subject = imageIndex === undefined ? 'The image' : `Image ${imageIndex + 1}`;
  return new GeneratorInputError(unusableImageSentence(imageKind(bytes), { subject }), {
    ...(imageIndex === undefined ? {} : { imageIndex }),
  });
}

function decodeFailure(reason: string, imageIndex?: number, cause?: unknown) {
  const subject = imageIndex === undefined ? 'The image' : `Image ${imageIndex + 1}`;
  return new GeneratorInputError(`${subject} could not be decoded: ${reason}.`, {
    ...(cause === undefined ? {} : { cause }),
    ...(imageIndex === undefined ? {} : { imageIndex }),
  });
}

function tooBig(width: number, height: number, imageIndex?: number) {
  const mp = ((width * height) / 1e6).toFixed(1);
  return decodeFailure(
    `it is ${width} × ${height} pixels (${mp} megapixels), over the ` +
      `${MAX_INPUT_PIXELS / 1e6}-megapixel limit`,
    imageIndex,
  );
}

/** Wraps the input for sharp without copying it. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Maps an error thrown by sharp/libvips while reading `format` data to a GeneratorInputError.
 * Errors that are not about the input (none expected) are passed through unchanged.
 */
export function mapDecodeError(
  error: unknown,
  format: ImageFormat,
  imageIndex?: number,
): GeneratorInputError {
  if (error instanceof GeneratorInputError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/pixel limit/i.test(message)) {
    return decodeFailure(
      `it is larger than the ${MAX_INPUT_PIXELS / 1e6}-megapixel limit`,
      imageIndex,
      error,
    );
  }
  return decodeFailure(
    `the ${FORMAT_NAMES[format]} data is truncated or corrupt`,
    imageIndex,
    error,
  );
}

/**
 * Checks the magic bytes and the header (via sharp's metadata, which reads no pixels), and
 * enforces the pixel limit. Cheap; does not prove that the pixel data is intact.
 */
export async function probeImage(bytes: Uint8Array, imageIndex?: number): Promise<ImageInfo> {
  if (!(bytes instanceof Uint8Array)) {
    throw decodeFailure('the input is not a byte array', imageIndex);
  }
  if (bytes.length === 0) throw decodeFailure('the file is empty', imageIndex);
  const format = sniffImageFormat(bytes);
  if (format === undefined) throw unusable(bytes, imageIndex);

  let meta: Metadata;
  try {
    // Pixel limit is deliberately not passed here so that an oversized image gets the
    // precise message below instead of libvips' generic one.
    meta = await sharp(asBuffer(bytes), { failOn: 'error', limitInputPixels: false }).metadata();
  } catch (error) {
    throw mapDecodeError(error, format, imageIndex);
  }
  if (meta.format !== format) {
    throw decodeFailure(`the ${FORMAT_NAMES[format]} header is corrupt`, imageIndex);
  }
  const { width, height } = meta;
  if (!(width > 0 && height > 0)) {
    throw decodeFailure(`the ${FORMAT_NAMES[format]} header has no valid size`, imageIndex);
  }
  if (width * height > MAX_INPUT_PIXELS) throw tooBig(width, height, imageIndex);
  return { width: meta.autoOrient.width, height: meta.autoOrient.height, format };
}

/**
 * Validates an image by content: recognises PNG, JPEG, WebP and GIF by their magic bytes,
 * reads the header, refuses images over {@link MAX_INPUT_PIXELS}, then decodes the pixels
 * (into a tiny thumbnail, so memory stays small) to catch truncated or corrupt data.
 *
 * @throws GeneratorInputError with a sentence such as
 *   "The image is an SVG drawing; use a PNG, JPEG or WebP image. Export the drawing as a PNG."
 */
export async function decodeImage(bytes: Uint8Array): Promise<ImageInfo> {
  const info = await probeImage(bytes);
  try {
    await sharp(asBuffer(bytes), SHARP_INPUT_OPTIONS)
      .resize(8, 8, { fit: 'fill' })
      .raw()
      .toBuffer();
  } catch (error) {
    throw mapDecodeError(error, info.format);
  }
  return info;
}
