import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import { serveBlob } from './serve-blob.ts';
import { diskBlobStore } from './storage/blobs.ts';

const blobs = diskBlobStore(mkdtempSync(join(tmpdir(), 'kiln-serve-')));
let sha: string;
const app = new Hono().get('/:sha', async (c) => {
  const served = await serveBlob(c, blobs, {
    kind: 'assets',
    sha256: c.req.param('sha'),
    ext: 'glb',
    contentType: 'model/gltf-binary',
  });
  return served ?? c.text('none', 404);
});
beforeAll(async () => {
  sha = (await blobs.put('assets', new TextEncoder().encode('0123456789'), 'glb')).sha256;
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
});
