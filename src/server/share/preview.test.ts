import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PREVIEW_HEIGHT, PREVIEW_WIDTH, previewKey, renderPreview } from './preview.ts';

/** A browser-drawn picture of a model: 480 × 360, transparent but for an orange box. */
async function modelPicture(fill = '#c2410c'): Promise<Uint8Array> {
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="480" height="360">' +
    `<rect x="180" y="90" width="120" height="200" rx="18" fill="${fill}"/></svg>`;
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

  it("shows a collection's first three pictures side by side, and the words beside them", async () => {
    const colours: [number, number, number][] = [
      [0xc2, 0x41, 0x0c],
      [0x25, 0x63, 0xeb],
      [0x16, 0xa3, 0x4a],
      [0x93, 0x33, 0xea],
    ];
    const hex = (c: [number, number, number]) =>
      `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
    const row = await Promise.all(colours.map((c) => modelPicture(hex(c))));
    const jpeg = await renderPreview({
      title: 'Shelf one: chairs & lamps',
      subtitle: 'A collection of 4 3D models, made with Kiln',
      picture: null,
      row,
    });
    expect(await facts(jpeg)).toEqual(EXPECTED);
    // Each of the first three is there (a 120 × 200 box scaled into a slot a third as wide),
    // the fourth is not.
    for (const c of colours.slice(0, 3)) expect(await pixelsNear(jpeg, c)).toBeGreaterThan(10_000);
    expect(await pixelsNear(jpeg, colours[3]!)).toBe(0);

    // One that cannot be read is left out; the others are still drawn.
    const two = await renderPreview({
      title: 'Two',
      subtitle: '',
      picture: null,
      row: [row[0]!, new TextEncoder().encode('not an image'), row[1]!],
    });
    expect(await facts(two)).toEqual(EXPECTED);
    for (const c of colours.slice(0, 2)) expect(await pixelsNear(two, c)).toBeGreaterThan(10_000);
    // None at all: the name alone, like a model no browser has drawn.
    expect(
      await facts(await renderPreview({ title: 'Empty', subtitle: '', picture: null, row: [] })),
    ).toEqual(EXPECTED);
    // One: laid out as a model's card (the same picture, the same place).
    const one = await renderPreview({
      title: 'A vase',
      subtitle: 'x',
      picture: null,
      row: [row[0]!],
    });
    const model = await renderPreview({ title: 'A vase', subtitle: 'x', picture: row[0]! });
    expect(one).toEqual(model);
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
    // A model's key is what it was before collections had previews: stored ones stay valid.
    expect(key).toBe(
      createHash('sha256')
        .update(JSON.stringify([1, base.pictureSha256, base.title, base.subtitle]))
        .digest('hex'),
    );
    // A collection's: its pictures, in order, count too.
    const row = { ...base, pictureSha256: null, rowSha256s: ['a'.repeat(64), 'b'.repeat(64)] };
    const rowKey = previewKey(row);
    expect(rowKey).not.toBe(previewKey({ ...base, pictureSha256: null }));
    expect(previewKey({ ...row, rowSha256s: ['b'.repeat(64), 'a'.repeat(64)] })).not.toBe(rowKey);
    expect(previewKey({ ...row, rowSha256s: ['a'.repeat(64)] })).not.toBe(rowKey);
    expect(previewKey({ ...row, rowSha256s: [] })).not.toBe(
      previewKey({ ...base, pictureSha256: null }),
    );
  });
});
