import { describe, expect, it } from 'vitest';
import { readPhoto } from '../../testing/fixtures.ts';
import { IMAGE_MAX_BYTES } from '../../formats/index.ts';
import { checkImageFile } from './file-check.ts';

const file = (bytes: Uint8Array | string, name: string) => new File([bytes as BlobPart], name);

describe('checkImageFile', () => {
  it('accepts PNG, JPEG and WebP by content, whatever the name', async () => {
    expect(await checkImageFile(file(readPhoto('chair.png'), 'chair.png'))).toBeNull();
    expect(
      await checkImageFile(file(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]), 'photo.txt')),
    ).toBeNull();
    expect(await checkImageFile(file('RIFF\0\0\0\0WEBPVP8 ', 'x.bin'))).toBeNull();
  });

  it('says the same sentence as the server does for the same file', async () => {
    expect(await checkImageFile(file('\0\0\0\x18ftypheic\0\0\0\0', 'IMG_0001.HEIC'))).toBe(
      '“IMG_0001.HEIC” is a HEIC/HEIF photo (the iPhone format); use a PNG, JPEG or WebP photo. Export it as JPEG or PNG (on iPhone: Settings → Camera → Formats → Most Compatible).',
    );
  });

  it.each([
    ['', 'empty.png', /is empty/],
    ['these are notes', 'notes.png', /“notes\.png” is plain text; use a PNG, JPEG or WebP photo/],
    ['\0\0\0\x18ftypheic\0\0\0\0', 'IMG_0001.HEIC', /HEIC\/HEIF photo/],
    ['<svg xmlns="http://www.w3.org/2000/svg"></svg>', 'logo.svg', /SVG drawing/],
    ['%PDF-1.7\n', 'scan.pdf', /is a PDF/],
    ['GIF89a', 'anim.gif', /is a GIF/],
  ])('refuses %j (%s) with a sentence', async (content, name, message) => {
    expect(await checkImageFile(file(content, name))).toMatch(message);
  });

  it('refuses files over the size limit before reading them', async () => {
    const big = new File([new Uint8Array(IMAGE_MAX_BYTES + 1)], 'huge.png');
    expect(await checkImageFile(big)).toMatch(/is 20 MB; the limit is 20 MB\./);
  });
});
