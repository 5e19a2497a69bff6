// One behaviour suite for both blob stores: files under DATA_DIR, and an S3-compatible bucket
// (s3rver on loopback).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../../testing/s3.ts';
import { diskBlobStore, sha256Hex, type BlobStore } from './blobs.ts';
import { s3BlobStore } from './s3-blobs.ts';

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

function blobSuite(name: string, open: () => BlobStore) {
  describe(`blobs on ${name}`, () => {
    it('stores by content, once, and reads back whole, in ranges, or not at all', async () => {
      const blobs = open();
      const bytes = new TextEncoder().encode('0123456789abcdef');
      const a = await blobs.put('assets', bytes, 'glb');
      const b = await blobs.put('assets', bytes, 'glb');
      expect(a).toEqual({ sha256: sha256Hex(bytes), bytes: 16 });
      expect(b).toEqual(a);
      expect(new TextDecoder().decode(await blobs.get('assets', a.sha256, 'glb'))).toBe(
        '0123456789abcdef',
      );
      const whole = await blobs.open('assets', a.sha256, 'glb');
      expect(whole?.bytes).toBe(16);
      expect(await text(whole!.stream)).toBe('0123456789abcdef');
      const part = await blobs.open('assets', a.sha256, 'glb', { start: 4, end: 7 });
      expect(part?.range).toEqual({ start: 4, end: 7 });
      expect(part?.bytes).toBe(16);
      expect(await text(part!.stream)).toBe('4567');
      const tail = await blobs.open('assets', a.sha256, 'glb', { start: 10, end: 10 ** 9 });
      expect(tail?.range).toEqual({ start: 10, end: 15 });
      expect(await text(tail!.stream)).toBe('abcdef');
      const past = await blobs.open('assets', a.sha256, 'glb', { start: 16, end: 20 });
      expect(past?.range).toBeUndefined();
      await past?.stream.cancel();
      // Another kind or extension is another blob.
      expect(await blobs.get('uploads', a.sha256, 'glb')).toBeUndefined();
      expect(await blobs.open('assets', a.sha256, 'png')).toBeUndefined();
      expect(await blobs.open('assets', 'not-a-sha', 'glb')).toBeUndefined();
      await blobs.delete('assets', a.sha256, 'glb');
      await blobs.delete('assets', a.sha256, 'glb');
      expect(await blobs.get('assets', a.sha256, 'glb')).toBeUndefined();
    });

    it('takes a body larger than one upload part', async () => {
      const blobs = open();
      const big = new Uint8Array(9 * 1024 * 1024).map((_, i) => (i * 31) & 0xff);
      const { sha256 } = await blobs.put('assets', big, 'glb');
      const back = await blobs.get('assets', sha256, 'glb');
      expect(back?.byteLength).toBe(big.byteLength);
      expect(sha256Hex(back!)).toBe(sha256);
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'kiln-blobs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
blobSuite('disk', () => diskBlobStore(dir));

let s3: TestS3;
beforeAll(async () => {
  s3 = await startS3();
});
afterAll(() => s3?.stop());
blobSuite('S3 (s3rver)', () =>
  s3BlobStore({
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
  }),
);
