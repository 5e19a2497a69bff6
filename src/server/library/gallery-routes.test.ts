// The gallery's API: GET /api/library with search, filters, orders and cursors; favourites by
// PATCH; POST /api/library/bulk; GET /api/library/{id}/same-input. Rows are put in the store
// directly (filed under the test keys' owner ids), so each case is about the routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LibraryBulkResultSchema,
  LibraryEntrySchema,
  LibraryPageSchema,
  type LibraryEntry,
} from '../../contract/index.ts';
import { completedRow, type LibraryInsert } from '../../testing/library-rows.ts';
import { KEY, startTestServer, type TestServer } from '../../testing/server.ts';
import { ownerHasher } from '../owner-id.ts';

const OTHER = 'tr_other_key';
// startTestServer's secret.
const ownerOf = ownerHasher(Buffer.alloc(32, 7));

const row = (key: string, taskId: string, over: Partial<LibraryInsert> = {}) =>
  completedRow(ownerOf(key), taskId, { upstreamModelUrl: null, ...over });
const photo = (n: number, name: string) => ({
  url: `https://kiln.test/api/uploads/${String(n).padStart(64, '0')}.png`,
  upload: `/api/uploads/${String(n).padStart(64, '0')}.png`,
  name,
});

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
  // 30 tasks of mine: every third a photo of a chair, the others prompts; credits 0–40.
  for (let i = 1; i <= 30; i++)
    await s.store.insert(
      row(KEY, `t${String(i).padStart(2, '0')}`, {
        ...(i % 3 === 0
          ? { model: 'alpha', images: [photo(i, `Chair ${i}.png`)] }
          : { prompt: i % 2 ? `a red vase ${i}` : `a wooden chair ${i}` }),
        status: i % 10 === 0 ? 'failed' : i % 7 === 0 ? 'pending' : 'completed',
        creditsConsumed: i % 10 === 0 || i % 7 === 0 ? null : (i * 7) % 41,
      }),
    );
  await s.store.insert(row(OTHER, 'o1', { prompt: 'a wooden chair' }));
  await s.store.insert(row(OTHER, 'o2', { prompt: 'a red vase', model: 'gamma' }));
});
afterAll(() => s.close());

const get = async (query: string, key: string = KEY) => {
  const res = await s.request(`/api/library${query}`, { key });
  return { status: res.status, body: (await res.json()) as unknown };
};
const page = async (query: string, key?: string) => {
  const { status, body } = await get(query, key);
  expect(status, JSON.stringify(body)).toBe(200);
  return LibraryPageSchema.parse(body);
};
/** Every page, following next_cursor. */
async function walk(query: string, key?: string): Promise<LibraryEntry[]> {
  const out: LibraryEntry[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 100; i++) {
    const more = cursor
      ? `${query.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`
      : '';
    const p = await page(`${query}${more}`, key);
    out.push(...p.data);
    cursor = p.next_cursor;
    if (!cursor) return out;
  }
  throw new Error('no last page');
}
const ids = (entries: LibraryEntry[]) => entries.map((e) => e.id);
const errorOf = (body: unknown) => (body as { error: { code: string; param?: string } }).error;

describe('GET /api/library: search, filters, orders', () => {
  it('answers as before without parameters: newest first, a numeric cursor, favourite false', async () => {
    const first = await page('?limit=5');
    expect(ids(first.data)).toEqual(['t30', 't29', 't28', 't27', 't26']);
    expect(first.next_cursor).toMatch(/^\d+$/);
    expect(first.data[0]?.favourite).toBe(false);
    const all = await walk('?limit=7');
    expect(all).toHaveLength(30);
    expect(new Set(ids(all)).size).toBe(30);
  });

  it('searches prompts and photo names, every word, any case', async () => {
    const chairs = await walk('?q=CHAIR&limit=4');
    // Prompts "a wooden chair n" (even, not multiples of 3) and photos "Chair n.png".
    const expected = Array.from({ length: 30 }, (_, k) => 30 - k).filter(
      (i) => i % 3 === 0 || i % 2 === 0,
    );
    expect(ids(chairs)).toEqual(expected.map((i) => `t${String(i).padStart(2, '0')}`));
    expect(ids(await walk('?q=wooden%20chair%2014'))).toEqual(['t14']);
    expect(ids(await walk('?q=chair%209.png'))).toEqual(['t09']);
    expect(await walk('?q=%25')).toEqual([]);
  });

  it('filters by model, kind, status and favourites, and combines them', async () => {
    expect(ids(await walk('?model=alpha')).every((id) => Number(id.slice(1)) % 3 === 0)).toBe(true);
    expect(await walk('?model=alpha')).toHaveLength(10);
    expect(await walk('?kind=photo')).toHaveLength(10);
    expect(await walk('?kind=prompt')).toHaveLength(20);
    expect(await walk('?kind=views')).toHaveLength(0);
    expect(ids(await walk('?status=failed'))).toEqual(['t30', 't20', 't10']);
    expect(ids(await walk('?status=pending'))).toEqual(['t28', 't21', 't14', 't07']);
    expect(await walk('?status=completed')).toHaveLength(23);
    expect(ids(await walk('?status=failed&kind=photo&q=chair'))).toEqual(['t30']);
    // Blank values are no filter (a form's empty select).
    expect(await walk('?q=&model=&kind=&status=&favourite=&sort=')).toHaveLength(30);
  });

  it('orders by credits with a cursor that pages through every task once', async () => {
    const all = await walk('?sort=credits&limit=4');
    expect(all).toHaveLength(30);
    const keys = all.map((e) => e.credits_consumed ?? -1);
    expect(keys).toEqual([...keys].sort((a, b) => b - a));
    const first = await page('?sort=credits&limit=4');
    expect(first.next_cursor).toMatch(/^-?\d+~\d+$/);
    expect(ids(await walk('?sort=oldest&limit=9'))).toEqual(
      Array.from({ length: 30 }, (_, k) => `t${String(k + 1).padStart(2, '0')}`),
    );
    expect(ids(await walk('?sort=oldest&q=vase&status=completed&limit=2'))).toEqual(
      ids(await walk('?q=vase&status=completed')).reverse(),
    );
  });

  it('refuses bad values with a 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?sort=price', 'sort'],
      ['?kind=video', 'kind'],
      ['?status=done', 'status'],
      ['?favourite=yes', 'favourite'],
      ['?model=a%20b', 'model'],
      [`?q=${'x'.repeat(201)}`, 'q'],
      ['?q=a%00b', 'q'],
      ['?cursor=abc', 'cursor'],
      ['?cursor=0', 'cursor'],
      // A cursor of one order is not a cursor of another.
      ['?sort=credits&cursor=12', 'cursor'],
      ['?sort=newest&cursor=10~12', 'cursor'],
      ['?provider=acme', 'provider'],
      ['?provider=Meshy', 'provider'],
    ];
    for (const [query, param] of cases) {
      const { status, body } = await get(query);
      expect(status, query).toBe(400);
      expect(errorOf(body), query).toMatchObject({ code: 'invalid_value', param });
    }
  });

  it('shows each key only its own tasks', async () => {
    expect(ids(await walk('?q=chair', OTHER))).toEqual(['o1']);
    expect(ids(await walk('?model=gamma', OTHER))).toEqual(['o2']);
    expect(await walk('?model=gamma')).toEqual([]);
    const res = await s.request('/api/library?q=chair', { key: null });
    expect(res.status).toBe(401);
  });
});

describe('GET /api/library?provider=', () => {
  const ARTIST = 'tr_artist_of_three_vendors';
  const MODELS = ['meshy/meshy-6', 'fal/fal-ai/trellis', 'tripo/v2.5-20250123', 'beta'];
  beforeAll(async () => {
    // 20 tasks, five of each provider's, interleaved: a client-side filter over a page of 4
    // would find one of them a page.
    for (let i = 0; i < 20; i++)
      await s.store.insert(
        row(ARTIST, `p${String(i).padStart(2, '0')}`, { model: MODELS[i % 4]! }),
      );
  });

  it("narrows the store's query: full pages of one provider, and a cursor that walks only its tasks", async () => {
    const first = await page('?provider=meshy&limit=4', ARTIST);
    expect(ids(first.data)).toEqual(['p16', 'p12', 'p08', 'p04']);
    expect(first.next_cursor).not.toBeNull();
    expect(ids(await walk('?provider=meshy&limit=4', ARTIST))).toEqual([
      'p16',
      'p12',
      'p08',
      'p04',
      'p00',
    ]);
    for (const [provider, at] of [
      ['fal', 1],
      ['tripo', 2],
      ['spec', 3],
    ] as const) {
      const found = await walk(`?provider=${provider}&limit=3`, ARTIST);
      expect(
        found.map((e) => e.model).every((m) => m === MODELS[at]),
        provider,
      ).toBe(true);
      expect(found, provider).toHaveLength(5);
    }
    // With the other filters, and blank is no filter.
    expect(ids(await walk('?provider=fal&sort=oldest&limit=2', ARTIST))).toEqual([
      'p01',
      'p05',
      'p09',
      'p13',
      'p17',
    ]);
    expect(await walk('?provider=', ARTIST)).toHaveLength(20);
  });

  it('refuses an unknown provider with a 400 naming provider and the ones it knows', async () => {
    const { status, body } = await get('?provider=acme', ARTIST);
    expect(status).toBe(400);
    expect(errorOf(body)).toMatchObject({ code: 'invalid_value', param: 'provider' });
    expect((body as { error: { message: string } }).error.message).toBe(
      'provider must be one of spec, meshy, tripo, fal.',
    );
  });
});

describe('favourites and bulk actions', () => {
  const patch = (id: string, body: unknown, key: string = KEY) =>
    s.request(`/api/library/${id}`, {
      method: 'PATCH',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      key,
    });
  const bulk = (body: unknown, key: string = KEY) =>
    s.request('/api/library/bulk', {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      key,
    });

  it('stars and unstars one task with PATCH, and lists favourites', async () => {
    const res = await patch('t05', { favourite: true });
    expect(res.status).toBe(200);
    expect(LibraryEntrySchema.parse(await res.json())).toMatchObject({
      id: 't05',
      favourite: true,
    });
    expect(ids(await walk('?favourite=1'))).toEqual(['t05']);
    // Both at once: hidden and starred.
    const both = await patch('t05', { favourite: false, hidden: true });
    expect(LibraryEntrySchema.parse(await both.json())).toMatchObject({
      favourite: false,
      hidden: true,
    });
    expect(await walk('?favourite=1')).toEqual([]);
    await patch('t05', { hidden: false });
    expect(ids(await walk('?favourite=0&q=vase%205'))).toEqual(['t25', 't05']);
  });

  it('refuses a bad PATCH naming the field, and another key’s task is not found', async () => {
    for (const [body, param] of [
      [{ favourite: 'yes' }, 'favourite'],
      [{ hidden: 1 }, 'hidden'],
      [{ starred: true }, 'starred'],
      [{}, 'hidden'],
    ] as const) {
      const res = await patch('t01', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(await res.json())).toMatchObject({ code: 'invalid_value', param });
    }
    const json = await patch('t01', '{');
    expect(json.status).toBe(400);
    expect(errorOf(await json.json())).toMatchObject({ code: 'invalid_json' });
    const theirs = await patch('o1', { favourite: true });
    expect(theirs.status).toBe(404);
    expect((await s.store.get(ownerOf(OTHER), 'o1'))?.favourite).toBe(false);
  });

  it('applies one action to many of the caller’s tasks, saying which were not found', async () => {
    const res = await bulk({ ids: ['t01', 't02', 'o1', 'nope', 't01'], action: 'favourite' });
    expect(res.status).toBe(200);
    expect(LibraryBulkResultSchema.parse(await res.json())).toEqual({
      object: 'bulk_result',
      action: 'favourite',
      updated: ['t01', 't02'],
      not_found: ['o1', 'nope'],
    });
    expect(ids(await walk('?favourite=1'))).toEqual(['t02', 't01']);
    expect((await s.store.get(ownerOf(OTHER), 'o1'))?.favourite).toBe(false);

    await bulk({ ids: ['t01', 't02'], action: 'hide' });
    expect(await walk('?favourite=1')).toEqual([]);
    expect(await walk('')).toHaveLength(28);
    const undo = await bulk({ ids: ['t01', 't02'], action: 'unhide' });
    expect(LibraryBulkResultSchema.parse(await undo.json()).updated).toEqual(['t01', 't02']);
    await bulk({ ids: ['t01', 't02'], action: 'unfavourite' });
    expect(await walk('')).toHaveLength(30);
    expect(await walk('?favourite=1')).toEqual([]);
    // Another key cannot hide mine.
    const theirs = await bulk({ ids: ['t03'], action: 'hide' }, OTHER);
    expect(LibraryBulkResultSchema.parse(await theirs.json()).not_found).toEqual(['t03']);
    expect(await walk('')).toHaveLength(30);
  });

  it('takes at most 100 ids and one of four actions, naming what is wrong', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `x${i}`);
    expect((await bulk({ ids: hundred, action: 'hide' })).status).toBe(200);
    for (const [body, param] of [
      [{ ids: [...hundred, 'x100'], action: 'hide' }, 'ids'],
      [{ ids: [], action: 'hide' }, 'ids'],
      [{ ids: 't01', action: 'hide' }, 'ids'],
      [{ ids: [1], action: 'hide' }, 'ids'],
      [{ action: 'hide' }, 'ids'],
      [{ ids: ['t01'], action: 'delete' }, 'action'],
      [{ ids: ['t01'] }, 'action'],
      [{ ids: ['t01'], action: 'hide', force: true }, 'force'],
      [[], 'ids'],
    ] as const) {
      const res = await bulk(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorOf(await res.json()), JSON.stringify(body)).toMatchObject({
        code: 'invalid_value',
        param,
      });
    }
    const json = await bulk('ids=t01');
    expect(json.status).toBe(400);
    expect(errorOf(await json.json())).toMatchObject({ code: 'invalid_json' });
    expect(await walk('')).toHaveLength(30);
  });
});

describe('GET /api/library/{id}/same-input', () => {
  it('lists the other completed generations of the same prompt or photo, of this key only', async () => {
    await s.store.insert(row(KEY, 'p1', { prompt: 'a tall lamp', model: 'beta-text' }));
    await s.store.insert(row(KEY, 'p2', { prompt: 'a tall lamp', model: 'gamma-text' }));
    await s.store.insert(row(KEY, 'p3', { prompt: 'a tall lamp', status: 'failed' }));
    await s.store.insert(row(OTHER, 'p4', { prompt: 'a tall lamp' }));
    await s.store.insert(row(KEY, 'c1', { model: 'gamma', images: [photo(3, 'again.png')] }));
    const same = async (id: string) => {
      const res = await s.request(`/api/library/${id}/same-input`);
      expect(res.status).toBe(200);
      return ids(LibraryPageSchema.parse(await res.json()).data);
    };
    expect(await same('p1')).toEqual(['p2']);
    expect(await same('p3')).toEqual(['p2', 'p1']);
    expect(await same('t03')).toEqual(['c1']);
    expect(await same('t01')).toEqual([]);
    const theirs = await s.request('/api/library/p4/same-input');
    expect(theirs.status).toBe(404);
    expect(errorOf(await theirs.json())).toMatchObject({ param: 'id' });
    await s.store.hide(ownerOf(KEY), 'c1');
    expect(await same('t03')).toEqual([]);
  });
});
