import { ascii, startsWith } from './bytes.ts';

export interface ImageSize {
  mimeType: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif' | 'image/ktx2';
  width: number;
  height: number;
}

const KTX2_IDENTIFIER = [0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The format and pixel size of a PNG, JPEG, WebP, GIF or KTX2 image from its header alone
 * (nothing is decoded); null when the bytes are none of those or too short to tell.
 */
export function imageSize(bytes: Uint8Array): ImageSize | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.byteLength;
  // PNG: signature, then the IHDR chunk's width and height (big-endian).
  if (
    n >= 24 &&
    bytes[0] === 0x89 &&
    ascii(bytes, 1, 3) === 'PNG' &&
    ascii(bytes, 12, 4) === 'IHDR'
  )
    return { mimeType: 'image/png', width: view.getUint32(16), height: view.getUint32(20) };
  // JPEG: walk the marker segments to the first start-of-frame (SOF0–SOF15 but DHT, JPG, DAC).
  if (n >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let at = 2;
    while (at + 4 <= n) {
      if (bytes[at] !== 0xff) return null;
      const marker = bytes[at + 1]!;
      if (marker === 0xff) {
        at += 1; // fill byte
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        at += 2; // no payload
        continue;
      }
      if (marker === 0xd9 || marker === 0xda) return null; // end of image, start of scan
      const length = view.getUint16(at + 2);
      const isFrame = marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);
      if (isFrame) {
        if (at + 9 > n) return null;
        return {
          mimeType: 'image/jpeg',
          width: view.getUint16(at + 7),
          height: view.getUint16(at + 5),
        };
      }
      at += 2 + length;
    }
    return null;
  }
  // WebP: RIFF container; the first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended).
  if (n >= 30 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') {
    const chunk = ascii(bytes, 12, 4);
    if (chunk === 'VP8 ' && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a)
      return {
        mimeType: 'image/webp',
        width: view.getUint16(26, true) & 0x3fff,
        height: view.getUint16(28, true) & 0x3fff,
      };
    if (chunk === 'VP8L' && bytes[20] === 0x2f) {
      const bits = view.getUint32(21, true);
      return {
        mimeType: 'image/webp',
        width: (bits & 0x3fff) + 1,
        height: ((bits >>> 14) & 0x3fff) + 1,
      };
    }
    if (chunk === 'VP8X') {
      const uint24 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
      return { mimeType: 'image/webp', width: uint24(24) + 1, height: uint24(27) + 1 };
    }
    return null;
  }
  // GIF: the logical screen's width and height (little-endian).
  if (n >= 10 && /^GIF8[79]a$/.test(ascii(bytes, 0, 6)))
    return {
      mimeType: 'image/gif',
      width: view.getUint16(6, true),
      height: view.getUint16(8, true),
    };
  // KTX2: identifier, vkFormat, typeSize, pixelWidth, pixelHeight (little-endian).
  if (n >= 28 && startsWith(bytes, KTX2_IDENTIFIER))
    return {
      mimeType: 'image/ktx2',
      width: view.getUint32(20, true),
      height: Math.max(1, view.getUint32(24, true)), // 0 for 1D textures
    };
  return null;
}
