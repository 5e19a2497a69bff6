import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { imageSize } from './image-size.ts';

async function image(
  format: 'png' | 'jpeg' | 'webp' | 'gif',
  width: number,
  height: number,
  lossless = false,
) {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 4, background: '#ff000080' } })
      .toFormat(format, format === 'webp' ? { lossless } : {})
      .toBuffer(),
  );
}

describe('imageSize', () => {
  it.each([
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['webp', 'image/webp'],
    ['gif', 'image/gif'],
  ] as const)('reads a %s header', async (format, mimeType) => {
    expect(imageSize(await image(format, 37, 21))).toEqual({ mimeType, width: 37, height: 21 });
  });

  it('reads lossless WebP (VP8L) and extended WebP (VP8X)', async () => {
    expect(imageSize(await image('webp', 300, 7, true))).toEqual({
      mimeType: 'image/webp',
      width: 300,
      height: 7,
    });
    const withExif = new Uint8Array(
      await sharp({ create: { width: 9, height: 5, channels: 4, background: '#fff' } })
        .withMetadata({ exif: { IFD0: { Copyright: 'k' } } })
        .webp()
        .toBuffer(),
    );
    expect(imageSize(withExif)).toEqual({ mimeType: 'image/webp', width: 9, height: 5 });
  });

  it('reads a KTX2 header', () => {
    const bytes = new Uint8Array(48);
    bytes.set([0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a]);
    const view = new DataView(bytes.buffer);
    view.setUint32(20, 512, true);
    view.setUint32(24, 256, true);
    expect(imageSize(bytes)).toEqual({ mimeType: 'image/ktx2', width: 512, height: 256 });
  });

  it('answers null for what it cannot tell', async () => {
    const png = await image('png', 4, 4);
    expect(imageSize(png.subarray(0, 20))).toBeNull();
    expect(imageSize(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
    expect(imageSize(new TextEncoder().encode('not an image at all, really not'))).toBeNull();
  });
});
