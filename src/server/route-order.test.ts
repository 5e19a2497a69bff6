// Route order carries no meaning (decision 0105): Kiln's own routes, mounted as written, in
// reverse and shuffled, over one database, give the same answer to every request, library
// entries with their share and collections included.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LibraryPageSchema } from '../contract/index.ts';
import { completedRow } from '../testing/library-rows.ts';
import { KEY, startTestServer, type TestServer } from '../testing/server.ts';
import { newCollectionId } from './collections/service.ts';
import { ownerHasher } from './owner-id.ts';
import { newShareToken } from './share/service.ts';

const OWNER = ownerHasher(Buffer.alloc(32, 7))(KEY);
const OTHER = ownerHasher(Buffer.alloc(32, 7))('tr_other_key');
const NOW = 1_900_000_000_000;

/** Every other one first, then the rest backwards: an order unlike both others. */
const shuffled = <T>(routes: readonly T[]): T[] => [
  ...routes.filter((_, i) => i % 2 === 1),
  ...routes.filter((_, i) => i % 2 === 0).reverse(),
];

const ORDERS = {
  'as written': undefined,
  reversed: <T>(routes: readonly T[]) => [...routes].reverse(),
  shuffled,
} as const;

let dataDir: string;
const servers = new Map<string, TestServer>();
let chairs: string;
let theirs: string;
let token: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'kiln-route-order-'));
  for (const [name, routeOrder] of Object.entries(ORDERS))
    servers.set(
      name,
      await startTestServer({ dataDir, now: () => NOW, ...(routeOrder ? { routeOrder } : {}) }),
    );
  // One database for all three: what one wrote, each reads.
  const { storage } = servers.get('as written')!;
  for (const id of ['t1', 't2', 't3'])
    await storage.library.insert(completedRow(OWNER, id, { prompt: `a red chair ${id}` }));
  await storage.library.insert(completedRow(OWNER, 't4', { prompt: 'a red chair t1' }));
  await storage.library.archived('t1', 'a'.repeat(64));
  chairs = newCollectionId();
  theirs = newCollectionId();
  await storage.collections.create(OWNER, chairs, 'Chairs', NOW);
  await storage.collections.create(OTHER, theirs, 'Chairs', NOW);
  await storage.collections.changeMembers(OWNER, chairs, { add: ['t1', 't3'], remove: [] }, NOW);
  token = newShareToken();
  await storage.shares.create(OWNER, 't1', token, NOW);
}, 60_000);

afterAll(async () => {
  for (const s of servers.values()) await s.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Requests whose answers are compared: reads, writes that end the same each time, refusals. */
const requests = (): [string, RequestInit & { key?: string | null }][] => [
  ['/api/library', {}],
  [`/api/library?collection=${chairs}`, {}],
  [`/api/library?collection=${theirs}`, {}],
  ['/api/library?collection=chairs', {}],
  ['/api/library?limit=0', {}],
  ['/api/library/t1', {}],
  ['/api/library/t2', {}],
  ['/api/library/t1/same-input', {}],
  ['/api/library/t2', { method: 'PATCH', body: JSON.stringify({ name: 'Blue chair' }) }],
  ['/api/library/t2', { method: 'PATCH', body: JSON.stringify({ colour: 'blue' }) }],
  [
    '/api/library/bulk',
    { method: 'POST', body: JSON.stringify({ ids: ['t3', 'x'], action: 'favourite' }) },
  ],
  ['/api/library/t2/thumbnail', { method: 'PUT', body: 'not a picture' }],
  ['/api/library/t1/share', {}],
  ['/api/library/t2/share', {}],
  [`/api/shares/${token}`, { key: null }],
  ['/api/collections', {}],
  [`/api/collections/${chairs}`, {}],
  ['/api/credits', {}],
  ['/api/library/t1/nothing-here', {}],
  // MCP over HTTP (POST only) and its key check.
  ['/mcp', {}],
  ['/mcp', { key: null, method: 'POST', body: '{}' }],
  // Without a key: each route says what the key is needed for.
  ['/api/library', { key: null }],
  ['/api/library/t1', { key: null }],
  ['/api/library/t1/share', { key: null }],
  ['/api/library/t1/optimise', { key: null, method: 'POST', body: '{"preset":"web"}' }],
  ['/api/library/download.zip?ids=t1', { key: null }],
  ['/api/collections', { key: null }],
  ['/api/credits', { key: null }],
  ['/api/library/t1/nothing-here', { key: null }],
];

/** An answer as compared: status, type and body (the request id differs by design). */
async function answer(s: TestServer, path: string, init: RequestInit & { key?: string | null }) {
  const res = await s.request(path, init);
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    body: await res.text(),
  };
}

describe('the order Kiln’s routes are mounted in', () => {
  it('changes no answer: entries with their share and collections, filters, refusals', async () => {
    // Once first, so that the writes among them have happened before any answer is kept: each
    // order then answers the same requests over the same data.
    for (const [path, init] of requests()) await answer(servers.get('as written')!, path, init);
    const answers = new Map<string, Awaited<ReturnType<typeof answer>>[]>();
    for (const [name, s] of servers) {
      const got = [];
      for (const [path, init] of requests()) got.push(await answer(s, path, init));
      answers.set(name, got);
    }
    const written = answers.get('as written')!;
    expect(answers.get('reversed')).toEqual(written);
    expect(answers.get('shuffled')).toEqual(written);

    // What is compared is what the routes are for: every entry has its share and collections.
    const page = LibraryPageSchema.parse(JSON.parse(written[0]!.body));
    const byId = Object.fromEntries(page.data.map((e) => [e.id, e]));
    expect(byId.t1).toMatchObject({
      collections: [chairs],
      share: { url: `http://kiln.test/s/${token}`, created_ms: NOW },
      archived: true,
    });
    expect(byId.t2).toMatchObject({ collections: [], share: null, name: 'Blue chair' });
    expect(byId.t3?.collections).toEqual([chairs]);
    const filtered = LibraryPageSchema.parse(JSON.parse(written[1]!.body));
    expect(filtered.data.map((e) => e.id).sort()).toEqual(['t1', 't3']);
    expect(written[2]).toMatchObject({ status: 404 });
    expect(JSON.parse(written[2]!.body).error).toMatchObject({ param: 'collection' });
    expect(JSON.parse(written[3]!.body).error).toMatchObject({ param: 'collection' });
    expect(JSON.parse(written[5]!.body)).toMatchObject({ id: 't1', collections: [chairs] });
    expect(JSON.parse(written[7]!.body).data[0]).toMatchObject({ id: 't4', collections: [] });
    expect([written[19]!.status, written[20]!.status]).toEqual([405, 401]);
    const refusals = written.slice(-8).map((a) => [a.status, JSON.parse(a.body).error?.message]);
    expect(refusals).toEqual([
      [401, expect.stringMatching(/to see your library\.$/)],
      [401, expect.stringMatching(/to see your library\.$/)],
      [401, expect.stringMatching(/to share a model\.$/)],
      [401, expect.stringMatching(/to optimise your models\.$/)],
      [401, expect.stringMatching(/to download your models\.$/)],
      [401, expect.stringMatching(/to see your collections\.$/)],
      [401, expect.stringMatching(/to see your credits\.$/)],
      [404, expect.stringMatching(/^No route GET/)],
    ]);
  }, 120_000);
});
