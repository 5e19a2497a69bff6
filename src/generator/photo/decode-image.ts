import sharp, { type Metadata, type SharpOptions } from 'sharp';
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

const SUPPORTED = 'only PNG, JPEG, WebP and GIF images are supported';

/**
 * Options for every sharp pipeline that reads untrusted input. `failOn: 'error'` rejects
 * truncated and corrupt data but tolerates the harmless warnings many camera JPEGs produce.
 */
export const SHARP_INPUT_OPTIONS: SharpOptions = {
  limitInputPixels: MAX_INPUT_PIXELS,
  failOn: 'error',
};

/** Identifies a supported image format from its leading bytes, without decoding anything. */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | undefined {
  const at = (offset: number, ascii: string): boolean =>
    bytes.length >= offset + ascii.length &&
    [...ascii].every((ch, i) => bytes[offset + i] === ch.charCodeAt(0));

  if (at(0, '\x89PNG\r\n\x1a\n')) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (at(0, 'RIFF') && at(8, 'WEBP')) return 'webp';
  if (at(0, 'GIF87a') || at(0, 'GIF89a')) return 'gif';
  return undefined;
}

/** A short clause saying what unsupported bytes look like, for the error message. */
function describeUnsupported(bytes: Uint8Array): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024));
  const text = head
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  const ascii = (offset: number, length: number): string =>
    new TextDecoder('latin1').decode(bytes.subarray(offset, offset + length));

  if (text.startsWith('<svg') || (text.startsWith('<?xml') && text.includes('<svg'))) {
    return `it is an SVG drawing, and ${SUPPORTED}`;
  }
  if (text.startsWith('<!doctype html') || text.startsWith('<html')) {
    return `it is an HTML page, not an image`;
  }
  if (text.startsWith('%pdf')) return `it is a PDF document, and ${SUPPORTED}`;
  if (ascii(4, 4) === 'ftyp') {
    const brand = ascii(8, 4);
    if (/^(avif|avis)$/.test(brand)) return `it is an AVIF image, and ${SUPPORTED}`;
    if (/^(heic|heix|hevc|hevx|heim|heis|hevm|hevs|mif1|msf1)$/.test(brand)) {
      return `it is a HEIC/HEIF image, and ${SUPPORTED}`;
    }
    return 'it is a video or other ISO media file, not an image';
  }
  if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') {
    return `it is a TIFF image, and ${SUPPORTED}`;
  }
  if (ascii(0, 2) === 'BM' && bytes.length >= 26) return `it is a BMP image, and ${SUPPORTED}`;
  if (bytes.length >= 4 && bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 1 && bytes[3] === 0) {
    return `it is an ICO icon, and ${SUPPORTED}`;
  }
  if (looksLikeText(bytes)) return 'it is text, not an image';
  return `its content is not a PNG, JPEG, WebP or GIF image`;
}

function looksLikeText(bytes: Uint8Array): boolean {
  const sample = bytes.subarray(0, 512);
  let printable = 0;
  for (const b of sample) {
    if (b === 9 || b === 10 || b === 13 || (b >= 32 && b !== 127)) printable++;
  }
  return printable / sample.length > 0.95 && !sample.includes(0);
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
  if (format === undefined) throw decodeFailure(describeUnsupported(bytes), imageIndex);

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
 *   "The image could not be decoded: it is an SVG drawing, and only PNG, JPEG, WebP and GIF images are supported."
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
