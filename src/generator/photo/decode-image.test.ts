import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { decodeImage, GeneratorInputError } from '../index.ts';
import { photo } from '../../testing/generator.ts';

const text = (s: string): Uint8Array => new TextEncoder().encode(s);

/** CRC-32 (PNG chunk checksum). */
function crc32(bytes: Uint8Array): number {
  let crc = ~0;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(text(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A PNG whose header claims `width` × `height` pixels (its pixel data is never reached). */
function pngHeaderOnly(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', new Uint8Array([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    pngChunk('IEND', new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

async function expectInputError(bytes: Uint8Array, pattern: RegExp): Promise<GeneratorInputError> {
  const error: unknown = await decodeImage(bytes).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GeneratorInputError);
  const inputError = error as GeneratorInputError;
  expect(inputError.name).toBe('GeneratorInputError');
  expect(inputError.message).toMatch(
    /^The image (could not be decoded: .+|is .+; use a PNG, JPEG or WebP image\..*)$/,
  );
  expect(inputError.message).toMatch(pattern);
  return inputError;
}

describe('decodeImage', () => {
  it('reads the fixture photos (RGBA and RGB PNG)', async () => {
    expect(await decodeImage(await photo('chair.png'))).toEqual({
      width: 512,
      height: 512,
      format: 'png',
    });
    expect(await decodeImage(await photo('teapot.png'))).toEqual({
      width: 874,
      height: 874,
      format: 'png',
    });
  });

  it('recognises JPEG, WebP and GIF by content', async () => {
    const chair = await photo('chair.png');
    const small = sharp(chair).resize(64, 48, { fit: 'fill' });
    const jpeg = new Uint8Array(await small.clone().jpeg().toBuffer());
    const webp = new Uint8Array(await small.clone().webp().toBuffer());
    const gif = new Uint8Array(await small.clone().gif().toBuffer());
    expect(await decodeImage(jpeg)).toEqual({ width: 64, height: 48, format: 'jpeg' });
    expect(await decodeImage(webp)).toEqual({ width: 64, height: 48, format: 'webp' });
    expect(await decodeImage(gif)).toEqual({ width: 64, height: 48, format: 'gif' });
  });

  it('reports the displayed size of an EXIF-rotated JPEG', async () => {
    const jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#c33' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await decodeImage(new Uint8Array(jpeg))).toEqual({
      width: 20,
      height: 40,
      format: 'jpeg',
    });
  });

  it('rejects empty input', async () => {
    await expectInputError(new Uint8Array(), /empty/);
  });

  it('rejects text, SVG, HTML and PDF', async () => {
    await expectInputError(text('just some words, not a picture\n'), /text/);
    await expectInputError(
      text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'),
      /SVG/,
    );
    await expectInputError(text('<svg viewBox="0 0 1 1"></svg>'), /SVG/);
    await expectInputError(text('<!DOCTYPE html><html><body>404</body></html>'), /HTML/);
    await expectInputError(text('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n'), /PDF/);
  });

  it('rejects HEIC and other unsupported images', async () => {
    const heic = new Uint8Array(32);
    heic.set([0, 0, 0, 24], 0);
    heic.set(text('ftypheic'), 4);
    await expectInputError(heic, /HEIC/);
    const tiff = new Uint8Array([0x49, 0x49, 0x2a, 0x00, 8, 0, 0, 0, 0, 0]);
    await expectInputError(tiff, /TIFF/);
    const noise = Uint8Array.from({ length: 256 }, (_, i) => (i * 151 + 7) % 256);
    await expectInputError(noise, /not an image Kiln recognises; use a PNG, JPEG or WebP image/);
  });

  it('rejects truncated and corrupt images', async () => {
    const chair = await photo('chair.png');
    await expectInputError(
      chair.subarray(0, chair.length >> 1),
      /PNG data is truncated or corrupt/,
    );
    await expectInputError(chair.subarray(0, 40), /PNG/);
    const jpeg = new Uint8Array(await sharp(chair).jpeg().toBuffer());
    await expectInputError(jpeg.subarray(0, jpeg.length >> 1), /JPEG data is truncated/);
    const corrupt = new Uint8Array(chair);
    corrupt.fill(0x5a, 200, 4000);
    await expectInputError(corrupt, /PNG data is truncated or corrupt/);
  });

  it('refuses images over 50 megapixels before decoding them', async () => {
    const error = await expectInputError(pngHeaderOnly(8000, 8000), /64\.0 megapixels/);
    expect(error.message).toContain('50-megapixel limit');
    // Just under the limit, the header passes and the (missing) pixel data is what fails.
    await expectInputError(pngHeaderOnly(7000, 7000), /truncated or corrupt/);
  });
});
