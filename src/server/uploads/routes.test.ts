import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diskBlobStore, sha256Hex, type BlobStore } from '../storage/blobs.ts';
import { UploadResultSchema, type UploadResult } from '../../contract/index.ts';
import { onApiError } from '../../http/index.ts';
import { openSqliteStorage, type Storage } from '../storage/database.ts';
import { readPhoto } from '../../testing/fixtures.ts';
import { normaliseImage } from './normalise-image.ts';
import { safeFileName } from './read-upload.ts';
import { uploadRoutes, type UploadRoutesDeps } from './routes.ts';
import { uploadUrlStrategy, type UploadUrlInfo } from './url-strategy.ts';
import {
  HEIC,
  PDF,
  SVG,
  TEXT,
  photo,
  pngBombHeader,
  sidewaysJpegWithGps,
  solid,
} from '../../testing/images.ts';

let dir: string;
let blobs: BlobStore;
let storage: Storage;
let app: Hono;
const seen: UploadUrlInfo[] = [];

/** The upload routes as the server mounts them (its error handler included), with overrides. */
function uploadsApp(overrides: Partial<UploadRoutesDeps> = {}, log?: (m: string) => void): Hono {
  return new Hono().onError(onApiError(log ?? (() => {}))).route(
    '/api/uploads',
    uploadRoutes({
      blobs,
      index: storage.uploads,
      counters: storage.counters,
      now: Date.now,
      perMinute: 0,
      quotaBytes: 1024 ** 3,
      urlFor: uploadUrlStrategy({ mode: 'mock' }),
      ...overrides,
    }),
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kiln-uploads-'));
  blobs = diskBlobStore(dir);
  storage = await openSqliteStorage(':memory:');
  const mockUrl = uploadUrlStrategy({ mode: 'mock' });
  app = uploadsApp({
    urlFor: (info) => {
      seen.push(info);
      return mockUrl(info);
    },
  });
});
afterAll(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

const asBody = (bytes: Uint8Array) => bytes as Uint8Array<ArrayBuffer>;

function postFile(bytes: Uint8Array, name = 'photo.png', type = 'image/png', field = 'file') {
  const form = new FormData();
  form.append(field, new File([asBody(bytes)], name, { type }));
  return app.request('/api/uploads', { method: 'POST', body: form });
}

function postRaw(bytes: Uint8Array, type = 'application/octet-stream', headers = {}) {
  return app.request('/api/uploads', {
    method: 'POST',
    body: asBody(bytes),
    headers: { 'content-type': type, ...headers },
  });
}

async function created(res: Response): Promise<UploadResult> {
  expect(res.status).toBe(201);
  return UploadResultSchema.parse(await res.json());
}

async function refused(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as {
    error: { message: string; type: string; code: string; param: string };
  };
  expect(body.error).toMatchObject({ type: 'invalid_request_error', code, param: 'file' });
  expect(body.error.message).toMatch(/^[A-Z].+\.$/);
  return body.error.message;
}

describe('POST /api/uploads', () => {
  it('takes a multipart file, stores it and serves the same bytes back', async () => {
    const res = await postFile(photo('chair.png'), 'chair.png');
    const body = await created(res);
    expect(body).toMatchObject({ width: 512, height: 512 });
    expect(body.sha256).toMatch(/^[a-f0-9]{64}$/);
    expect(body.url).toBe(`http://localhost/api/uploads/${body.sha256}.png`);
    expect(res.headers.get('location')).toBe(`/api/uploads/${body.sha256}.png`);

    const stored = await blobs.get('uploads', body.sha256, 'png');
    expect(stored?.byteLength).toBe(body.bytes);
    expect(sha256Hex(stored!)).toBe(body.sha256);

    const got = await app.request(new URL(body.url).pathname);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('content-length')).toBe(String(body.bytes));
    expect(got.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    const served = new Uint8Array(await got.arrayBuffer());
    expect(Buffer.from(served).equals(Buffer.from(stored!))).toBe(true);
  });

  it('keeps the name a file came with, made safe, for the library and downloads', async () => {
    const a = await created(await postFile(photo('teapot.png'), '../../etc/My\u202eTeapot.png'));
    expect(await storage.uploads.names([a.sha256])).toEqual(new Map([[a.sha256, 'MyTeapot.png']]));
    // The same bytes under another name: the latest name wins; a raw body without a name keeps it.
    await created(await postFile(photo('teapot.png'), 'grey pot.png'));
    await created(await postRaw(photo('teapot.png'), 'image/png'));
    expect((await storage.uploads.names([a.sha256])).get(a.sha256)).toBe('grey pot.png');
  });

  it('gives the same sha256 for the same image, multipart or raw, twice', async () => {
    const a = await created(await postFile(photo('teapot.png'), 'teapot.png'));
    const b = await created(await postFile(photo('teapot.png'), 'copy of teapot.png'));
    const c = await created(await postRaw(photo('teapot.png'), 'image/png'));
    expect(b.sha256).toBe(a.sha256);
    expect(c.sha256).toBe(a.sha256);
    expect(c.url).toBe(a.url);
  });

  it('takes a raw JPEG body, turns it upright and serves it as image/jpeg without EXIF', async () => {
    const body = await created(await postRaw(await sidewaysJpegWithGps(), 'image/jpeg'));
    expect(body).toMatchObject({ width: 100, height: 300 });
    expect(body.url).toMatch(/\.jpg$/);
    const got = await app.request(new URL(body.url).pathname);
    expect(got.headers.get('content-type')).toBe('image/jpeg');
    const meta = await sharp(new Uint8Array(await got.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 100, height: 300 });
    expect(meta.exif).toBeUndefined();
  });

  it('takes a WebP sent as application/octet-stream', async () => {
    const body = await created(await postRaw(await solid(3000, 1000, 'webp')));
    expect(body).toMatchObject({ width: 2048, height: 683 });
    expect(body.url).toMatch(/\.webp$/);
    const got = await app.request(new URL(body.url).pathname);
    expect(got.headers.get('content-type')).toBe('image/webp');
  });

  it('goes by content: a JPEG in a field called image, named .png, is stored as .jpg', async () => {
    const res = await postFile(await solid(40, 30, 'jpeg'), 'lies.png', 'image/png', 'image');
    const body = await created(res);
    expect(body.url).toMatch(/\.jpg$/);
    expect(seen.at(-1)).toMatchObject({
      ext: 'jpg',
      mime: 'image/jpeg',
      origin: 'http://localhost',
    });
  });

  it('prefers the field named file over an earlier file field', async () => {
    const form = new FormData();
    form.append('note', 'a text field');
    form.append('thumbnail', new File([asBody(await solid(10, 10, 'png'))], 'thumb.png'));
    form.append('file', new File([asBody(await solid(64, 32, 'png'))], 'main.png'));
    const body = await created(await app.request('/api/uploads', { method: 'POST', body: form }));
    expect(body).toMatchObject({ width: 64, height: 32 });
  });

  it('hands urlFor the stored bytes and the request origin', async () => {
    const body = await created(await postFile(photo('chair.png')));
    const info = seen.at(-1)!;
    expect(info).toMatchObject({ sha256: body.sha256, ext: 'png', mime: 'image/png' });
    expect(info.origin).toBe('http://localhost');
    expect(info.bytes.byteLength).toBe(body.bytes);
  });

  it.each([
    ['SVG', SVG, 'drawing.svg', 'image/svg+xml', /^This file is an SVG drawing; use a PNG/],
    ['HEIC', HEIC, 'IMG_0001.HEIC', 'image/heic', /HEIC\/HEIF/],
    ['PDF', PDF, 'scan.pdf', 'application/pdf', /PDF document/],
    ['text named .png', TEXT, 'photo.png', 'image/png', /plain text/],
  ])('refuses %s with 415 and a sentence', async (_label, bytes, name, type, sentence) => {
    expect(await refused(await postFile(bytes, name, type), 415, 'unsupported_image_type')).toMatch(
      sentence,
    );
    expect(await refused(await postRaw(bytes, type), 415, 'unsupported_image_type')).toMatch(
      sentence,
    );
  });

  it('refuses GIF with 415', async () => {
    const message = await refused(
      await postFile(await solid(8, 8, 'gif'), 'a.gif', 'image/gif'),
      415,
      'unsupported_image_type',
    );
    expect(message).toMatch(/^This file is a GIF image; use a PNG, JPEG or WebP photo/);
  });

  it('refuses an empty body or file with 400', async () => {
    expect(await refused(await postRaw(new Uint8Array()), 400, 'empty_file')).toMatch(
      /^The file is empty/,
    );
    expect(
      await refused(await app.request('/api/uploads', { method: 'POST' }), 400, 'empty_file'),
    ).toMatch(/empty/);
    await refused(await postFile(new Uint8Array()), 400, 'empty_file');
  });

  it('refuses a truncated PNG with 400', async () => {
    const chair = photo('chair.png');
    const message = await refused(
      await postFile(chair.subarray(0, chair.length >> 1)),
      400,
      'image_damaged',
    );
    expect(message).toMatch(/^The image is damaged or incomplete/);
  });

  it('refuses a form without a file, and a malformed form, with 400', async () => {
    const form = new FormData();
    form.append('file', 'not a file, just text');
    expect(
      await refused(
        await app.request('/api/uploads', { method: 'POST', body: form }),
        400,
        'missing_file',
      ),
    ).toMatch(/form field "file"/);
    await refused(
      await postRaw(new TextEncoder().encode('--x\r\nbroken'), 'multipart/form-data; boundary=y'),
      400,
      'invalid_multipart',
    );
  });

  it('refuses a 21 MB streamed body with 413', async () => {
    const big = new Uint8Array(21 * 1024 * 1024);
    big.set(photo('chair.png'));
    const message = await refused(await postRaw(big, 'image/png'), 413, 'file_too_large');
    expect(message).toMatch(/20 MB/);
  });

  it('refuses at once when Content-Length is over the cap', async () => {
    const res = await postRaw(photo('chair.png'), 'image/png', {
      'content-length': String(200_000_000),
    });
    const message = await refused(res, 413, 'file_too_large');
    expect(message).toBe(
      'The file is 200 MB; the limit is 20 MB per image, so pick a smaller image.',
    );
  });

  it('refuses a 21 MB multipart file with 413', async () => {
    const big = new Uint8Array(21 * 1024 * 1024);
    big.set(photo('chair.png'));
    await refused(await postFile(big), 413, 'file_too_large');
  });

  it('takes a file just under the cap in a multipart envelope (the margin)', async () => {
    const small = uploadsApp({ maxBytes: 200_000 });
    const chair = photo('chair.png');
    const padded = new Uint8Array(199_000);
    padded.set(chair);
    // chair.png plus zero padding after IEND: still a valid PNG, 199 000 bytes.
    const form = new FormData();
    form.append('file', new File([asBody(padded)], 'chair.png'));
    expect((await small.request('/api/uploads', { method: 'POST', body: form })).status).toBe(201);
    const over = new FormData();
    over.append('file', new File([asBody(new Uint8Array(200_001))], 'big.png'));
    expect((await small.request('/api/uploads', { method: 'POST', body: over })).status).toBe(413);
  });

  it('refuses a decompression bomb with 413, quickly', async () => {
    const started = performance.now();
    const message = await refused(
      await postFile(await pngBombHeader(30_000, 30_000)),
      413,
      'image_too_large',
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(message).toMatch(/30000 × 30000 pixels/);
  });

  it('answers 500 JSON when storage fails (not the client’s fault)', async () => {
    const broken: BlobStore = {
      ...blobs,
      put: () => Promise.reject(new Error('disk full')),
    };
    const logged: string[] = [];
    const failing = uploadsApp({ blobs: broken }, (m) => logged.push(m));
    const res = await failing.request('/api/uploads', {
      method: 'POST',
      body: asBody(photo('chair.png')),
    });
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: { type: 'api_error' } });
    expect(logged.join()).toMatch(/disk full/);
  });
});

describe('GET /api/uploads/:name', () => {
  it.each([
    ['an unknown sha', `${'a'.repeat(64)}.png`],
    ['a malformed name', 'chair.png'],
    ['an upper-case sha', `${'A'.repeat(64)}.png`],
    ['another extension', `${'a'.repeat(64)}.gif`],
    ['a path trick', '..%2F..%2Fetc%2Fpasswd'],
  ])('answers 404 JSON for %s', async (_label, name) => {
    const res = await app.request(`/api/uploads/${name}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      error: { type: 'not_found', code: 'upload_not_found' },
    });
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const body = await created(await postFile(photo('chair.png')));
    const path = new URL(body.url).pathname;
    const first = await app.request(path);
    const etag = first.headers.get('etag');
    expect(etag).toBe(`"${body.sha256}"`);
    await first.body?.cancel();
    const again = await app.request(path, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('serves an upload only under its own extension', async () => {
    const body = await created(await postFile(photo('chair.png')));
    const res = await app.request(`/api/uploads/${body.sha256}.jpg`);
    expect(res.status).toBe(404);
  });
});

describe('uploads cannot fill the disk', () => {
  it('limits uploads per client address, behind a trusted proxy too (429 with Retry-After)', async () => {
    const limited = uploadsApp({ perMinute: 2, trustedProxies: 1 });
    const from = (ip: string) =>
      limited.request('/api/uploads', {
        method: 'POST',
        body: asBody(photo('chair.png')),
        headers: { 'x-forwarded-for': `6.6.6.6, ${ip}` },
      });
    expect((await from('10.0.0.1')).status).toBe(201);
    expect((await from('10.0.0.1')).status).toBe(201);
    const third = await from('10.0.0.1');
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await third.json()).toMatchObject({
      error: { type: 'rate_limit_error', code: 'rate_limited' },
    });
    // Another client is counted apart; the spoofed left-most entry is not believed.
    expect((await from('10.0.0.2')).status).toBe(201);
  });

  it('refuses an upload past the quota with 507, storing nothing', async () => {
    const quota = await openSqliteStorage(':memory:');
    const chairBytes = (await normaliseImage(photo('chair.png'))).bytes.byteLength;
    const full = uploadsApp({ index: quota.uploads, quotaBytes: chairBytes + 1000 });
    const first = await full.request('/api/uploads', {
      method: 'POST',
      body: asBody(photo('chair.png')),
    });
    expect(first.status).toBe(201);
    const second = await full.request('/api/uploads', {
      method: 'POST',
      body: asBody(photo('teapot.png')),
    });
    expect(second.status).toBe(507);
    expect(await second.json()).toMatchObject({
      error: { code: 'upload_quota_exceeded', param: 'file' },
    });
    expect(await quota.uploads.totalBytes()).toBe(
      UploadResultSchema.parse(await first.json()).bytes,
    );
    // Full, but the same image again is stored already: it needs no room and is taken.
    const again = await full.request('/api/uploads', {
      method: 'POST',
      body: asBody(photo('chair.png')),
    });
    expect(again.status).toBe(201);
    await quota.close();
  });

  it('never ends over the quota when uploads arrive at once', async () => {
    const quota = await openSqliteStorage(':memory:');
    const sizes = await Promise.all(
      ['chair.png', 'teapot.png', 'horse.png', 'robot.png'].map(async (n) => ({
        n,
        bytes: (await normaliseImage(readPhoto(n))).bytes.byteLength,
      })),
    );
    const limit = sizes[0]!.bytes + sizes[1]!.bytes + 10;
    const app = uploadsApp({ index: quota.uploads, quotaBytes: limit });
    const answers = await Promise.all(
      [...sizes, ...sizes].map(({ n }) =>
        app.request('/api/uploads', { method: 'POST', body: asBody(readPhoto(n)) }),
      ),
    );
    expect(answers.every((a) => a.status === 201 || a.status === 507)).toBe(true);
    expect(await quota.uploads.totalBytes()).toBeLessThanOrEqual(limit);
    await quota.close();
  });

  it('removes uploads no task names once past the retention period, and keeps the rest', async () => {
    const { createUploadSweeper } = await import('./retention.ts');
    const own = await openSqliteStorage(':memory:');
    let now = 1_900_000_000_000;
    const kept = uploadsApp({ index: own.uploads, now: () => now });
    const post = async (name: 'chair.png' | 'teapot.png') =>
      UploadResultSchema.parse(
        await (
          await kept.request('/api/uploads', { method: 'POST', body: asBody(photo(name)) })
        ).json(),
      );
    const used = await post('chair.png');
    const unused = await post('teapot.png');
    await own.uploads.markReferenced([used.sha256]);
    const sweeper = createUploadSweeper({
      index: own.uploads,
      blobs,
      retentionMs: 24 * 60 * 60_000,
      now: () => now,
      log: () => {},
    });
    expect(await sweeper.sweep()).toBe(0);
    now += 24 * 60 * 60_000 + 1;
    expect(await sweeper.sweep()).toBe(1);
    expect(await blobs.get('uploads', unused.sha256, 'png')).toBeUndefined();
    expect(await blobs.get('uploads', used.sha256, 'png')).toBeDefined();
    expect((await kept.request(`/api/uploads/${unused.sha256}.png`)).status).toBe(404);
    await own.close();
  });
});

describe('safeFileName', () => {
  it('keeps the last path segment, without control or bidi characters', () => {
    expect(safeFileName('C:\\Users\\me\\chair.png')).toBe('chair.png');
    expect(safeFileName('a\u0000b\u202ec.png')).toBe('abc.png');
    expect(safeFileName('x'.repeat(200) + '.png')).toHaveLength(118);
  });
  it('is null when nothing is left, or for a browser blob', () => {
    expect(safeFileName('')).toBeNull();
    expect(safeFileName(undefined)).toBeNull();
    expect(safeFileName('blob')).toBeNull();
    expect(safeFileName('/')).toBeNull();
  });
});

describe('POST /api/uploads/from-url', () => {
  const post = (a: Hono, body: unknown) =>
    a.request('/api/uploads/from-url', {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });

  it('fetches a pasted address once, stores it like an upload, named after the address', async () => {
    const asked: string[] = [];
    const a = uploadsApp({
      fetchImage: async (url) => {
        asked.push(url);
        return photo('chair.png');
      },
    });
    const res = await post(a, { url: 'https://images.example/shop/Red%20Chair.png?w=800' });
    const body = await created(res);
    expect(asked).toEqual(['https://images.example/shop/Red%20Chair.png?w=800']);
    expect(res.headers.get('location')).toBe(`/api/uploads/${body.sha256}.png`);
    expect((await storage.uploads.names([body.sha256])).get(body.sha256)).toBe('Red Chair.png');
    expect((await a.request(`/api/uploads/${body.sha256}.png`)).status).toBe(200);
  });

  it('refuses private and loopback addresses with the rule, without fetching them', async () => {
    // The real fetcher (the archive's policy): 127.0.0.1 is refused before any connection.
    const { safeFetch } = await import('../../net/index.ts');
    const a = uploadsApp({
      fetchImage: async (url, maxBytes) => (await safeFetch(url, { maxBytes })).bytes,
    });
    const res = await post(a, { url: 'http://127.0.0.1:9/unreachable.png' });
    expect(res.status).toBe(400);
    const { error } = (await res.json()) as {
      error: { code: string; param: string; message: string };
    };
    expect(error).toMatchObject({ code: 'image_download_failed', param: 'url' });
    expect(error.message).toContain('Kiln fetches images only from public http(s) addresses');
  });

  it('says why a fetched address is no image, and names the field', async () => {
    const a = uploadsApp({ fetchImage: async () => new TextEncoder().encode('<html>shop</html>') });
    const res = await post(a, { url: 'https://shop.example/item' });
    expect(res.status).toBe(415);
    expect(await res.json()).toMatchObject({
      error: { message: expect.stringMatching(/web page/) },
    });
  });

  it('refuses what is not an http(s) address, or not JSON', async () => {
    const a = uploadsApp({ fetchImage: async () => photo('chair.png') });
    for (const url of ['ftp://x/y.png', 'not a url', 42, 'javascript:alert(1)']) {
      const res = await post(a, { url });
      expect(res.status, String(url)).toBe(400);
      expect(await res.json()).toMatchObject({ error: { param: 'url' } });
    }
    expect((await post(a, 'nope')).status).toBe(400);
  });
});
