import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  CollectionListSchema,
  CollectionSchema,
  ErrorBodySchema,
  LibraryEntrySchema,
  LibraryPageSchema,
  PublicCollectionSchema,
  ShareSchema,
  type Collection,
} from '../../contract/index.ts';
import { builtSpa } from '../../testing/built-spa.ts';
import { solid } from '../../testing/images.ts';
import { completedRow } from '../../testing/library-rows.ts';
import { KEY, ORIGIN, finishedTask, serverPerTest, type TestServer } from '../../testing/server.ts';
import { ownerHasher } from '../owner-id.ts';
import { FRAMEABLE_CSP } from '../security.ts';

const startServer = serverPerTest();

const OTHER = 'tr_other_key';
/** The owner ids the test server files tasks under (its secret is 32 bytes of 7). */
const OWNER = ownerHasher(Buffer.alloc(32, 7))(KEY);
const OTHER_OWNER = ownerHasher(Buffer.alloc(32, 7))(OTHER);

/** A built SPA, as far as the page shell reads it: index.html and Vite's manifest. */
const staticDir = () =>
  builtSpa('src/web/features/collections/collection-page.tsx', 'assets/collection-page-C.js');

const json = (method: string, body: unknown, key: string | null = KEY) => ({
  method,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
  key,
});

async function create(s: TestServer, name: string, key: string = KEY): Promise<Collection> {
  const res = await s.request('/api/collections', json('POST', { name }, key));
  expect(res.status).toBe(201);
  return CollectionSchema.parse(await res.json());
}

async function members(
  s: TestServer,
  id: string,
  change: { add?: string[]; remove?: string[] },
): Promise<Collection> {
  const res = await s.request(`/api/collections/${id}/models`, json('POST', change));
  expect(res.status, await res.clone().text()).toBe(200);
  return CollectionSchema.parse(await res.json());
}

/** The error of a refused request: its status and error object. */
async function refused(res: Response) {
  return { status: res.status, error: ErrorBodySchema.parse(await res.json()).error };
}

/** Library rows of KEY's owner (and one of OTHER's), inserted directly: ids t1…t{n}. */
async function rows(s: TestServer, n: number) {
  for (let i = 1; i <= n; i++)
    await s.store.insert(
      completedRow(OWNER, `t${i}`, {
        prompt: i % 2 ? `a red chair ${i}` : `a blue mug ${i}`,
        creditsConsumed: (i % 3) * 10,
      }),
    );
  await s.store.insert(completedRow(OTHER_OWNER, 'theirs', { prompt: 'a red chair' }));
}

const ids = async (res: Response) => {
  expect(res.status, await res.clone().text()).toBe(200);
  return LibraryPageSchema.parse(await res.json()).data.map((e) => e.id);
};

describe('collections: the owner’s routes', () => {
  it('creates, lists by name, reads, renames and deletes, each owner seeing only theirs', async () => {
    const s = await startServer();
    const chairs = await create(s, '  Chairs  ');
    expect(chairs).toMatchObject({
      object: 'collection',
      name: 'Chairs',
      count: 0,
      cover_url: null,
      share: null,
    });
    expect(chairs.id).toMatch(/^col_[A-Za-z0-9_-]{20}$/);
    const apples = await create(s, 'apples');
    const mine = await create(s, 'Mugs');
    const theirs = await create(s, 'Chairs', OTHER);

    const list = CollectionListSchema.parse(await (await s.request('/api/collections')).json());
    expect(list.data.map((c) => c.name)).toEqual(['apples', 'Chairs', 'Mugs']);
    const other = CollectionListSchema.parse(
      await (await s.request('/api/collections', { key: OTHER })).json(),
    );
    expect(other.data.map((c) => c.id)).toEqual([theirs.id]);

    expect(
      CollectionSchema.parse(await (await s.request(`/api/collections/${apples.id}`)).json()),
    ).toEqual(apples);
    const renamed = await s.request(
      `/api/collections/${apples.id}`,
      json('PATCH', { name: 'Pears' }),
    );
    expect(renamed.status).toBe(200);
    expect(CollectionSchema.parse(await renamed.json()).name).toBe('Pears');
    // Its own name in another case is no clash.
    const recased = await s.request(`/api/collections/${mine.id}`, json('PATCH', { name: 'MUGS' }));
    expect(CollectionSchema.parse(await recased.json()).name).toBe('MUGS');

    // Another owner's collection, a made-up one and a malformed one: 404 naming id.
    for (const path of [
      `/api/collections/${theirs.id}`,
      '/api/collections/col_AAAAAAAAAAAAAAAAAAAA',
      '/api/collections/nope',
    ])
      for (const init of [{}, json('PATCH', { name: 'x' }), { method: 'DELETE' }])
        expect(await refused(await s.request(path, init))).toEqual({
          status: 404,
          error: expect.objectContaining({ code: 'collection_not_found', param: 'id' }),
        });
    expect((await s.request(`/api/collections/${theirs.id}`, { key: OTHER })).status).toBe(200);

    expect((await s.request(`/api/collections/${apples.id}`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await s.request(`/api/collections/${apples.id}`)).status).toBe(404);
    expect((await s.request(`/api/collections/${apples.id}`, { method: 'DELETE' })).status).toBe(
      404,
    );
    // No key: 401.
    expect((await s.request('/api/collections', { key: null })).status).toBe(401);
    expect((await s.request(`/api/collections/${chairs.id}`, { key: null })).status).toBe(401);
  });

  it('refuses a bad name with a 400 naming it, and a taken one (any case) with a 409', async () => {
    const s = await startServer();
    const chairs = await create(s, 'Chairs');
    const mugs = await create(s, 'Mugs');
    const bad: [unknown, string][] = [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'two\nlines' }, 'name'],
      [{ name: 'tab\there' }, 'name'],
      [{ name: 'evil\u202Eeman' }, 'name'],
      [{ name: 'x'.repeat(121) }, 'name'],
      [{ name: 5 }, 'name'],
      [{ name: null }, 'name'],
      [{ name: ['a'] }, 'name'],
      [{}, 'name'],
      [{ name: 'ok', colour: 'red' }, 'colour'],
      [['Chairs'], 'name'],
      ['"Chairs"', 'name'],
    ];
    for (const [body, param] of bad)
      for (const [path, method] of [
        ['/api/collections', 'POST'],
        [`/api/collections/${mugs.id}`, 'PATCH'],
      ] as const) {
        const { status, error } = await refused(await s.request(path, json(method, body)));
        expect({ body, status, param: error.param }).toEqual({ body, status: 400, param });
        expect(error.message).toMatch(param === 'name' ? /name/ : /colour is not known/);
      }
    // Not JSON at all, or no body.
    for (const body of ['{name:', ''])
      for (const path of ['/api/collections', `/api/collections/${mugs.id}/models`])
        expect(await refused(await s.request(path, json('POST', body)))).toMatchObject({
          status: 400,
          error: { code: 'invalid_json' },
        });
    // A NUL no store can hold.
    const nul = await refused(
      await s.request('/api/collections', json('POST', { name: 'a\u0000b' })),
    );
    expect(nul).toMatchObject({ status: 400, error: { param: 'name' } });
    // 120 characters is fine; 121 is not (above).
    await create(s, 'y'.repeat(120));

    for (const name of ['chairs', 'CHAIRS', ' Chairs ']) {
      expect(await refused(await s.request('/api/collections', json('POST', { name })))).toEqual({
        status: 409,
        error: expect.objectContaining({ code: 'collection_name_taken', param: 'name' }),
      });
      expect(
        await refused(await s.request(`/api/collections/${mugs.id}`, json('PATCH', { name }))),
      ).toMatchObject({ status: 409, error: { code: 'collection_name_taken', param: 'name' } });
    }
    // Nothing changed.
    const list = CollectionListSchema.parse(await (await s.request('/api/collections')).json());
    expect(list.data.map((c) => c.name)).toEqual(['Chairs', 'Mugs', 'y'.repeat(120)]);
    expect(list.data[0]?.id).toBe(chairs.id);
    // Another owner may use it.
    await create(s, 'chairs', OTHER);
  });

  it('one of two creates of the same name at once wins; the other is told it is taken', async () => {
    const s = await startServer();
    const answers = await Promise.all(
      ['Shelf', 'shelf', 'SHELF'].map((name) =>
        s.request('/api/collections', json('POST', { name })),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('adds and removes members all or nothing, and entries say which collections hold them', async () => {
    const s = await startServer();
    await rows(s, 4);
    const chairs = await create(s, 'Chairs');
    const all = await create(s, 'All');
    expect((await members(s, chairs.id, { add: ['t1', 't3'] })).count).toBe(2);
    expect((await members(s, all.id, { add: ['t1', 't2', 't3', 't4', 't4'] })).count).toBe(4);
    // Adding again is no error, and changes nothing.
    expect((await members(s, chairs.id, { add: ['t1'] })).count).toBe(2);

    const page = LibraryPageSchema.parse(await (await s.request('/api/library')).json());
    const held = Object.fromEntries(page.data.map((e) => [e.id, e.collections]));
    // By the collections' names: All, then Chairs.
    expect(held).toEqual({
      t1: [all.id, chairs.id],
      t2: [all.id],
      t3: [all.id, chairs.id],
      t4: [all.id],
    });
    const one = LibraryEntrySchema.parse(await (await s.request('/api/library/t3')).json());
    expect(one.collections).toEqual([all.id, chairs.id]);
    // The other owner sees none of this.
    expect((await create(s, 'Theirs', OTHER)).count).toBe(0);

    // Unknown or another owner's ids: a 400 naming add (or remove) with the ids; nothing applied.
    for (const [change, param, named] of [
      [{ add: ['t2', 'nope'] }, 'add', ['nope']],
      [{ add: ['theirs', 't4'] }, 'add', ['theirs']],
      [{ add: ['t2'], remove: ['t1', 'ghost', 'theirs'] }, 'remove', ['ghost', 'theirs']],
    ] as const) {
      const { status, error } = await refused(
        await s.request(`/api/collections/${chairs.id}/models`, json('POST', change)),
      );
      expect(status).toBe(400);
      expect(error.param).toBe(param);
      for (const id of named) expect(error.message).toContain(id);
      expect(error.message).toContain('Nothing was changed');
    }
    const after = CollectionSchema.parse(
      await (await s.request(`/api/collections/${chairs.id}`)).json(),
    );
    expect(after.count).toBe(2);
    expect(await ids(await s.request(`/api/library?collection=${chairs.id}`))).toEqual([
      't3',
      't1',
    ]);

    // Bad bodies: 400 naming the field.
    const bad: [unknown, string][] = [
      [{}, 'add'],
      [{ add: [] }, 'add'],
      [{ add: [], remove: [] }, 'add'],
      [{ add: 't1' }, 'add'],
      [{ add: [1] }, 'add'],
      [{ remove: [null] }, 'remove'],
      [{ remove: 't1' }, 'remove'],
      [{ add: Array.from({ length: 201 }, (_, i) => `t${i}`) }, 'add'],
      [{ add: ['t1'], ids: ['t2'] }, 'ids'],
      [{ add: ['t2'], remove: ['t2'] }, 'remove'],
      [null, 'add'],
      [['t1'], 'add'],
    ];
    for (const [body, param] of bad) {
      const { status, error } = await refused(
        await s.request(`/api/collections/${chairs.id}/models`, json('POST', body)),
      );
      expect({ body, status, param: error.param }).toEqual({ body, status: 400, param });
    }
    // Another owner's collection: 404.
    const theirs = CollectionListSchema.parse(
      await (await s.request('/api/collections', { key: OTHER })).json(),
    ).data[0]!;
    expect(
      await refused(
        await s.request(`/api/collections/${theirs.id}/models`, json('POST', { add: ['t1'] })),
      ),
    ).toMatchObject({ status: 404, error: { code: 'collection_not_found', param: 'id' } });

    // Removing: the model stays in the library and in its other collections.
    expect((await members(s, chairs.id, { remove: ['t1', 't2'] })).count).toBe(1);
    const t1 = LibraryEntrySchema.parse(await (await s.request('/api/library/t1')).json());
    expect(t1.collections).toEqual([all.id]);
    // Deleting a collection leaves its models.
    expect((await s.request(`/api/collections/${all.id}`, { method: 'DELETE' })).status).toBe(204);
    const t4 = LibraryEntrySchema.parse(await (await s.request('/api/library/t4')).json());
    expect(t4.collections).toEqual([]);
    expect(t4.id).toBe('t4');
  });

  it('filters the library by collection with every other filter, order and cursor', async () => {
    const s = await startServer();
    await rows(s, 9);
    const picked = await create(s, 'Picked');
    await members(s, picked.id, { add: ['t1', 't2', 't3', 't5', 't6', 't8', 't9'] });
    await s.store.setFavourite(OWNER, 't5', true);
    await s.store.setFavourite(OWNER, 't4', true);
    const list = (query: string) => s.request(`/api/library?collection=${picked.id}&${query}`);

    expect(await ids(await list(''))).toEqual(['t9', 't8', 't6', 't5', 't3', 't2', 't1']);
    expect(await ids(await list('q=chair'))).toEqual(['t9', 't5', 't3', 't1']);
    expect(await ids(await list('favourite=1'))).toEqual(['t5']);
    expect(await ids(await list('sort=oldest&q=mug'))).toEqual(['t2', 't6', 't8']);
    expect(await ids(await list('status=pending'))).toEqual([]);
    // Walk every order two at a time: each member once, in order.
    for (const sort of ['newest', 'oldest', 'credits']) {
      const whole = await ids(await list(`sort=${sort}&limit=100`));
      const seen: string[] = [];
      let cursor: string | null = '';
      for (let i = 0; i < 10 && cursor !== null; i++) {
        const res = await list(`sort=${sort}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        const page = LibraryPageSchema.parse(await res.json());
        seen.push(...page.data.map((e) => e.id));
        expect(page.data.every((e) => e.collections?.includes(picked.id))).toBe(true);
        cursor = page.next_cursor;
      }
      expect(seen).toEqual(whole);
      expect([...whole].sort()).toEqual(['t1', 't2', 't3', 't5', 't6', 't8', 't9']);
    }
    // A hidden member is not listed, but still counted.
    await s.request('/api/library/t9', { method: 'DELETE' });
    expect(await ids(await list(''))).toEqual(['t8', 't6', 't5', 't3', 't2', 't1']);
    expect(
      CollectionSchema.parse(await (await s.request(`/api/collections/${picked.id}`)).json()).count,
    ).toBe(7);
    // An empty value is no filter.
    expect(await ids(await s.request('/api/library?collection=&limit=100'))).toHaveLength(8);

    // Unknown, another owner's, or malformed: 404 naming collection.
    const theirs = await create(s, 'Theirs', OTHER);
    for (const id of [theirs.id, 'col_AAAAAAAAAAAAAAAAAAAA', 'chairs', 'col_x'])
      expect(await refused(await s.request(`/api/library?collection=${id}`))).toEqual({
        status: 404,
        error: expect.objectContaining({ code: 'collection_not_found', param: 'collection' }),
      });
    expect(
      await ids(await s.request(`/api/library?collection=${theirs.id}`, { key: OTHER })),
    ).toEqual([]);
    // A bad cursor with a collection is still the cursor's 400.
    expect(await refused(await list('cursor=zzz'))).toMatchObject({
      status: 400,
      error: { param: 'cursor' },
    });
  });
});

describe('collections: zip and public link', () => {
  it('downloads a collection as one zip named after it, leaving out what has no model', async () => {
    const s = await startServer({ now: () => Date.UTC(2026, 10, 25, 12) });
    const vase = await finishedTask(s, { model: 'beta-text', prompt: 'a small red vase' });
    const mug = await finishedTask(s, { model: 'beta-text', prompt: 'a blue mug' });
    await s.store.insert(
      completedRow(OWNER, 'task_pending', { status: 'pending', prompt: 'later' }),
    );
    const col = await create(s, 'Déjà vu: Vases & Mugs!');
    const empty = await create(s, 'Empty');
    await members(s, col.id, { add: [vase, mug, 'task_pending'] });

    const res = await s.request(`/api/collections/${col.id}/download.zip`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(
      'attachment; filename="kiln-deja-vu-vases-mugs-2026-11-25.zip"',
    );
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const names = Object.keys(files);
    expect(names.filter((n) => n.endsWith('.glb'))).toHaveLength(2);
    expect(names.some((n) => n.includes('a-blue-mug'))).toBe(true);
    expect(names.some((n) => n.includes('a-small-red-vase'))).toBe(true);
    for (const n of names.filter((n) => n.endsWith('.glb')))
      expect(strFromU8(files[n]!.slice(0, 4))).toBe('glTF');
    expect(strFromU8(files['README.txt']!)).toContain('task_pending: the task is not finished yet');

    // Hidden members are left out (and said so).
    await s.request(`/api/library/${mug}`, { method: 'DELETE' });
    const hidden = unzipSync(
      new Uint8Array(
        await (await s.request(`/api/collections/${col.id}/download.zip`)).arrayBuffer(),
      ),
    );
    expect(Object.keys(hidden).filter((n) => n.endsWith('.glb'))).toHaveLength(1);
    expect(strFromU8(hidden['README.txt']!)).toContain(`${mug}: hidden in your gallery`);

    expect(
      await refused(await s.request(`/api/collections/${empty.id}/download.zip`)),
    ).toMatchObject({
      status: 409,
      error: { code: 'task_not_archived', param: 'id' },
    });
    expect(
      (await s.request(`/api/collections/${col.id}/download.zip`, { key: OTHER })).status,
    ).toBe(404);
    expect((await s.request(`/api/collections/${col.id}/download.zip`, { key: null })).status).toBe(
      401,
    );
  });

  it('says its embed snippet with the collection, titled with its name escaped, after a rename too', async () => {
    const s = await startServer({ staticDir: staticDir() });
    const col = await create(s, 'Bench <script>"x"</script> & co');
    const made = await s.request(`/api/collections/${col.id}/share`, { method: 'POST' });
    const link = ShareSchema.parse(await made.json());
    const iframe = (title: string) =>
      `<iframe src="${ORIGIN}/c/${link.token}/embed" title="${title} — a collection of 3D models on Kiln" ` +
      'width="640" height="480" style="border:0;max-width:100%" loading="lazy"></iframe>';
    const escaped = iframe('Bench &lt;script&gt;&quot;x&quot;&lt;/script&gt; &amp; co');
    expect(link.embed_html).toBe(escaped);
    // The collection as its owner reads it (what the share dialog shows), alone and listed.
    const read = CollectionSchema.parse(
      await (await s.request(`/api/collections/${col.id}`)).json(),
    );
    expect(read.share).toEqual({ url: link.url, created_ms: link.created_ms, embed_html: escaped });
    const listed = CollectionListSchema.parse(await (await s.request('/api/collections')).json());
    expect(listed.data.find((c) => c.id === col.id)?.share?.embed_html).toBe(escaped);
    // Renamed: the snippet names it anew, in the collection and in its link's answer.
    const patch = await s.request(
      `/api/collections/${col.id}`,
      json('PATCH', { name: "Bench 'two'" }),
    );
    const renamed = iframe('Bench &#39;two&#39;');
    expect(CollectionSchema.parse(await patch.json()).share?.embed_html).toBe(renamed);
    const again = await s.request(`/api/collections/${col.id}/share`);
    expect(ShareSchema.parse(await again.json()).embed_html).toBe(renamed);
  });

  it('shares a collection as one public, revocable page with every shown model', async () => {
    const s = await startServer({ staticDir: staticDir() });
    const vase = await finishedTask(s, { model: 'beta-text', prompt: 'a small red vase' });
    const mug = await finishedTask(s, { model: 'beta-text', prompt: 'a blue mug' });
    const lamp = await finishedTask(s, { model: 'beta-text', prompt: 'a green lamp' });
    await s.store.insert(
      completedRow(OWNER, 'task_pending', { status: 'pending', prompt: 'later' }),
    );
    await s.request(`/api/library/${mug}`, json('PATCH', { name: 'My <b>mug</b>' }));
    const col = await create(s, 'Shelf <one> & "two"');
    await members(s, col.id, { add: [vase, mug, lamp, 'task_pending'] });
    await s.request(`/api/library/${lamp}`, { method: 'DELETE' }); // hidden: not on the page

    // Not shared yet.
    expect(await refused(await s.request(`/api/collections/${col.id}/share`))).toMatchObject({
      status: 404,
      error: { code: 'share_not_found', param: 'id' },
    });
    const made = await s.request(`/api/collections/${col.id}/share`, { method: 'POST' });
    expect(made.status).toBe(201);
    const link = ShareSchema.parse(await made.json());
    expect(link.url).toBe(`${ORIGIN}/c/${link.token}`);
    expect(link.embed_url).toBe(`${ORIGIN}/c/${link.token}/embed`);
    expect(link.embed_html).toContain(`src="${link.embed_url}"`);
    expect(link.embed_html).toContain(
      'title="Shelf &lt;one&gt; &amp; &quot;two&quot; — a collection of 3D models on Kiln"',
    );
    const again = await s.request(`/api/collections/${col.id}/share`, { method: 'POST' });
    expect(again.status).toBe(200);
    expect(ShareSchema.parse(await again.json())).toEqual(link);
    expect(
      ShareSchema.parse(await (await s.request(`/api/collections/${col.id}/share`)).json()),
    ).toEqual(link);
    const owned = CollectionSchema.parse(
      await (await s.request(`/api/collections/${col.id}`)).json(),
    );
    // With its embed snippet too (the test above).
    expect(owned.share).toMatchObject({ url: link.url, created_ms: link.created_ms });
    expect(owned.count).toBe(4);
    // Another owner can neither read nor make nor revoke it.
    for (const method of ['GET', 'POST', 'DELETE'])
      expect(
        (await s.request(`/api/collections/${col.id}/share`, { method, key: OTHER })).status,
      ).toBe(404);

    // Anyone, without a key: the name and the shown, archived models, newest first.
    const facts = await s.request(`/api/collection-shares/${link.token}`, { key: null });
    expect(facts.status).toBe(200);
    expect(facts.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(facts.headers.get('cache-control')).toBe('no-store');
    const text = await facts.clone().text();
    for (const secret of [vase, mug, lamp, OWNER, KEY, 'task_']) expect(text).not.toContain(secret);
    const shared = PublicCollectionSchema.parse(await facts.json());
    expect(shared).toMatchObject({
      object: 'shared_collection',
      token: link.token,
      name: 'Shelf <one> & "two"',
      url: link.url,
    });
    expect(shared.models.map((m) => [m.index, m.title, m.name, m.input])).toEqual([
      [0, 'My <b>mug</b>', 'My <b>mug</b>', 'prompt'],
      [1, '“a small red vase”', null, 'prompt'],
    ]);
    expect(shared.models[0]).toMatchObject({
      model_url: `/api/collection-shares/${link.token}/models/0/model.glb`,
      thumbnail_url: null,
    });
    // Each model's GLB is the archived one.
    const entry = LibraryEntrySchema.parse(await (await s.request(`/api/library/${vase}`)).json());
    const archived = new Uint8Array(
      await (await s.request(entry.model_url!, { key: null })).arrayBuffer(),
    );
    const glb = await s.request(shared.models[1]!.model_url, { key: null });
    expect(glb.status).toBe(200);
    expect(glb.headers.get('content-type')).toBe('model/gltf-binary');
    expect(glb.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(new Uint8Array(await glb.arrayBuffer())).toEqual(archived);
    const ranged = await s.request(shared.models[1]!.model_url, {
      key: null,
      headers: { range: 'bytes=0-3' },
    });
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe('glTF');
    // No picture yet, a place past the end, a malformed place: 404.
    for (const path of [
      `/api/collection-shares/${link.token}/models/0/thumbnail.webp`,
      `/api/collection-shares/${link.token}/models/2/model.glb`,
      `/api/collection-shares/${link.token}/models/-1/model.glb`,
      `/api/collection-shares/${link.token}/models/x/model.glb`,
    ])
      expect((await s.request(path, { key: null })).status).toBe(404);

    // Before any picture is drawn the page still names a preview picture: the name alone.
    expect(await (await s.request(`/c/${link.token}`, { key: null })).text()).toContain(
      '<meta property="og:image:alt" content="The name of the collection of 3D models “Shelf &lt;one&gt; &amp; &quot;two&quot;”, on Kiln’s stage" />',
    );

    // A picture drawn: the cover, the page's facts and its preview.
    await s.request(`/api/library/${vase}/thumbnail`, {
      method: 'PUT',
      body: (await solid(64, 48, 'png')) as Uint8Array<ArrayBuffer>,
      headers: { 'content-type': 'image/png' },
    });
    const withCover = CollectionSchema.parse(
      await (await s.request(`/api/collections/${col.id}`)).json(),
    );
    expect(withCover.cover_url).toMatch(/^\/api\/assets\/[a-f0-9]{64}\.webp\?exp=\d+&sig=/);
    expect((await s.request(withCover.cover_url!, { key: null })).status).toBe(200);
    const pictured = PublicCollectionSchema.parse(
      await (await s.request(`/api/collection-shares/${link.token}`, { key: null })).json(),
    );
    expect(pictured.models[1]?.thumbnail_url).toBe(
      `/api/collection-shares/${link.token}/models/1/thumbnail.webp`,
    );
    const webp = await s.request(pictured.models[1]!.thumbnail_url!, { key: null });
    expect(webp.status).toBe(200);
    expect(webp.headers.get('content-type')).toBe('image/webp');

    // The page and its embed: the shell with the collection's name and its link preview
    // picture (1200 × 630, made on the server: preview.test.ts) for chat apps.
    const escapedName = 'Shelf &lt;one&gt; &amp; &quot;two&quot;';
    const image = `${ORIGIN}/api/collection-shares/${link.token}/preview.jpg`;
    for (const path of [`/c/${link.token}`, `/c/${link.token}/embed`]) {
      const page = await s.request(path, { key: null });
      expect(page.status).toBe(200);
      expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      const html = await page.text();
      expect(html).toContain(`<title>${escapedName} · Kiln</title>`);
      expect(html).toContain(`<meta property="og:url" content="${link.url}" />`);
      for (const tag of [
        `<meta property="og:image" content="${image}" />`,
        '<meta property="og:image:type" content="image/jpeg" />',
        '<meta property="og:image:width" content="1200" />',
        '<meta property="og:image:height" content="630" />',
        `<meta property="og:image:alt" content="A 3D model of the collection “${escapedName}” on Kiln’s stage, with its name" />`,
        '<meta name="twitter:card" content="summary_large_image" />',
        `<meta name="twitter:image" content="${image}" />`,
        '<meta property="og:description" content="2 3D models made with Kiln.',
        '<link rel="modulepreload" crossorigin href="/assets/collection-page-C.js" />',
      ])
        expect(html, path).toContain(tag);
      expect(html).not.toContain('thumbnail.webp');
    }
    const picture = await s.request(new URL(image).pathname, { key: null });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/jpeg');
    expect(
      (await s.request(`/c/${link.token}`, { key: null })).headers.get('x-frame-options'),
    ).toBe('DENY');
    const embed = await s.request(`/c/${link.token}/embed`, { key: null });
    expect(embed.headers.get('content-security-policy')).toBe(FRAMEABLE_CSP);
    expect(embed.headers.get('x-frame-options')).toBeNull();

    // Revoked: every public address is gone at once, the page says so.
    expect((await s.request(`/api/collections/${col.id}/share`, { method: 'DELETE' })).status).toBe(
      204,
    );
    expect((await s.request(`/api/collections/${col.id}/share`, { method: 'DELETE' })).status).toBe(
      404,
    );
    for (const path of [
      `/api/collection-shares/${link.token}`,
      `/api/collection-shares/${link.token}/models/0/model.glb`,
      `/api/collection-shares/${link.token}/models/1/thumbnail.webp`,
      `/api/collection-shares/${link.token}/preview.jpg`,
    ])
      expect(await refused(await s.request(path, { key: null }))).toMatchObject({
        status: 404,
        error: { code: 'share_not_found' },
      });
    const gone = await s.request(`/c/${link.token}`, { key: null });
    expect(gone.status).toBe(404);
    expect(await gone.text()).toContain('<title>Link not found · Kiln</title>');
    expect(
      CollectionSchema.parse(await (await s.request(`/api/collections/${col.id}`)).json()).share,
    ).toBeNull();

    // Shared again: a new token. Deleting the collection revokes it too.
    const second = ShareSchema.parse(
      await (await s.request(`/api/collections/${col.id}/share`, { method: 'POST' })).json(),
    );
    expect(second.token).not.toBe(link.token);
    expect((await s.request(`/api/collection-shares/${second.token}`, { key: null })).status).toBe(
      200,
    );
    expect((await s.request(`/api/collections/${col.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await s.request(`/api/collection-shares/${second.token}`, { key: null })).status).toBe(
      404,
    );
    expect((await s.request(`/c/${second.token}`, { key: null })).status).toBe(404);
    // Unknown and malformed tokens: the same 404.
    for (const token of ['A'.repeat(24), 'short', '../x'])
      expect((await s.request(`/api/collection-shares/${token}`, { key: null })).status).toBe(404);
    expect((await s.request('/c/short', { key: null })).status).toBe(404);
  });
});
