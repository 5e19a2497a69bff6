import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { LibraryEntrySchema, LibraryPageSchema } from '../../contract/index.ts';
import { solid } from '../../testing/images.ts';
import { photoDataUri } from '../../testing/mock.ts';
import { finishedTask, startTestServer, type TestServer } from '../../testing/server.ts';
import { THUMBNAIL_MAX_BYTES } from './thumbnail.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const asBody = (bytes: Uint8Array) => bytes as Uint8Array<ArrayBuffer>;

/** An `alpha` task of the photo at `imageUrl`, ended (and, done, archived). */
const finished = (s: TestServer, imageUrl: string) =>
  finishedTask(s, { model: 'alpha', image_url: imageUrl });

const put = (s: TestServer, id: string, body: Uint8Array, key?: string | null) =>
  s.request(`/api/library/${id}/thumbnail`, {
    method: 'PUT',
    body: asBody(body),
    headers: { 'content-type': 'image/webp' },
    ...(key !== undefined ? { key } : {}),
  });

describe('PUT /api/library/{id}/thumbnail', () => {
  it('keeps the first picture of an archived model as WebP, served forever and listed', async () => {
    server = await startTestServer();
    const id = await finished(server, photoDataUri('chair.png'));
    const before = LibraryEntrySchema.parse(
      await (await server.request(`/api/library/${id}`)).json(),
    );
    expect(before.thumbnail_url).toBeNull();

    // What a browser sends: a PNG drawn from the viewer, larger than what is kept.
    const res = await put(server, id, await solid(800, 600, 'png'));
    expect(res.status).toBe(200);
    const entry = LibraryEntrySchema.parse(await res.json());
    expect(entry.thumbnail_url).toMatch(
      /^\/api\/assets\/[a-f0-9]{64}\.webp\?exp=\d+&sig=[\w-]{43}$/,
    );

    const image = await server.request(entry.thumbnail_url!, { key: null });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/webp');
    expect(image.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    // The bare hash opens nothing; the owner's key does.
    const bare = entry.thumbnail_url!.split('?')[0]!;
    expect((await server.request(bare, { key: null })).status).toBe(404);
    expect((await server.request(bare)).status).toBe(200);
    expect((await server.request(bare, { key: 'tr_someone_else' })).status).toBe(404);
    const meta = await sharp(new Uint8Array(await image.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 480, height: 360 });

    const page = LibraryPageSchema.parse(await (await server.request('/api/library')).json());
    expect(page.data[0]?.thumbnail_url).toBe(entry.thumbnail_url);

    // A second browser's picture changes nothing: the first stays.
    const again = await put(server, id, await solid(300, 300, 'webp'));
    expect(again.status).toBe(200);
    expect(LibraryEntrySchema.parse(await again.json()).thumbnail_url).toBe(entry.thumbnail_url);
  });

  it('is for the owner of an archived model only', async () => {
    server = await startTestServer();
    const picture = await solid(64, 48, 'png');
    expect((await put(server, 'task_nope', picture)).status).toBe(404);

    const id = await finished(server, photoDataUri('chair.png'));
    expect((await put(server, id, picture, null)).status).toBe(401);
    const other = await put(server, id, picture, 'tr_other_key');
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { code: 'task_not_found', param: 'id' } });

    // A failed task has no model, so no picture of one.
    const failed = await finished(server, 'http://127.0.0.1:9/missing.png');
    const early = await put(server, failed, picture);
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ error: { code: 'task_not_archived', param: 'id' } });
  });

  it('refuses what is not a picture, naming why, and keeps nothing', async () => {
    server = await startTestServer();
    const id = await finished(server, photoDataUri('chair.png'));
    const cases: [Uint8Array, number, string][] = [
      [new Uint8Array(0), 400, 'empty_file'],
      [
        new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        415,
        'unsupported_image_type',
      ],
      [new Uint8Array(THUMBNAIL_MAX_BYTES + 1), 413, 'file_too_large'],
      [(await solid(64, 48, 'png')).slice(0, 60), 400, 'image_damaged'],
    ];
    for (const [body, status, code] of cases) {
      const res = await put(server, id, body);
      expect(res.status, code).toBe(status);
      expect(await res.json()).toMatchObject({ error: { code } });
    }
    const entry = LibraryEntrySchema.parse(
      await (await server.request(`/api/library/${id}`)).json(),
    );
    expect(entry.thumbnail_url).toBeNull();
  });
});
