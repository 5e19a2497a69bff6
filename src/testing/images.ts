// Images for the upload tests: the shared photos and ones made with sharp on the spot.
import { readPhoto } from './fixtures.ts';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { normaliseImage } from '../server/uploads/normalise-image.ts';

export const photo = (name: 'chair.png' | 'teapot.png'): Uint8Array => readPhoto(name);

const u8 = (b: Buffer) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/**
 * A 300×100 JPEG stored sideways (EXIF orientation 6, "rotate 90° clockwise to view"), left half
 * red and right half blue, with a camera make and a GPS position in its EXIF.
 */
export async function sidewaysJpegWithGps(): Promise<Uint8Array> {
  const left = await sharp({
    create: { width: 150, height: 100, channels: 3, background: '#ff0000' },
  })
    .png()
    .toBuffer();
  const img = await sharp({
    create: { width: 300, height: 100, channels: 3, background: '#0000ff' },
  })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .withExifMerge({
      IFD0: { Make: 'KilnCam', Model: 'Test 1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 0/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 0/1',
      },
    })
    .toBuffer();
  return u8(img);
}

/** True when an EXIF block holds a GPS IFD pointer (tag 0x8825) in either byte order. */
export function exifHasGps(exif: Uint8Array): boolean {
  for (let i = 0; i + 1 < exif.length; i++) {
    if (exif[i] === 0x25 && exif[i + 1] === 0x88) return true;
    if (exif[i] === 0x88 && exif[i + 1] === 0x25) return true;
  }
  return false;
}

export async function solid(
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'webp' | 'gif' | 'avif' | 'tiff',
  channels: 3 | 4 = 3,
): Promise<Uint8Array> {
  const background =
    channels === 4 ? { r: 200, g: 120, b: 40, alpha: 0.5 } : { r: 200, g: 120, b: 40 };
  return u8(
    await sharp({ create: { width, height, channels, background } }).toFormat(format).toBuffer(),
  );
}

/** A tiny valid PNG whose IHDR claims `width`×`height` (with a correct CRC): a decompression bomb. */
export async function pngBombHeader(width: number, height: number): Promise<Uint8Array> {
  const png = Buffer.from(await solid(8, 8, 'png'));
  // Signature (8), IHDR length (4), "IHDR" (4), width (4) at 16, height (4) at 20, …, CRC at 29.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return u8(png);
}

export const bytesOf = (text: string) => new TextEncoder().encode(text);

export const SVG = bytesOf(
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>\n',
);
export const HEIC = new Uint8Array([
  0x00,
  0x00,
  0x00,
  0x18,
  ...bytesOf('ftypheic'),
  0x00,
  0x00,
  0x00,
  0x00,
  ...bytesOf('mif1heic'),
  ...new Uint8Array(64),
]);
export const PDF = bytesOf('%PDF-1.7\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog >>\nendobj\n');
export const TEXT = bytesOf('Hello! This is not a photo, even though it is called photo.png.\n');

/** How a photo may reach the generator: as sent, as Kiln stores it, a copy of that, or as JPEG. */
export type ReEncoding = 'sent' | 'stored' | 'stored again' | `jpeg ${70 | 85 | 100}`;

/**
 * Every re-encoding of `sent` that segmentation must not flip on (issue 23, item 1): the bytes as
 * sent (a file or a data: URI), Kiln's stored upload, a copy of that stored copy, and JPEG at
 * quality 70, 85 and 100 (flattened on white).
 */
export async function reEncodings(sent: Uint8Array): Promise<[ReEncoding, Uint8Array][]> {
  const stored = (await normaliseImage(sent)).bytes;
  const jpegs = await Promise.all(
    ([70, 85, 100] as const).map(async (q): Promise<[ReEncoding, Uint8Array]> => [
      `jpeg ${q}`,
      new Uint8Array(
        await sharp(sent).flatten({ background: '#ffffff' }).jpeg({ quality: q }).toBuffer(),
      ),
    ]),
  );
  return [
    ['sent', sent],
    ['stored', stored],
    ['stored again', (await normaliseImage(stored)).bytes],
    ...jpegs,
  ];
}
