import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readPhoto } from '../testing/fixtures.ts';
import { imageKind, KIND_DESCRIPTIONS, unusableImageSentence } from './image-kind.ts';

const bytesOf = (text: string) => new TextEncoder().encode(text);
const solid = async (format: 'png' | 'jpeg' | 'webp' | 'gif' | 'tiff') =>
  new Uint8Array(
    await sharp({ create: { width: 4, height: 4, channels: 3, background: '#808080' } })
      .toFormat(format)
      .toBuffer(),
  );

describe('imageKind', () => {
  it('recognises the images Kiln reads by their first bytes', async () => {
    expect(imageKind(readPhoto('chair.png'))).toBe('png');
    for (const format of ['png', 'jpeg', 'webp', 'gif', 'tiff'] as const)
      expect(imageKind(await solid(format))).toBe(format);
  });

  it.each([
    ['svg without an XML prolog', bytesOf('  <svg viewBox="0 0 1 1"></svg>'), 'svg'],
    ['svg with a prolog', bytesOf('<?xml version="1.0"?>\n<svg xmlns="x"></svg>'), 'svg'],
    ['html', bytesOf('<!DOCTYPE html><html><body>hi</body></html>'), 'html'],
    ['a data: URI saved as text', bytesOf('data:image/png;base64,iVBORw0KGgo='), 'data_uri'],
    ['json', bytesOf('{"image_url": "x"}'), 'json'],
    ['plain text', bytesOf('just words'), 'text'],
    ['pdf', bytesOf('%PDF-1.7\n'), 'pdf'],
    [
      'heic',
      new Uint8Array([0, 0, 0, 0x18, ...bytesOf('ftypheic'), 0, 0, 0, 0, ...bytesOf('mif1heic')]),
      'heic',
    ],
    [
      'avif brands',
      new Uint8Array([
        0,
        0,
        0,
        0x1c,
        ...bytesOf('ftypmif1'),
        0,
        0,
        0,
        0,
        ...bytesOf('mif1avifmiaf'),
      ]),
      'avif',
    ],
    [
      'mp4',
      new Uint8Array([0, 0, 0, 0x18, ...bytesOf('ftypisom'), 0, 0, 2, 0, ...bytesOf('isomiso2')]),
      'video',
    ],
    ['zip', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]), 'zip'],
    ['gzip', new Uint8Array([0x1f, 0x8b, 8, 0]), 'gzip'],
    ['glb', bytesOf('glTF\u0002\u0000\u0000\u0000'), 'glb'],
    [
      'ktx2',
      new Uint8Array([0xab, 0x4b, 0x54, 0x58, 0x20, 0x32, 0x30, 0xbb, 0x0d, 0x0a, 0x1a, 0x0a]),
      'ktx2',
    ],
    ['a lone byte', new Uint8Array([0xff]), 'unknown'],
    ['nothing', new Uint8Array(), 'unknown'],
    ['binary noise', new Uint8Array([0, 1, 2, 3, 250, 251, 0, 0]), 'unknown'],
  ])('names %s', (_label, bytes, kind) => {
    expect(imageKind(bytes)).toBe(kind);
  });

  it('describes every kind', () => {
    for (const description of Object.values(KIND_DESCRIPTIONS))
      expect(description).toMatch(/^(a|an|not|plain) /);
  });
});

describe('unusableImageSentence', () => {
  it('says what the file is, what works, and how to get there', () => {
    expect(unusableImageSentence('heic')).toBe(
      'This file is a HEIC/HEIF photo (the iPhone format); use a PNG, JPEG or WebP image. Export it as JPEG or PNG (on iPhone: Settings → Camera → Formats → Most Compatible).',
    );
    expect(unusableImageSentence('zip', { subject: '“models.zip”' })).toBe(
      '“models.zip” is a ZIP archive; use a PNG, JPEG or WebP image.',
    );
    expect(unusableImageSentence('gif', { accepted: 'a PNG or JPEG photo' })).toMatch(
      /^This file is a GIF image; use a PNG or JPEG photo\. Save the frame/,
    );
  });
});
