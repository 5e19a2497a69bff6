import { describe, expect, it } from 'vitest';
import { uploadUrlStrategy, type UploadUrlInfo } from './url-strategy.ts';

const sha = 'ab'.repeat(32);
const info: UploadUrlInfo = {
  sha256: sha,
  ext: 'png',
  mime: 'image/png',
  bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
  origin: 'http://127.0.0.1:8080',
};

describe('uploadUrlStrategy', () => {
  it('uses PUBLIC_URL when set, in either mode, without doubling slashes', () => {
    for (const mode of ['mock', 'upstream'] as const) {
      expect(uploadUrlStrategy({ publicUrl: 'https://kiln.example.com', mode })(info)).toBe(
        `https://kiln.example.com/api/uploads/${sha}.png`,
      );
    }
    expect(uploadUrlStrategy({ publicUrl: 'https://x.test/kiln/', mode: 'upstream' })(info)).toBe(
      `https://x.test/kiln/api/uploads/${sha}.png`,
    );
  });

  it("points at the server's own origin in mock mode", () => {
    expect(uploadUrlStrategy({ mode: 'mock' })(info)).toBe(
      `http://127.0.0.1:8080/api/uploads/${sha}.png`,
    );
    expect(uploadUrlStrategy({ mode: 'mock', publicUrl: undefined })(info)).toBe(
      `http://127.0.0.1:8080/api/uploads/${sha}.png`,
    );
  });

  it('inlines the image as a data: URI for a real upstream without PUBLIC_URL', () => {
    const url = uploadUrlStrategy({ mode: 'upstream' })(info);
    expect(url).toBe(`data:image/png;base64,${Buffer.from(info.bytes).toString('base64')}`);
    const decoded = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
    expect([...decoded]).toEqual([...info.bytes]);
  });

  it('encodes only the view, not the whole buffer behind it', () => {
    const backing = new Uint8Array([9, 9, 1, 2, 3, 9]);
    const url = uploadUrlStrategy({ mode: 'upstream' })({
      ...info,
      mime: 'image/jpeg',
      bytes: backing.subarray(2, 5),
    });
    expect(url).toBe(`data:image/jpeg;base64,${Buffer.from([1, 2, 3]).toString('base64')}`);
  });
});
