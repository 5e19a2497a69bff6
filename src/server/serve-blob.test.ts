import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { pickEncoding, serveBlob } from './serve-blob.ts';
import { diskBlobStore } from './storage/blobs.ts';

const blobs = diskBlobStore(mkdtempSync(join(tmpdir(), 'kiln-serve-')));
let sha: string;
let big: string;
/** A GLB-sized run of numbers, as a mesh's buffers are: compresses well. */
const MESH = new Uint8Array(new Float32Array(20_000).map((_, i) => Math.round(i / 7) * 0.5).buffer);
const app = new Hono().get('/:sha', async (c) => {
  const served = await serveBlob(c, blobs, {
    kind: 'assets',
    sha256: c.req.param('sha'),
    ext: 'glb',
    contentType: c.req.query('type') ?? 'model/gltf-binary',
  });
  return served ?? c.text('none', 404);
});
beforeAll(async () => {
  sha = (await blobs.put('assets', new TextEncoder().encode('0123456789'), 'glb')).sha256;
  big = (await blobs.put('assets', MESH, 'glb')).sha256;
});
const get = (headers: Record<string, string> = {}) => app.request(`/${sha}`, { headers });

describe('serveBlob', () => {
  it('serves the whole blob, immutable, with its ETag', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('0123456789');
    expect(res.headers.get('etag')).toBe(`"${sha}"`);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('content-length')).toBe('10');
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it.each([
    ['bytes=2-5', '2345', 'bytes 2-5/10'],
    ['bytes=7-', '789', 'bytes 7-9/10'],
    ['bytes=-3', '789', 'bytes 7-9/10'],
    ['bytes=8-100', '89', 'bytes 8-9/10'],
  ])('answers %s with 206 and the part', async (range, body, contentRange) => {
    const res = await get({ range });
    expect(res.status).toBe(206);
    expect(await res.text()).toBe(body);
    expect(res.headers.get('content-range')).toBe(contentRange);
    expect(res.headers.get('content-length')).toBe(String(body.length));
  });

  it('answers 416 past the end, and ignores what is not one byte range', async () => {
    const past = await get({ range: 'bytes=10-12' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */10');
    expect((await get({ range: 'bytes=-0' })).status).toBe(416);
    for (const range of ['bytes=5-2', 'items=0-1', 'bytes=0-1,4-5'])
      expect((await get({ range })).status, range).toBe(200);
  });

  it('answers 304 to a matching If-None-Match, and If-Range with another tag gets it whole', async () => {
    expect((await get({ 'if-none-match': `"x", "${sha}"` })).status).toBe(304);
    expect((await get({ 'if-none-match': '"other"' })).status).toBe(200);
    expect((await get({ range: 'bytes=0-1', 'if-range': '"old"' })).status).toBe(200);
    expect((await get({ range: 'bytes=0-1', 'if-range': `"${sha}"` })).status).toBe(206);
  });

  it('says there is nothing for an unknown blob', async () => {
    expect((await app.request(`/${'0'.repeat(64)}`)).status).toBe(404);
  });

  it('compresses a GLB on the way out, brotli first, with its decoded size and a weak tag', async () => {
    for (const [accept, encoding] of [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip, deflate', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['*', 'br'],
    ] as const) {
      const res = await app.request(`/${big}`, { headers: { 'accept-encoding': accept } });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-encoding'), accept).toBe(encoding);
      expect(res.headers.get('vary'), accept).toBe('Accept-Encoding');
      expect(res.headers.get('etag'), accept).toBe(`W/"${big}"`);
      expect(res.headers.get('kiln-decoded-length'), accept).toBe(String(MESH.byteLength));
      expect(res.headers.get('content-length'), accept).toBeNull();
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.byteLength, accept).toBeLessThan(MESH.byteLength / 4);
      const decoded = encoding === 'br' ? brotliDecompressSync(body) : gunzipSync(body);
      expect(Buffer.compare(decoded, Buffer.from(MESH)), accept).toBe(0);
    }
    // The weak tag is the same bytes: a client holding it gets a 304.
    const again = await app.request(`/${big}`, {
      headers: { 'accept-encoding': 'br', 'if-none-match': `W/"${big}"` },
    });
    expect(again.status).toBe(304);
  });

  it('sends a GLB as it is stored to a client that takes no encoding, a range, or a small one', async () => {
    for (const accept of [undefined, 'identity', 'br;q=0, gzip;q=0', 'zstd']) {
      const res = await app.request(`/${big}`, {
        headers: accept === undefined ? {} : { 'accept-encoding': accept },
      });
      expect(res.headers.get('content-encoding'), accept).toBeNull();
      expect(res.headers.get('content-length'), accept).toBe(String(MESH.byteLength));
      expect(res.headers.get('vary'), accept).toBe('Accept-Encoding');
      expect(res.headers.get('etag'), accept).toBe(`"${big}"`);
    }
    const part = await app.request(`/${big}`, {
      headers: { 'accept-encoding': 'br', range: 'bytes=0-99' },
    });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-encoding')).toBeNull();
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    // Ten bytes: not worth it. Another type (a picture, already compressed): as it is.
    expect((await get({ 'accept-encoding': 'br' })).headers.get('content-encoding')).toBeNull();
    const picture = await app.request(`/${big}?type=image/webp`, {
      headers: { 'accept-encoding': 'br' },
    });
    expect(picture.headers.get('content-encoding')).toBeNull();
    expect(picture.headers.get('vary')).toBeNull();
  });
});

describe('pickEncoding', () => {
  it('takes brotli, then gzip, as the client weighs them', () => {
    expect(pickEncoding('gzip, deflate, br')).toBe('br');
    expect(pickEncoding('GZIP')).toBe('gzip');
    expect(pickEncoding('br;q=0.5, gzip;q=1')).toBe('br');
    expect(pickEncoding('br; q=0, gzip')).toBe('gzip');
    expect(pickEncoding('*;q=0')).toBeUndefined();
    expect(pickEncoding('deflate, identity')).toBeUndefined();
    expect(pickEncoding('')).toBeUndefined();
    expect(pickEncoding(undefined)).toBeUndefined();
  });
});
