import { strToU8, zipSync } from 'fflate';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { PublicShareSchema, ShareSchema } from '../../contract/index.ts';
import { solid } from '../../testing/images.ts';
import { KEY, finishedTask, serverPerTest, type TestServer } from '../../testing/server.ts';
import type * as previewModule from './preview.ts';
import { renderPreview } from './preview.ts';
import { USDZ_MAX_BYTES } from './usdz.ts';

// Every render counted: the routes import this module, so they call the spy.
vi.mock('./preview.ts', async (original) => {
  const real = await original<typeof previewModule>();
  return { ...real, renderPreview: vi.fn(real.renderPreview) };
});
const renders = vi.mocked(renderPreview);

const startServer = serverPerTest();
const OTHER = 'tr_other_key';

async function sharedTask(server: TestServer, prompt = 'a small red vase') {
  const id = await finishedTask(server, { model: 'beta-text', prompt });
  const res = await server.request(`/api/library/${id}/share`, { method: 'POST' });
  return { id, link: ShareSchema.parse(await res.json()) };
}

const getPreview = (server: TestServer, token: string) =>
  server.request(`/api/shares/${token}/preview.jpg`, { key: null });

/** A USDZ as three's USDZExporter writes one: model.usda first, stored, then a texture. */
function usdz(first = 'model.usda', level: 0 | 6 = 0, textureBytes = 64): Uint8Array {
  return zipSync(
    {
      [first]: strToU8('#usda 1.0\n(\n    defaultPrim = "Root"\n)\ndef Xform "Root" {}\n'),
      'textures/Texture_0.png': new Uint8Array(textureBytes).fill(7),
    },
    { level },
  );
}

const putUsdz = (server: TestServer, id: string, body: Uint8Array, key: string | null = KEY) =>
  server.request(`/api/library/${id}/share/model.usdz`, {
    method: 'PUT',
    body: body as Uint8Array<ArrayBuffer>,
    headers: { 'content-type': 'model/vnd.usdz+zip' },
    key,
  });

describe('the link preview picture', () => {
  it('is made once, read again after, made anew when renamed or drawn, and 404 when revoked', async () => {
    const server = await startServer();
    const { id, link } = await sharedTask(server);
    renders.mockClear();

    const first = await getPreview(server, link.token);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('image/jpeg');
    expect(first.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    const bytes = new Uint8Array(await first.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual([
      'jpeg',
      1200,
      630,
      false,
    ]);
    expect(renders).toHaveBeenCalledTimes(1);
    expect(renders.mock.calls[0]![0]).toMatchObject({ title: '“a small red vase”', picture: null });

    // Again: the same bytes from the blob store, not drawn again.
    const second = await getPreview(server, link.token);
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(bytes);
    expect(renders).toHaveBeenCalledTimes(1);
    // Revalidated like the link's other files: a 304 while it lives.
    const etag = second.headers.get('etag')!;
    const again = await server.request(`/api/shares/${link.token}/preview.jpg`, {
      key: null,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(renders).toHaveBeenCalledTimes(1);

    // A browser draws the model: a new picture, with it.
    await server.request(`/api/library/${id}/thumbnail`, {
      method: 'PUT',
      body: (await solid(64, 48, 'png')) as Uint8Array<ArrayBuffer>,
      headers: { 'content-type': 'image/png' },
    });
    const drawn = new Uint8Array(await (await getPreview(server, link.token)).arrayBuffer());
    expect(drawn).not.toEqual(bytes);
    expect(renders).toHaveBeenCalledTimes(2);
    expect(renders.mock.calls[1]![0].picture).toBeInstanceOf(Uint8Array);

    // Renamed: a new picture with the name (and the prompt under it).
    const renamed = await server.request(`/api/library/${id}`, {
      method: 'PATCH',
      body: JSON.stringify({ name: 'Grandma’s vase' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(renamed.status).toBe(200);
    const named = new Uint8Array(await (await getPreview(server, link.token)).arrayBuffer());
    expect(named).not.toEqual(drawn);
    expect(renders).toHaveBeenCalledTimes(3);
    expect(renders.mock.calls[2]![0]).toMatchObject({
      title: 'Grandma’s vase',
      subtitle: '“a small red vase”',
    });
    await getPreview(server, link.token);
    expect(renders).toHaveBeenCalledTimes(3);

    // Revoked: 404, like the link's other files; unknown and malformed tokens too.
    expect((await server.request(`/api/library/${id}/share`, { method: 'DELETE' })).status).toBe(
      204,
    );
    for (const token of [link.token, 'A'.repeat(24), 'nope']) {
      const res = await getPreview(server, token);
      expect(res.status, token).toBe(404);
      expect(await res.json()).toMatchObject({ error: { code: 'share_not_found' } });
    }
    expect(renders).toHaveBeenCalledTimes(3);
  });

  it('is made once for requests that arrive together', async () => {
    const server = await startServer();
    const { link } = await sharedTask(server);
    renders.mockClear();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => getPreview(server, link.token)),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(renders).toHaveBeenCalledTimes(1);
  });

  it('names a model with markup in its name safely', async () => {
    const server = await startServer();
    const { link } = await sharedTask(server, '<b>bold</b> & "quoted" ]]> vase');
    renders.mockClear();
    const res = await getPreview(server, link.token);
    expect(res.status).toBe(200);
    expect(renders.mock.calls[0]![0].title).toBe('“<b>bold</b> & "quoted" ]]> vase”');
  });
});

describe("a link's USDZ", () => {
  it('is uploaded by the owner, served to anyone with the link, and gone when revoked', async () => {
    const server = await startServer();
    const { id, link } = await sharedTask(server);
    expect(link.usdz_url).toBeNull();
    const facts = async () =>
      PublicShareSchema.parse(
        await (await server.request(`/api/shares/${link.token}`, { key: null })).json(),
      );
    expect((await facts()).usdz_url).toBeNull();
    expect(
      (await server.request(`/api/shares/${link.token}/model.usdz`, { key: null })).status,
    ).toBe(404);

    // Larger than the JSON bodies' 1 MB limit, as a textured model's USDZ is.
    const body = usdz('model.usda', 0, 1200 * 1024);
    const put = await putUsdz(server, id, body);
    expect(put.status).toBe(200);
    const after = ShareSchema.parse(await put.json());
    expect(after.usdz_url).toBe(`/api/shares/${link.token}/model.usdz`);
    expect(after.token).toBe(link.token);
    expect((await facts()).usdz_url).toBe(after.usdz_url);
    const owners = ShareSchema.parse(
      await (await server.request(`/api/library/${id}/share`)).json(),
    );
    expect(owners.usdz_url).toBe(after.usdz_url);

    const got = await server.request(after.usdz_url!, { key: null });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('model/vnd.usdz+zip');
    expect(got.headers.get('cache-control')).toBe('private, no-cache');
    expect(new Uint8Array(await got.arrayBuffer())).toEqual(body);

    // Sent again (a later browser): the new one is kept.
    const other = usdz('scene.usdc');
    expect((await putUsdz(server, id, other)).status).toBe(200);
    const now = await server.request(after.usdz_url!, { key: null });
    expect(new Uint8Array(await now.arrayBuffer())).toEqual(other);

    expect((await server.request(`/api/library/${id}/share`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await server.request(after.usdz_url!, { key: null })).status).toBe(404);
    expect(
      (await server.request(`/api/shares/${link.token}/model.glb`, { key: null })).status,
    ).toBe(404);
    // Not shared any more: nothing to attach it to.
    const unshared = await putUsdz(server, id, body);
    expect(unshared.status).toBe(404);
    expect(await unshared.json()).toMatchObject({
      error: { code: 'share_not_found', param: 'id' },
    });
    // Shared again: a new link, without a USDZ until one is sent.
    const fresh = ShareSchema.parse(
      await (await server.request(`/api/library/${id}/share`, { method: 'POST' })).json(),
    );
    expect(fresh.usdz_url).toBeNull();
  });

  it("refuses another key's task, no key, and an unknown task", async () => {
    const server = await startServer();
    const { id, link } = await sharedTask(server);
    const foreign = await putUsdz(server, id, usdz(), OTHER);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ error: { code: 'task_not_found', param: 'id' } });
    expect((await putUsdz(server, id, usdz(), null)).status).toBe(401);
    expect((await putUsdz(server, 'task_nope', usdz())).status).toBe(404);
    expect(
      (await server.request(`/api/shares/${link.token}/model.usdz`, { key: null })).status,
    ).toBe(404);
  });

  it('refuses a body that is not a USDZ with a 400 naming the body', async () => {
    const server = await startServer();
    const { id } = await sharedTask(server);
    const whole = usdz();
    const bad: [string, Uint8Array, RegExp][] = [
      ['empty', new Uint8Array(0), /empty/],
      ['text', strToU8('hello, this is not a zip at all'), /not a zip/],
      ['a PNG', await solid(8, 8, 'png'), /not a zip/],
      ['a zip of other files', usdz('readme.txt'), /readme\.txt/],
      ['compressed', usdz('model.usda', 6), /compressed/],
      ['cut short', whole.slice(0, whole.length - 30), /damaged or cut short/],
      ['a header only', whole.slice(0, 40), /damaged or cut short/],
    ];
    for (const [what, body, message] of bad) {
      const res = await putUsdz(server, id, body);
      expect(res.status, what).toBe(400);
      expect(await res.json(), what).toMatchObject({
        error: { code: 'invalid_value', param: 'body', message: expect.stringMatching(message) },
      });
    }
    const huge = await putUsdz(server, id, new Uint8Array(USDZ_MAX_BYTES + 1));
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ error: { code: 'body_too_large', param: 'body' } });
    // None of them was kept.
    const link = ShareSchema.parse(await (await server.request(`/api/library/${id}/share`)).json());
    expect(link.usdz_url).toBeNull();
  });
});
