import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { CollectionSchema, ShareSchema } from '../../contract/index.ts';
import { finishedTask, serverPerTest, type TestServer } from '../../testing/server.ts';
import type * as previewModule from '../share/preview.ts';
import { renderPreview } from '../share/preview.ts';

// Every render counted: the routes import this module, so they call the spy.
vi.mock('../share/preview.ts', async (original) => {
  const real = await original<typeof previewModule>();
  return { ...real, renderPreview: vi.fn(real.renderPreview) };
});
const renders = vi.mocked(renderPreview);

const startServer = serverPerTest();

const json = (method: string, body: unknown) => ({
  method,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

/** A shared collection of finished models, named `name`: its id, its link and its models. */
async function sharedCollection(server: TestServer, prompts: string[], name = 'Shelf') {
  const tasks: string[] = [];
  for (const prompt of prompts)
    tasks.push(await finishedTask(server, { model: 'beta-text', prompt }));
  const made = await server.request('/api/collections', json('POST', { name }));
  const col = CollectionSchema.parse(await made.json());
  const added = await server.request(
    `/api/collections/${col.id}/models`,
    json('POST', { add: tasks }),
  );
  expect(added.status).toBe(200);
  const shared = await server.request(`/api/collections/${col.id}/share`, { method: 'POST' });
  return { id: col.id, tasks, link: ShareSchema.parse(await shared.json()) };
}

const getPreview = (server: TestServer, token: string, headers: Record<string, string> = {}) =>
  server.request(`/api/collection-shares/${token}/preview.jpg`, { key: null, headers });

const bytesOf = async (res: Response) => {
  expect(
    res.status,
    await res
      .clone()
      .text()
      .catch(() => ''),
  ).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
};

/** A browser draws a model: its kept picture, a solid colour. */
const draw = async (server: TestServer, id: string, colour: string) => {
  const res = await server.request(`/api/library/${id}/thumbnail`, {
    method: 'PUT',
    body: await sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
      .png()
      .toBuffer(),
    headers: { 'content-type': 'image/png' },
  });
  expect(res.status).toBe(200);
};

describe("a shared collection's link preview picture", () => {
  it('is an opaque 1200 × 630 JPEG made once, made anew when the collection changes, 404 when revoked', async () => {
    const server = await startServer();
    const { id, tasks, link } = await sharedCollection(server, ['a red vase', 'a blue mug']);
    renders.mockClear();

    const first = await getPreview(server, link.token);
    expect(first.headers.get('content-type')).toBe('image/jpeg');
    expect(first.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const bytes = await bytesOf(first);
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha, meta.channels]).toEqual([
      'jpeg',
      1200,
      630,
      false,
      3,
    ]);
    expect(renders).toHaveBeenCalledTimes(1);
    expect(renders.mock.calls[0]![0]).toMatchObject({
      title: 'Shelf',
      subtitle: 'A collection of 2 3D models, made with Kiln',
      row: [],
    });

    // Again: the same bytes from the blob store, not drawn again; revalidated with a 304.
    const second = await getPreview(server, link.token);
    expect(await bytesOf(second.clone())).toEqual(bytes);
    expect(renders).toHaveBeenCalledTimes(1);
    const etag = second.headers.get('etag')!;
    expect((await getPreview(server, link.token, { 'if-none-match': etag })).status).toBe(304);
    expect(renders).toHaveBeenCalledTimes(1);

    // Browsers draw both models: their pictures, newest first, side by side.
    await draw(server, tasks[0]!, '#c2410c');
    await draw(server, tasks[1]!, '#2563eb');
    const drawn = await bytesOf(await getPreview(server, link.token));
    expect(drawn).not.toEqual(bytes);
    expect(renders).toHaveBeenCalledTimes(2);
    expect(renders.mock.calls[1]![0].row).toHaveLength(2);
    expect(renders.mock.calls[1]![0].row!.every((p) => p instanceof Uint8Array)).toBe(true);

    // Renamed: a new picture with the new name.
    expect(
      (await server.request(`/api/collections/${id}`, json('PATCH', { name: 'Kitchen' }))).status,
    ).toBe(200);
    const renamed = await bytesOf(await getPreview(server, link.token));
    expect(renamed).not.toEqual(drawn);
    expect(renders).toHaveBeenCalledTimes(3);
    expect(renders.mock.calls[2]![0].title).toBe('Kitchen');
    await getPreview(server, link.token);
    expect(renders).toHaveBeenCalledTimes(3);

    // A member added: a new count and a new first picture.
    const third = await finishedTask(server, { model: 'beta-text', prompt: 'a green lamp' });
    await server.request(`/api/collections/${id}/models`, json('POST', { add: [third] }));
    await bytesOf(await getPreview(server, link.token));
    expect(renders).toHaveBeenCalledTimes(4);
    expect(renders.mock.calls[3]![0].subtitle).toBe('A collection of 3 3D models, made with Kiln');
    // A member removed: made anew again; one left says so.
    await server.request(
      `/api/collections/${id}/models`,
      json('POST', { remove: [third, tasks[0]!] }),
    );
    await bytesOf(await getPreview(server, link.token));
    expect(renders).toHaveBeenCalledTimes(5);
    expect(renders.mock.calls[4]![0]).toMatchObject({
      subtitle: 'A collection of one 3D model, made with Kiln',
    });
    expect(renders.mock.calls[4]![0].row).toHaveLength(1);
    // A member hidden in the gallery leaves the page, and the picture.
    expect((await server.request(`/api/library/${tasks[1]}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    await bytesOf(await getPreview(server, link.token));
    expect(renders).toHaveBeenCalledTimes(6);
    expect(renders.mock.calls[5]![0]).toMatchObject({
      subtitle: 'A collection of 3D models, made with Kiln (empty for now)',
      row: [],
    });

    // Its stored file lost: made again rather than a 404.
    const thumbnails = join(server.dataDir, 'blobs');
    for (const file of readdirSync(thumbnails, { recursive: true, encoding: 'utf8' }))
      if (file.endsWith('.jpg')) rmSync(join(thumbnails, file));
    await bytesOf(await getPreview(server, link.token));
    expect(renders).toHaveBeenCalledTimes(7);

    // Revoked: 404 like the page's other addresses; unknown and malformed tokens too.
    expect(
      (await server.request(`/api/collections/${id}/share`, { method: 'DELETE' })).status,
    ).toBe(204);
    for (const token of [link.token, 'A'.repeat(24), 'nope']) {
      const res = await getPreview(server, token);
      expect(res.status, token).toBe(404);
      expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect(await res.json()).toMatchObject({ error: { code: 'share_not_found' } });
    }
    expect(renders).toHaveBeenCalledTimes(7);
  });

  it('is made once for requests that arrive together', async () => {
    const server = await startServer();
    const { tasks, link } = await sharedCollection(server, ['a red vase']);
    await draw(server, tasks[0]!, '#16a34a');
    renders.mockClear();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => getPreview(server, link.token)),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(renders).toHaveBeenCalledTimes(1);
    const all = await Promise.all(answers.map((r) => r.arrayBuffer()));
    for (const b of all) expect(new Uint8Array(b)).toEqual(new Uint8Array(all[0]!));
  });

  it('names a collection with markup in its name safely', async () => {
    const server = await startServer();
    const { link } = await sharedCollection(server, ['a mug'], '<b>Shelf</b> & "co" ]]>');
    renders.mockClear();
    await bytesOf(await getPreview(server, link.token));
    expect(renders.mock.calls[0]![0].title).toBe('<b>Shelf</b> & "co" ]]>');
  });
});
