import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PREVIEW_HEIGHT, PREVIEW_WIDTH, previewKey, renderPreview } from './preview.ts';

/** A browser-drawn picture of a model: 480 × 360, transparent but for an orange box. */
async function modelPicture(): Promise<Uint8Array> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360">' +
    '<rect x="180" y="90" width="120" height="200" rx="18" fill="#c2410c"/></svg>';
  return new Uint8Array(await sharp(Buffer.from(svg)).webp().toBuffer());
}

/** What a picture is, and whether every pixel is fully opaque. */
async function facts(bytes: Uint8Array) {
  const meta = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes)
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let opaque = true;
  for (let i = 3; i < data.length; i += info.channels) if (data[i] !== 255) opaque = false;
  return {
    format: meta.format,
    width: meta.width,
    height: meta.height,
    alpha: meta.hasAlpha,
    opaque,
  };
}

/** How many pixels of a colour near `rgb` the picture has. */
async function pixelsNear(bytes: Uint8Array, rgb: [number, number, number]): Promise<number> {
  const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const d =
      Math.abs(data[i]! - rgb[0]) +
      Math.abs(data[i + 1]! - rgb[1]) +
      Math.abs(data[i + 2]! - rgb[2]);
    if (d < 30) n += 1;
  }
  return n;
}

const EXPECTED = {
  format: 'jpeg',
  width: PREVIEW_WIDTH,
  height: PREVIEW_HEIGHT,
  alpha: false,
  opaque: true,
};

describe('the link preview picture', () => {
  it('is an opaque 1200 × 630 JPEG of the model on the stage with its name', async () => {
    const jpeg = await renderPreview({
      title: 'Grandma’s teapot',
      subtitle: '“a small green teapot”',
      picture: await modelPicture(),
    });
    expect(await facts(jpeg)).toEqual(EXPECTED);
    // The model's picture is in it, scaled up (the box is 120 × 200 at 480 × 360).
    expect(await pixelsNear(jpeg, [0xc2, 0x41, 0x0c])).toBeGreaterThan(120 * 200 * 1.5);
  });

  it('is a card with the name alone when no browser has drawn the model yet', async () => {
    const jpeg = await renderPreview({
      title: 'A 3D model from a photo, made with beta on 25 Nov 2026',
      subtitle: 'Turn it around in 3D in your browser',
      picture: null,
    });
    expect(await facts(jpeg)).toEqual(EXPECTED);
  });

  it('takes any name: markup, control characters, very long, right-to-left, CJK, emoji', async () => {
    const names = [
      '<svg onload="alert(1)"> & </span><b>bold</b> ]]> \'quoted\' "double"',
      'a\u0000b\u0007c\ud800d\u202ee',
      'Lorem ipsum dolor sit amet '.repeat(40),
      'x'.repeat(2000),
      'مزهرية حمراء صغيرة على الطاولة',
      '小さな赤い花瓶と青いティーポット',
      '🏺🫖👩🏽‍🔬'.repeat(30),
      '',
    ];
    for (const title of names) {
      const jpeg = await renderPreview({ title, subtitle: title, picture: await modelPicture() });
      expect(await facts(jpeg), title.slice(0, 20)).toEqual(EXPECTED);
    }
  });

  it('draws a picture it cannot read as no picture', async () => {
    const jpeg = await renderPreview({
      title: 'A vase',
      subtitle: '',
      picture: new TextEncoder().encode('not an image'),
    });
    expect(await facts(jpeg)).toEqual(EXPECTED);
  });

  it('is keyed by everything it depends on', () => {
    const base = { title: 'A vase', subtitle: 'From a prompt', pictureSha256: 'a'.repeat(64) };
    const key = previewKey(base);
    expect(key).toMatch(/^[a-f0-9]{64}$/);
    expect(previewKey({ ...base })).toBe(key);
    expect(previewKey({ ...base, title: 'A jug' })).not.toBe(key);
    expect(previewKey({ ...base, subtitle: 'From a photo' })).not.toBe(key);
    expect(previewKey({ ...base, pictureSha256: 'b'.repeat(64) })).not.toBe(key);
    expect(previewKey({ ...base, pictureSha256: null })).not.toBe(key);
  });
});
