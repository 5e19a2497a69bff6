import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { normaliseImage, UploadError } from './normalise-image.ts';
import {
  HEIC,
  PDF,
  SVG,
  TEXT,
  bytesOf,
  exifHasGps,
  photo,
  pngBombHeader,
  sidewaysJpegWithGps,
  solid,
} from '../../testing/images.ts';

async function refusal(input: Uint8Array, limits = {}): Promise<UploadError> {
  const err = await normaliseImage(input, limits).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(UploadError);
  return err as UploadError;
}

async function pixel(bytes: Uint8Array, x: number, y: number) {
  const { data, info } = await sharp(bytes)
    .extract({ left: x, top: y, width: 1, height: 1 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, info.channels)];
}

describe('normaliseImage: accepted images', () => {
  it('keeps a 512² RGBA PNG as a PNG with its alpha, without metadata', async () => {
    const out = await normaliseImage(photo('chair.png'));
    expect(out).toMatchObject({ ext: 'png', mime: 'image/png', width: 512, height: 512 });
    const meta = await sharp(out.bytes).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 512, height: 512, hasAlpha: true });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.icc).toBeUndefined();
  });

  it('keeps an 874² RGB PNG RGB and its size (never enlarged)', async () => {
    const out = await normaliseImage(photo('teapot.png'));
    expect(out).toMatchObject({ ext: 'png', width: 874, height: 874 });
    const meta = await sharp(out.bytes).metadata();
    expect(meta.hasAlpha).toBe(false);
    expect(meta.channels).toBe(3);
  });

  it('turns a sideways JPEG upright and strips its EXIF, GPS included', async () => {
    const input = await sidewaysJpegWithGps();
    const before = await sharp(input).metadata();
    expect(before).toMatchObject({ width: 300, height: 100, orientation: 6 });
    expect(before.exif && exifHasGps(before.exif)).toBe(true);

    const out = await normaliseImage(input);
    expect(out).toMatchObject({ ext: 'jpg', mime: 'image/jpeg', width: 100, height: 300 });
    const meta = await sharp(out.bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 100, height: 300 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    // The stored left (red) half is now the top; the right (blue) half the bottom.
    const [r1, , b1] = await pixel(out.bytes, 50, 10);
    const [r2, , b2] = await pixel(out.bytes, 50, 290);
    expect(r1).toBeGreaterThan(200);
    expect(b1).toBeLessThan(60);
    expect(b2).toBeGreaterThan(200);
    expect(r2).toBeLessThan(60);
  });

  it('drops XMP and ICC profiles (pixels converted to sRGB)', async () => {
    const input = await sharp({
      create: { width: 64, height: 48, channels: 3, background: '#3a7' },
    })
      .withIccProfile('p3')
      .withXmp(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>',
      )
      .jpeg()
      .toBuffer();
    const before = await sharp(input).metadata();
    expect(before.icc).toBeDefined();
    expect(before.xmp).toBeDefined();
    const meta = await sharp((await normaliseImage(new Uint8Array(input))).bytes).metadata();
    expect(meta.icc).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.exif).toBeUndefined();
  });

  it('scales a 3000×1000 image to 2048×683', async () => {
    const out = await normaliseImage(await solid(3000, 1000, 'jpeg'));
    expect(out).toMatchObject({ ext: 'jpg', width: 2048, height: 683 });
    expect(await sharp(out.bytes).metadata()).toMatchObject({ width: 2048, height: 683 });
  });

  it('scales by the long side when it is the height, and honours a smaller maxSide', async () => {
    const out = await normaliseImage(await solid(500, 4096, 'png'));
    expect(out).toMatchObject({ width: 250, height: 2048 });
    const small = await normaliseImage(photo('chair.png'), { maxSide: 128 });
    expect(small).toMatchObject({ width: 128, height: 128 });
  });

  it('re-encodes a WebP as WebP, alpha kept', async () => {
    const out = await normaliseImage(await solid(640, 480, 'webp', 4));
    expect(out).toMatchObject({ ext: 'webp', mime: 'image/webp', width: 640, height: 480 });
    const meta = await sharp(out.bytes).metadata();
    expect(meta).toMatchObject({ format: 'webp', hasAlpha: true });
  });

  it('goes by the content, not the name: a JPEG is stored as a JPEG', async () => {
    const jpeg = await solid(32, 32, 'jpeg');
    expect((await normaliseImage(jpeg)).ext).toBe('jpg');
  });

  it('is deterministic: the same input gives the same bytes', async () => {
    const a = await normaliseImage(photo('chair.png'));
    const b = await normaliseImage(photo('chair.png'));
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });
});

describe('normaliseImage: refusals', () => {
  it.each([
    ['an SVG drawing', SVG, /SVG drawing/],
    ['HEIC bytes', HEIC, /HEIC/],
    ['a PDF', PDF, /PDF document/],
    ['text named .png', TEXT, /plain text/],
    ['random bytes', new Uint8Array(256).map((_, i) => (i * 73 + 11) & 0xff), /not an image/],
  ])('refuses %s with 415 and says what it is', async (_label, bytes, what) => {
    const err = await refusal(bytes);
    expect(err.status).toBe(415);
    expect(err.code).toBe('unsupported_image_type');
    expect(err.message).toMatch(what);
    expect(err.message).toMatch(/; use a PNG, JPEG or WebP photo\./);
  });

  it('refuses GIF (415), saying what to do instead', async () => {
    const err = await refusal(await solid(16, 16, 'gif'));
    expect(err.status).toBe(415);
    expect(err.message).toBe(
      'This file is a GIF image; use a PNG, JPEG or WebP photo. Save the frame you want as a PNG.',
    );
  });

  it('names AVIF and TIFF made by sharp', async () => {
    expect((await refusal(await solid(16, 16, 'avif'))).message).toMatch(/AVIF/);
    expect((await refusal(await solid(16, 16, 'tiff'))).message).toMatch(/TIFF/);
  });

  it('refuses an empty file with 400', async () => {
    const err = await refusal(new Uint8Array());
    expect(err).toMatchObject({ status: 400, code: 'empty_file' });
    expect(err.message).toMatch(/^The file is empty/);
  });

  it('refuses a truncated PNG (the first half of chair.png) with 400', async () => {
    const chair = photo('chair.png');
    const err = await refusal(chair.subarray(0, chair.length >> 1));
    expect(err).toMatchObject({ status: 400, code: 'image_damaged' });
    expect(err.message).toMatch(/^The image is damaged or incomplete/);
  });

  it('refuses a truncated JPEG even when it is scaled down on load (4200 px → 2048)', async () => {
    const jpeg = await solid(4200, 1400, 'jpeg');
    const err = await refusal(jpeg.subarray(0, jpeg.length >> 1));
    expect(err).toMatchObject({ status: 400, code: 'image_damaged' });
  });

  it('refuses a PNG signature followed by garbage, and a header-only JPEG, with 400', async () => {
    const png = new Uint8Array([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      ...bytesOf('junk'),
    ]);
    expect((await refusal(png)).status).toBe(400);
    expect((await refusal(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).status).toBe(400);
  });

  it('refuses a file over the byte cap with 413', async () => {
    const err = await refusal(photo('chair.png'), { maxBytes: 100_000 });
    expect(err).toMatchObject({ status: 413, code: 'file_too_large' });
    expect(err.message).toBe(
      'The file is 115 kB; the limit is 100 kB per image, so pick a smaller image.',
    );
    const big = new Uint8Array(21_000_000);
    big.set(photo('chair.png'));
    expect((await refusal(big)).message).toBe(
      'The file is 21 MB; the limit is 20 MB per image, so pick a smaller image.',
    );
  });

  it('refuses a PNG whose header claims 30000×30000 quickly, without decoding it', async () => {
    const bomb = await pngBombHeader(30_000, 30_000);
    expect(bomb.length).toBeLessThan(200);
    const meta = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect([meta.width, meta.height]).toEqual([30_000, 30_000]);
    const started = performance.now();
    const err = await refusal(bomb);
    expect(performance.now() - started).toBeLessThan(500);
    expect(err).toMatchObject({ status: 413, code: 'image_too_large' });
    expect(err.message).toBe(
      'The image is 30000 × 30000 pixels (900 megapixels); the limit is 50 megapixels, so scale it down and retry.',
    );
  });

  it('counts pixels against maxPixels', async () => {
    const err = await refusal(photo('chair.png'), { maxPixels: 100_000 });
    expect(err).toMatchObject({ status: 413, code: 'image_too_large' });
    expect(err.message).toMatch(
      /512 × 512 pixels \(0\.3 megapixels\); the limit is 0\.1 megapixels/,
    );
  });
});
