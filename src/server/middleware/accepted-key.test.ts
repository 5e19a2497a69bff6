// A key the upstream has never accepted writes nothing (issue 31, decision 0092).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorBodySchema } from '../../contract/index.ts';
import { post, startTestServer, type TestServer } from '../../testing/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Rows in every table of the server's SQLite file. */
function rowCounts(s: TestServer): Record<string, number> {
  const db = new Database(join(s.dataDir, 'kiln.sqlite'), { readonly: true });
  try {
    const tables = db
      .prepare(
        "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'",
      )
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [
        name,
        (db.prepare(`select count(*) as n from "${name}"`).get() as { n: number }).n,
      ]),
    );
  } finally {
    db.close();
  }
}

/** Every write a key can make, one request each. */
function writes(s: TestServer, key: string, i: number): Promise<Response>[] {
  return [
    s.request('/api/v1/3d/generations', {
      ...post({ model: 'beta-text', prompt: `made up ${i}` }, { 'idempotency-key': `k-${i}` }),
      key,
    }),
    s.request('/api/collections', { ...post({ name: `shoes ${i}` }), key }),
    s.request('/api/library/bulk', { ...post({ ids: ['task_x'], action: 'favourite' }), key }),
    s.request('/api/library/task_x', {
      method: 'PATCH',
      body: JSON.stringify({ favourite: true }),
      key,
    }),
    s.request('/api/library/task_x/share', { method: 'POST', key }),
  ];
}

describe('keys Kiln may write under', () => {
  it('made-up keys, key-shaped or not, get 401 naming the header and leave no row', async () => {
    server = await startTestServer({ createsPerMinute: 30 });
    const before = rowCounts(server);
    const invented = [
      ...Array.from(
        { length: 15 },
        (_, i) => `tr_made_up_${i}_${Math.random().toString(36).slice(2)}`,
      ),
      ...Array.from({ length: 15 }, (_, i) => `not-even-a-tr-key-${i}`),
    ];
    for (const [i, key] of invented.entries())
      for (const res of await Promise.all(writes(server, key, i))) {
        expect(res.status, `${key} ${res.url}`).toBe(401);
        const { error } = ErrorBodySchema.parse(await res.json());
        expect(error).toMatchObject({ code: 'invalid_api_key', param: 'authorization' });
      }
    expect(rowCounts(server)).toEqual(before);
  });

  it('a bearer that is not key-shaped is a 401 on reads too', async () => {
    server = await startTestServer();
    for (const path of ['/api/library', '/api/credits', '/api/collections']) {
      const res = await server.request(path, { key: 'not-even-a-tr-key' });
      expect(res.status, path).toBe(401);
      expect(await res.json()).toMatchObject({ error: { param: 'authorization' } });
    }
    // A real key reads as before.
    expect((await server.request('/api/library')).status).toBe(200);
  });

  it('asks the upstream once per key for a while, and a real key writes as before', async () => {
    let asked = 0;
    server = await startTestServer({
      upstream: {
        baseUrl: 'http://upstream.test/v1',
        fetch: async (req) => {
          if (new URL(req.url).pathname === '/v1/models') asked++;
          return Response.json({ object: 'list', data: [] });
        },
      },
    });
    for (let i = 0; i < 5; i++)
      expect((await server.request('/api/collections', post({ name: `c${i}` }))).status).toBe(201);
    expect(asked).toBe(1);
  });

  it('while the upstream cannot be asked: a key already in the library writes, a new one gets 503', async () => {
    let up = true;
    let later = 0;
    // The built-in mock, reached through the server's own /mock/v1, until it is switched off.
    const s: TestServer = await startTestServer({
      now: () => Date.now() + later,
      upstream: {
        baseUrl: (incoming) => `${incoming.origin}/mock/v1`,
        fetch: async (req) => {
          if (!up) throw new Error('connect ECONNREFUSED');
          return s.app.fetch(req);
        },
      },
    });
    server = s;
    const created = await s.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'a cup' }),
    );
    expect(created.status).toBe(202);
    up = false;
    later = 11 * 60_000; // the upstream's verdict on the key has expired
    expect((await s.request('/api/collections', post({ name: 'kept' }))).status).toBe(201);
    const stranger = await s.request('/api/collections', {
      ...post({ name: 'never' }),
      key: 'tr_never_seen_before',
    });
    expect(stranger.status).toBe(503);
    expect(stranger.headers.get('retry-after')).toBe('5');
    expect(ErrorBodySchema.parse(await stranger.json()).error.message).toMatch(/kept nothing/);
  });
});
