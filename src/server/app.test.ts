import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CompletedTaskSchema,
  CreditsSchema,
  LibraryEntrySchema,
  LibraryPageSchema,
  PendingTaskSchema,
  TaskSchema,
  UploadResultSchema,
} from '../contract/index.ts';
import { hashKey } from '../mock/keys.ts';
import { memoryModelFiles } from '../mock/model-files.ts';
import { readPhoto } from '../testing/fixtures.ts';
import { ledgerOf, photoDataUri } from '../testing/mock.ts';
import { KTX2_WORKER_CSP } from './app.ts';
import { KEY, pollUntilDone, post, startTestServer, type TestServer } from '../testing/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const CHAIR = photoDataUri('chair.png');
describe('proxy', () => {
  it('passes method, path, query, body and status through, with Authorization and without cookies', async () => {
    const seen: Request[] = [];
    server = await startTestServer({
      upstream: {
        baseUrl: 'https://upstream.test/v1',
        fetch: async (r) => {
          seen.push(r);
          return new Response(JSON.stringify({ echoed: await r.text() }), {
            status: 418,
            headers: {
              'content-type': 'application/json',
              'x-request-id': 'req_1',
              'set-cookie': 'a=b',
            },
          });
        },
      },
    });
    const res = await server.request('/api/v1/some/where?x=1&y=two', {
      method: 'PUT',
      body: '{"hello":"world"}',
      headers: { cookie: 'session=secret', 'x-other-credential': 'nope' },
    });
    expect(res.status).toBe(418);
    expect(await res.json()).toEqual({ echoed: '{"hello":"world"}' });
    // The upstream's request id comes back under its own name; Kiln's own is the request's,
    // and went upstream with it.
    expect(res.headers.get('x-upstream-request-id')).toBe('req_1');
    expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{12}$/);
    expect(seen[0]?.headers.get('x-request-id')).toBe(res.headers.get('x-request-id'));
    expect(res.headers.get('set-cookie')).toBeNull();
    const req = seen[0];
    expect(req?.method).toBe('PUT');
    expect(req?.url).toBe('https://upstream.test/v1/some/where?x=1&y=two');
    expect(req?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(req?.headers.get('cookie')).toBeNull();
    expect(req?.headers.get('x-other-credential')).toBeNull();
  });

  it('answers 502 with the error body when the upstream is unreachable', async () => {
    server = await startTestServer({
      upstream: { baseUrl: 'http://127.0.0.1:9/v1', fetch: (r) => fetch(r) },
    });
    const res = await server.request('/api/v1/models');
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({
      error: { type: 'api_error', code: 'upstream_unreachable' },
    });
  });

  it('answers 504 when the upstream does not answer in time', async () => {
    server = await startTestServer({
      timeouts: { syncMs: 200, defaultMs: 50 },
      upstream: {
        baseUrl: 'https://upstream.test/v1',
        fetch: (r) =>
          new Promise((_, reject) =>
            r.signal.addEventListener('abort', () => reject(r.signal.reason as Error)),
          ),
      },
    });
    const res = await server.request('/api/v1/tasks/abc');
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ error: { code: 'upstream_timeout' } });
  });

  it('answers 504 in time even when the upstream fetch never honours the abort', async () => {
    // A Request's signal follows the proxy's through a weak reference in undici: after a garbage
    // collection the abort may never reach the fetch. The reply must not wait on it.
    server = await startTestServer({
      timeouts: { syncMs: 200, defaultMs: 50 },
      upstream: { baseUrl: 'https://upstream.test/v1', fetch: () => new Promise(() => {}) },
    });
    const res = await server.request('/api/v1/tasks/abc');
    expect(res.status).toBe(504);
    expect(await res.json()).toMatchObject({ error: { code: 'upstream_timeout' } });
  });

  it('sends a sync create upstream as async, and waits for its task by polling', async () => {
    const sent: unknown[] = [];
    let polls = 0;
    const task = (status: string) => ({
      id: 't',
      object: status === 'completed' ? '3d.generation' : 'task',
      status,
      created: 1,
      progress: status === 'completed' ? 100 : 40,
      data:
        status === 'completed'
          ? { model_url: 'https://upstream.test/m.glb', format: 'glb', model: 'beta-text' }
          : null,
      ...(status === 'completed'
        ? { completed_at: 2, usage: { credits_consumed: 10, credits_remaining: 990 } }
        : {}),
    });
    server = await startTestServer({
      upstream: {
        baseUrl: 'https://upstream.test/v1',
        fetch: async (r) => {
          if (r.method === 'POST') {
            sent.push(await r.json());
            return Response.json(task('pending'), { status: 202 });
          }
          return Response.json(task(++polls < 3 ? 'pending' : 'completed'));
        },
      },
      fetchGlb: async () => new Uint8Array(0),
    });
    const res = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'a', mode: 'sync' }),
    );
    expect(sent).toEqual([{ model: 'beta-text', prompt: 'a', mode: 'async' }]);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: 't', status: 'completed' });
    expect(polls).toBe(3);
  });

  it('answers a sync create the pending shape past its wait, and at once when shutting down', async () => {
    const pending = { id: 't', object: 'task', status: 'pending', created: 1, data: null };
    const upstream = {
      baseUrl: 'https://upstream.test/v1',
      fetch: async (r: Request) =>
        r.method === 'POST'
          ? Response.json(pending, { status: 202 })
          : Response.json({ ...pending, progress: 40 }),
    };
    server = await startTestServer({ upstream, timeouts: { syncMs: 300, defaultMs: 5_000 } });
    const waited = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'a', mode: 'sync' }),
    );
    expect(waited.status).toBe(202);
    expect(await waited.json()).toEqual(pending);
    await server.close();
    server = await startTestServer({ upstream, timeouts: { syncMs: 60_000, defaultMs: 5_000 } });
    const started = Date.now();
    const answer = server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'b', mode: 'sync' }),
    );
    await new Promise((r) => setTimeout(r, 300));
    server.server.drain();
    const res = await answer;
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual(pending);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('passes the upstream’s own errors through unchanged', async () => {
    server = await startTestServer();
    const res = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'alpha-multiview', image_urls: ['https://x.test/1.png'] }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error: { param: 'image_urls', code: 'invalid_image_count' },
    });
    const denied = await server.request('/api/v1/models', { key: 'tr_not_a_key' });
    expect(denied.status).toBe(401);
  });
});

describe('idempotent creates', () => {
  it('returns the first response for a repeat with the same key, and makes one task', async () => {
    server = await startTestServer();
    const init = () => post({ model: 'alpha', image_url: CHAIR }, { 'idempotency-key': 'click-1' });
    const first = await server.request('/api/v1/3d/generations', init());
    const second = await server.request('/api/v1/3d/generations', init());
    expect(first.status).toBe(202);
    expect(second.status).toBe(202);
    const a = PendingTaskSchema.parse(await first.json());
    const b = PendingTaskSchema.parse(await second.json());
    expect(b.id).toBe(a.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(
      (await ledgerOf(server.mock.store, hashKey(KEY))).pending +
        (await ledgerOf(server.mock.store, hashKey(KEY))).completed,
    ).toBe(1);
  });

  it('makes one task from ten concurrent repeats still in flight', async () => {
    server = await startTestServer({
      mock: {
        syncWaitMs: 200,
        speed: { initializing: 100, downloading: 0, generating: 0, processing: 0, uploading: 0 },
      },
    });
    const s = server;
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        s.request(
          '/api/v1/3d/generations',
          post(
            { model: 'beta-text', prompt: 'a vase', mode: 'sync' },
            { 'idempotency-key': 'double-click' },
          ),
        ),
      ),
    );
    const ids = new Set(
      await Promise.all(responses.map(async (r) => TaskSchema.parse(await r.json()).id)),
    );
    expect(ids.size).toBe(1);
    const tasks = await s.mock.store.tasksOf(hashKey(KEY));
    expect(tasks).toHaveLength(1);
  });

  it('refuses the same key with a different body with 409', async () => {
    server = await startTestServer();
    await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'one' }, { 'idempotency-key': 'k' }),
    );
    const res = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'two' }, { 'idempotency-key': 'k' }),
    );
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ error: { param: 'Idempotency-Key' } });
  });

  it('treats the same body with other whitespace or key order as the same request', async () => {
    server = await startTestServer();
    const a = await server.request('/api/v1/3d/generations', {
      method: 'POST',
      body: '{"model":"beta-text","prompt":"x"}',
      headers: { 'idempotency-key': 'k2' },
    });
    const b = await server.request('/api/v1/3d/generations', {
      method: 'POST',
      body: '{ "prompt": "x",\n "model": "beta-text" }',
      headers: { 'idempotency-key': 'k2' },
    });
    expect(TaskSchema.parse(await b.json()).id).toBe(TaskSchema.parse(await a.json()).id);
  });

  it('keys are per API key, and creates without a key are not deduplicated', async () => {
    server = await startTestServer({
      mock: {
        keys: [
          { key: KEY, balance: 100 },
          { key: 'tr_other_key', balance: 100 },
        ],
      },
    });
    const body = post({ model: 'beta-text', prompt: 'x' }, { 'idempotency-key': 'same' });
    const mine = TaskSchema.parse(
      await (await server.request('/api/v1/3d/generations', body)).json(),
    );
    const theirs = TaskSchema.parse(
      await (
        await server.request('/api/v1/3d/generations', { ...body, key: 'tr_other_key' })
      ).json(),
    );
    expect(theirs.id).not.toBe(mine.id);
    const plain = post({ model: 'beta-text', prompt: 'x' });
    const one = TaskSchema.parse(
      await (await server.request('/api/v1/3d/generations', plain)).json(),
    );
    const two = TaskSchema.parse(
      await (await server.request('/api/v1/3d/generations', plain)).json(),
    );
    expect(two.id).not.toBe(one.id);
  });

  it('does not keep a 5xx, so a retry with the same key can still succeed', async () => {
    let calls = 0;
    server = await startTestServer({
      upstream: {
        baseUrl: 'https://upstream.test/v1',
        fetch: async (req) => {
          // The key is checked first (decision 0092): the listing answers, and is not counted.
          if (new URL(req.url).pathname.endsWith('/models'))
            return Response.json({ object: 'list', data: [] });
          calls++;
          return calls === 1
            ? new Response('oops', { status: 503 })
            : Response.json(
                { id: 'task_ok', object: 'task', status: 'pending', created: 1, data: null },
                { status: 202 },
              );
        },
      },
    });
    const init = () => post({ model: 'beta-text', prompt: 'x' }, { 'idempotency-key': 'retry-me' });
    expect((await server.request('/api/v1/3d/generations', init())).status).toBe(503);
    expect((await server.request('/api/v1/3d/generations', init())).status).toBe(202);
    expect(
      (await server.request('/api/v1/3d/generations', init())).headers.get('idempotent-replayed'),
    ).toBe('true');
    expect(calls).toBe(2);
  });

  it('refuses a malformed Idempotency-Key', async () => {
    server = await startTestServer();
    const res = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'x' }, { 'idempotency-key': 'x'.repeat(300) }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: 'Idempotency-Key' } });
  });
});

describe('library, archive and credits', () => {
  it('records a task, follows it to completion, archives its GLB and serves it forever', async () => {
    server = await startTestServer();
    const created = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'alpha', image_url: CHAIR }),
    );
    const { id } = PendingTaskSchema.parse(await created.json());
    const { task, res } = await pollUntilDone(server, id);
    const done = CompletedTaskSchema.parse(task);
    // The two sides meet at the library entry: the poll that saw the task complete waited for
    // the archive, so the entry the SPA reads next names Kiln's copy (no header carries it).
    expect(res.headers.get('x-kiln-asset-url')).toBeNull();
    const page = LibraryPageSchema.parse(await (await server.request('/api/library')).json());
    expect(page.data).toHaveLength(1);
    const entry = page.data[0];
    const asset = entry?.model_url;
    expect(asset).toMatch(/^\/api\/assets\/[a-f0-9]{64}\.glb\?exp=\d+&sig=[\w-]{43}$/);
    expect(entry?.archive).toEqual({
      state: 'archived',
      attempts: 1,
      error: null,
      next_attempt_ms: null,
    });
    expect(entry).toMatchObject({
      id,
      model: 'alpha',
      mode: 'async',
      status: 'completed',
      progress: 100,
      credits_consumed: 10,
      credits_remaining: 990,
      archived: true,
      model_url: asset,
      prompt: null,
    });
    expect(entry?.images[0]?.url).toMatch(/^data:image\/png \([\d.]+ (B|kB)\)$/);

    const glb = await server.request(asset ?? '', { key: null });
    expect(glb.status).toBe(200);
    expect(glb.headers.get('content-type')).toBe('model/gltf-binary');
    expect(glb.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    const bytes = new Uint8Array(await glb.arrayBuffer());
    // The owner's file: a bare hash opens nothing, nor a forged or changed signature; the
    // owner's key opens it; another key does not.
    const bare = asset!.split('?')[0]!;
    expect((await server.request(bare, { key: null })).status).toBe(404);
    expect(
      (await server.request(`${bare}?exp=99999999999&sig=${'a'.repeat(43)}`, { key: null })).status,
    ).toBe(404);
    expect(
      (await server.request(asset!.replace(/exp=\d+/, 'exp=99999999999'), { key: null })).status,
    ).toBe(404);
    expect((await server.request(bare)).status).toBe(200);
    expect((await server.request(bare, { key: 'tr_someone_else' })).status).toBe(404);
    const upstream = await server.request(new URL(done.data.model_url).pathname, { key: null });
    expect(bytes).toEqual(new Uint8Array(await upstream.arrayBuffer()));
  });

  it('keeps the model when the upstream URL has expired', async () => {
    const files = memoryModelFiles();
    let expired = false;
    server = await startTestServer({
      mock: {
        files: {
          save: files.save,
          read: (id) => (expired ? Promise.resolve(undefined) : files.read(id)),
        },
      },
    });
    const created = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'a cube', mode: 'sync' }),
    );
    expect(created.status).toBe(200);
    const task = CompletedTaskSchema.parse(await created.json());
    const before = LibraryPageSchema.parse(await (await server.request('/api/library')).json());
    const asset = before.data[0]?.model_url;
    expect(asset).toMatch(/^\/api\/assets\//);

    expired = true;
    expect(
      (await server.request(new URL(task.data.model_url).pathname, { key: null })).status,
    ).toBe(404);
    const page = LibraryPageSchema.parse(await (await server.request('/api/library')).json());
    expect(page.data[0]?.model_url).toBe(asset);
    const glb = await server.request(asset ?? '', { key: null });
    expect(glb.status).toBe(200);
    expect(new TextDecoder().decode(new Uint8Array(await glb.arrayBuffer()).slice(0, 4))).toBe(
      'glTF',
    );
  });

  it('backs off a failed archive: polls never download again, retries come at 30 s, 2 min, 10 min, 1 h, then Kiln gives up and says so', async () => {
    let now = 1_900_000_000_000;
    let attempts = 0;
    server = await startTestServer({
      now: () => now,
      fetchGlb: async () => {
        attempts++;
        throw new Error('connection reset');
      },
    });
    const created = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'x', mode: 'sync' }),
    );
    expect(created.status).toBe(200);
    const { id } = TaskSchema.parse(await created.json());
    expect(attempts).toBe(1);
    const entryOf = async () =>
      LibraryEntrySchema.parse(await (await server!.request(`/api/library/${id}`)).json());
    expect((await entryOf()).archive).toEqual({
      state: 'retrying',
      attempts: 1,
      error: 'connection reset',
      next_attempt_ms: now + 30_000,
    });
    // Polls of the completed task neither download again nor wait.
    for (let i = 0; i < 10; i++)
      expect((await server.request(`/api/v1/tasks/${id}`)).status).toBe(200);
    expect(attempts).toBe(1);

    for (const [wait, expected] of [
      [29_000, 1],
      [1_000, 2],
      [2 * 60_000, 3],
      [10 * 60_000, 4],
      [60 * 60_000, 5],
    ] as const) {
      now += wait;
      await server.server.sweep();
      expect(attempts).toBe(expected);
    }
    const entry = await entryOf();
    expect(entry.archived).toBe(false);
    expect(entry.archive).toMatchObject({ state: 'failed', attempts: 5, next_attempt_ms: null });
    expect(entry.model_url).toMatch(/\/mock\/v1\/files\//); // the upstream's link, while it lasts
    now += 24 * 60 * 60_000;
    await server.server.sweep();
    expect(attempts).toBe(5);
  });

  it('downloads a task once at a time, and a poll never waits on a retry', async () => {
    let now = 1_900_000_000_000;
    let calls = 0;
    let release!: () => void;
    const hanging = new Promise<void>((r) => (release = r));
    server = await startTestServer({
      now: () => now,
      fetchGlb: async () => {
        calls++;
        if (calls === 1) throw new Error('first try fails');
        await hanging; // the retry hangs until released
        const { Document, NodeIO } = await import('@gltf-transform/core');
        return new NodeIO().writeBinary(new Document());
      },
    });
    const created = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'y', mode: 'sync' }),
    );
    const { id } = TaskSchema.parse(await created.json());
    now += 30_000;
    const sweeps = [server.server.sweep(), server.server.sweep(), server.server.sweep()];
    // While the retry hangs, polls answer (they do not wait on it) and no second download starts.
    for (let i = 0; i < 5; i++)
      expect((await server.request(`/api/v1/tasks/${id}`)).status).toBe(200);
    expect(calls).toBe(2);
    release();
    await Promise.all(sweeps);
    const entry = LibraryEntrySchema.parse(
      await (await server.request(`/api/library/${id}`)).json(),
    );
    expect(entry.archived).toBe(true);
    expect(calls).toBe(2);
  });

  it('lists newest first with cursor pagination, per key, and hides on delete', async () => {
    server = await startTestServer({
      mock: {
        keys: [
          { key: KEY, balance: 1000 },
          { key: 'tr_other_key', balance: 100 },
        ],
      },
    });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await server.request(
        '/api/v1/3d/generations',
        post({ model: 'beta-text', prompt: `thing ${i}` }),
      );
      ids.push(TaskSchema.parse(await r.json()).id);
    }
    const first = LibraryPageSchema.parse(
      await (await server.request('/api/library?limit=2')).json(),
    );
    expect(first.data.map((e) => e.id)).toEqual([ids[4], ids[3]]);
    expect(first.next_cursor).not.toBeNull();
    const second = LibraryPageSchema.parse(
      await (await server.request(`/api/library?limit=2&cursor=${first.next_cursor}`)).json(),
    );
    expect(second.data.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    const third = LibraryPageSchema.parse(
      await (await server.request(`/api/library?limit=2&cursor=${second.next_cursor}`)).json(),
    );
    expect(third.data.map((e) => e.id)).toEqual([ids[0]]);
    expect(third.next_cursor).toBeNull();

    const other = LibraryPageSchema.parse(
      await (await server.request('/api/library', { key: 'tr_other_key' })).json(),
    );
    expect(other.data).toEqual([]);
    expect((await server.request(`/api/library/${ids[2]}`, { key: 'tr_other_key' })).status).toBe(
      404,
    );
    const one = LibraryEntrySchema.parse(
      await (await server.request(`/api/library/${ids[2]}`)).json(),
    );
    expect(one).toMatchObject({ id: ids[2], prompt: 'thing 2' });
    expect(
      (await server.request(`/api/library/${ids[2]}`, { method: 'DELETE', key: 'tr_other_key' }))
        .status,
    ).toBe(404);

    expect((await server.request(`/api/library/${ids[2]}`, { method: 'DELETE' })).status).toBe(204);
    const after = LibraryPageSchema.parse(
      await (await server.request('/api/library?limit=10')).json(),
    );
    expect(after.data.map((e) => e.id)).toEqual([ids[4], ids[3], ids[1], ids[0]]);
    // Read by its id, a hidden task says so (no endless wait for a 404 in the studio).
    const hidden = LibraryEntrySchema.parse(
      await (await server.request(`/api/library/${ids[2]}`)).json(),
    );
    expect(hidden).toMatchObject({ id: ids[2], hidden: true });
    expect((await server.request(`/api/library/${ids[2]}`, { key: 'tr_other_key' })).status).toBe(
      404,
    );

    // Unhide: it is back in the list, in its place.
    const patch = (body: string, key?: string) =>
      server!.request(`/api/library/${ids[2]}`, {
        method: 'PATCH',
        body,
        headers: { 'content-type': 'application/json' },
        ...(key ? { key } : {}),
      });
    expect((await patch('{"hidden":false}', 'tr_other_key')).status).toBe(404);
    const bad = await patch('{"hidden":"no"}');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { param: 'hidden' } });
    expect((await patch('not json')).status).toBe(400);
    const shown = await patch('{"hidden":false}');
    expect(shown.status).toBe(200);
    expect(LibraryEntrySchema.parse(await shown.json()).hidden).toBeUndefined();
    const back = LibraryPageSchema.parse(
      await (await server.request('/api/library?limit=10')).json(),
    );
    expect(back.data.map((e) => e.id)).toEqual([ids[4], ids[3], ids[2], ids[1], ids[0]]);
  });

  it('needs a key: no key, no library', async () => {
    server = await startTestServer();
    expect((await server.request('/api/library', { key: null })).status).toBe(401);
    expect((await server.request('/api/credits', { key: null })).status).toBe(401);
    const bad = await server.request('/api/library?limit=0');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { param: 'limit' } });
    expect((await server.request('/api/library?cursor=abc')).status).toBe(400);
  });

  it('tracks the balance and its history, including a refund', async () => {
    server = await startTestServer();
    const s = server;
    await s.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'a', mode: 'sync' }),
    );
    const failed = await s.request(
      '/api/v1/3d/generations',
      post({ model: 'alpha', image_url: 'http://127.0.0.1:9/x.png' }),
    );
    const { id } = TaskSchema.parse(await failed.json());
    const { task } = await pollUntilDone(s, id);
    expect(task.status).toBe('failed');
    await s.request(
      '/api/v1/3d/generations',
      post({ model: 'gamma', image_url: CHAIR, mode: 'sync' }),
    );
    const credits = CreditsSchema.parse(await (await s.request('/api/credits')).json());
    expect(credits).toMatchObject({ balance: 1000 - 10 - 30, exact: true, note: null });
    // The failed task's charge and its refund are in the history, each with what it changed.
    expect(credits.history.map((h) => [h.kind, h.balance, h.change])).toEqual([
      ['stated', 990, -10],
      ['charge', 980, -10],
      ['refund', 990, 10],
      ['charge', 960, -30],
    ]);
    const entry = LibraryPageSchema.parse(await (await s.request('/api/library')).json()).data.find(
      (e) => e.id === id,
    );
    expect(entry).toMatchObject({ status: 'failed', error: { code: 'image_download_failed' } });
  });

  it('names a task’s photo in the library by the file name it was uploaded with', async () => {
    server = await startTestServer();
    const form = new FormData();
    form.append(
      'file',
      new Blob([readPhoto('chair.png') as Uint8Array<ArrayBuffer>]),
      'Grandma’s chair.png',
    );
    const up = UploadResultSchema.parse(
      await (await server.request('/api/uploads', { method: 'POST', body: form })).json(),
    );
    const res = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'alpha', image_url: up.url }),
    );
    const { id } = TaskSchema.parse(await res.json());
    const entry = LibraryEntrySchema.parse(
      await (await server.request(`/api/library/${id}`)).json(),
    );
    expect(entry.images).toEqual([
      { url: up.url, upload: `/api/uploads/${up.sha256}.png`, name: 'Grandma’s chair.png' },
    ]);
    // A task names it now: the retention sweep leaves it however old it gets.
    expect(await server.storage.uploads.unreferenced(Date.now() + 365 * 86_400_000, 10)).toEqual(
      [],
    );
  });

  it('learns the balance from a refusal for want of credits, before any task', async () => {
    server = await startTestServer({ mock: { keys: [{ key: KEY, balance: 5 }] } });
    const before = CreditsSchema.parse(await (await server.request('/api/credits')).json());
    expect(before.balance).toBeNull();
    const refused = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'gamma', image_url: CHAIR }),
    );
    expect(refused.status).toBe(402);
    expect(await refused.json()).toMatchObject({ error: { code: 'insufficient_credits' } });
    const after = CreditsSchema.parse(await (await server.request('/api/credits')).json());
    expect(after.balance).toBe(5);
    expect(after.history).toEqual([expect.objectContaining({ balance: 5, task_id: null })]);
  });

  it('in mock mode, shows the mock’s balance for the key before any task states one, as of now', async () => {
    let now = 1_700_000_000_000;
    server = await startTestServer({
      mock: { keys: [{ key: KEY, balance: 1000 }] },
      statedBalance: true,
      now: () => now,
    });
    const first = CreditsSchema.parse(await (await server.request('/api/credits')).json());
    expect(first).toMatchObject({
      balance: 1000,
      learned_ms: now,
      as_of_ms: now,
      exact: true,
      note: null,
    });
    expect(first.history).toEqual([
      { balance: 1000, learned_ms: now, task_id: null, kind: 'stated', change: null },
    ]);
    // A key the mock does not know has no balance to show.
    const stranger = await server.request('/api/credits', { key: 'tr_someone_else' });
    expect(CreditsSchema.parse(await stranger.json()).balance).toBeNull();
    // Once a task states a balance, the ledger is the source again, as of that task.
    now += 60_000;
    await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'a', mode: 'sync' }),
    );
    const after = CreditsSchema.parse(await (await server.request('/api/credits')).json());
    expect(after).toMatchObject({ balance: 990, exact: true });
    expect(after.as_of_ms).toBe(after.learned_ms);
    expect(after.history.map((h) => h.kind)).toEqual(['stated']);
  });

  it('survives a restart: the library is in the database file', async () => {
    server = await startTestServer();
    const dataDir = server.dataDir;
    await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'keep me', mode: 'sync' }),
    );
    await server.storage.close();
    const { openSqliteStorage } = await import('./storage/database.ts');
    const reopened = await openSqliteStorage(join(dataDir, 'kiln.sqlite'));
    const rows = await reopened.library.list(
      (await import('./owner-id.ts')).ownerHasher(Buffer.alloc(32, 7))(KEY),
      { limit: 10 },
    );
    expect(rows[0]?.prompt).toBe('keep me');
    server.storage = reopened;
  });

  it('never writes the key to a log line or the database', async () => {
    server = await startTestServer();
    await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'x', mode: 'sync' }, { 'idempotency-key': 'k' }),
    );
    await server.request('/api/library');
    await server.request('/api/credits');
    expect(server.logs.join('\n')).not.toContain(KEY);
    expect(server.logs.join('\n')).toContain('key#');
    for (const file of ['kiln.sqlite', 'kiln.sqlite-wal']) {
      let bytes: Buffer;
      try {
        bytes = readFileSync(join(server.dataDir, file));
      } catch {
        continue;
      }
      expect(bytes.includes(Buffer.from(KEY))).toBe(false);
    }
  });
});

describe('limits and headers', () => {
  it('limits new tasks per key with 429 and Retry-After, but not replays', async () => {
    server = await startTestServer({ createsPerMinute: 2 });
    const create = (k: string) =>
      server!.request(
        '/api/v1/3d/generations',
        post({ model: 'beta-text', prompt: 'x' }, { 'idempotency-key': k }),
      );
    expect((await create('a')).status).toBe(202);
    expect((await create('b')).status).toBe(202);
    const limited = await create('c');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.json()).toMatchObject({ error: { type: 'rate_limit_error' } });
    expect((await create('a')).status).toBe(202);
  });

  it('refuses create bodies over the limit with 413', async () => {
    server = await startTestServer();
    const res = await server.request('/api/v1/3d/generations', {
      method: 'POST',
      body: JSON.stringify({
        model: 'alpha',
        image_url: `data:image/png;base64,${'A'.repeat(33 * 1024 * 1024)}`,
      }),
    });
    expect(res.status).toBe(413);
  });

  it('gives the KTX2 worker a CSP of its own that allows eval, and no other file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiln-static-'));
    mkdirSync(join(dir, 'decoders/basis'), { recursive: true });
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Kiln</title>');
    writeFileSync(join(dir, 'decoders/basis/ktx2-worker.js'), 'self.onmessage = () => {};');
    writeFileSync(join(dir, 'assets/app.js'), 'console.log(1);');
    server = await startTestServer({ staticDir: dir });
    const worker = await server.request('/decoders/basis/ktx2-worker.js');
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-security-policy')).toBe(KTX2_WORKER_CSP);
    expect(KTX2_WORKER_CSP).toContain("'unsafe-eval'");
    expect(KTX2_WORKER_CSP).toContain("default-src 'none'");
    for (const path of ['/', '/viewer', '/assets/app.js']) {
      const res = await server.request(path);
      expect(res.status, path).toBe(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp, path).not.toContain("'unsafe-eval'");
    }
  });

  it('sends precompressed siblings by Accept-Encoding: br, then gzip, else the file itself', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiln-static-'));
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Kiln</title>');
    const js = 'export const answer = () => 42;\n'.repeat(100);
    writeFileSync(join(dir, 'assets/app.js'), js);
    writeFileSync(join(dir, 'assets/app.js.br'), brotliCompressSync(js));
    writeFileSync(join(dir, 'assets/app.js.gz'), gzipSync(js));
    server = await startTestServer({ staticDir: dir });
    const cases = [
      ['br, gzip', 'br'],
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['deflate, gzip', 'gzip'],
      ['identity', null],
      ['', null],
    ] as const;
    for (const [accept, encoding] of cases) {
      const res = await server.request('/assets/app.js', {
        headers: { 'accept-encoding': accept },
      });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-encoding'), accept).toBe(encoding);
      expect(res.headers.get('content-type'), accept).toMatch(/^text\/javascript/);
      expect(res.headers.get('vary'), accept).toBe('Accept-Encoding');
      expect(res.headers.get('cache-control'), accept).toBe('public, max-age=31536000, immutable');
      const body = Buffer.from(await res.arrayBuffer());
      const decoded =
        encoding === 'br'
          ? brotliDecompressSync(body)
          : encoding === 'gzip'
            ? gunzipSync(body)
            : body;
      expect(Number(res.headers.get('content-length')), accept).toBe(body.length);
      expect(decoded.toString('utf8'), accept).toBe(js);
    }
  });

  it('sends files without siblings as they are, and the SPA shell for client routes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiln-static-'));
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Kiln</title>');
    writeFileSync(join(dir, 'assets/tiny.js'), 'console.log(1);');
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    server = await startTestServer({ staticDir: dir });
    const headers = { 'accept-encoding': 'br, gzip' };
    const tiny = await server.request('/assets/tiny.js', { headers });
    expect(tiny.headers.get('content-encoding')).toBeNull();
    expect(tiny.headers.get('vary')).toBeNull();
    expect(tiny.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await tiny.text()).toBe('console.log(1);');
    const icon = await server.request('/favicon.svg', { headers });
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(icon.headers.get('cache-control')).toBeNull(); // not content-hashed
    const shell = await server.request('/viewer', { headers });
    expect(shell.headers.get('content-type')).toMatch(/^text\/html/);
    expect(shell.headers.get('cache-control')).toBe('no-cache');
    expect(await shell.text()).toContain('<title>Kiln</title>');
  });

  it('names the viewer chunks in the /viewer shell from the build manifest, which is not served', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiln-static-'));
    mkdirSync(join(dir, '.vite'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><head><title>Kiln</title></head>');
    const manifest = {
      'index.html': { file: 'assets/index-1.js', isEntry: true },
      'src/web/features/viewer/viewer-page.tsx': { file: 'assets/viewer-page-2.js' },
      'src/web/features/viewer/model-viewer.tsx': {
        file: 'assets/model-viewer-3.js',
        imports: ['index.html'],
      },
    };
    writeFileSync(join(dir, '.vite/manifest.json'), JSON.stringify(manifest));
    server = await startTestServer({ staticDir: dir });
    const viewer = await (await server.request('/viewer?src=/api/assets/x.glb')).text();
    expect(viewer).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/viewer-page-2.js" />',
    );
    expect(viewer).toContain('href="/assets/model-viewer-3.js"');
    expect(viewer).not.toContain('index-1.js');
    for (const path of ['/', '/gallery'])
      expect(await (await server.request(path)).text(), path).not.toContain('modulepreload');
    expect((await server.request('/.vite/manifest.json')).status).toBe(404);
  });

  it('keeps the KTX2 worker CSP when the worker goes out compressed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiln-static-'));
    mkdirSync(join(dir, 'decoders/basis'), { recursive: true });
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Kiln</title>');
    const worker = 'self.onmessage = () => {};\n'.repeat(100);
    writeFileSync(join(dir, 'decoders/basis/ktx2-worker.js'), worker);
    writeFileSync(join(dir, 'decoders/basis/ktx2-worker.js.br'), brotliCompressSync(worker));
    writeFileSync(join(dir, 'decoders/basis/ktx2-worker.js.gz'), gzipSync(worker));
    server = await startTestServer({ staticDir: dir });
    const res = await server.request('/decoders/basis/ktx2-worker.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(res.headers.get('content-security-policy')).toBe(KTX2_WORKER_CSP);
    expect(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString('utf8')).toBe(
      worker,
    );
  });

  it('sends the security headers on every response', async () => {
    server = await startTestServer();
    for (const path of [
      '/api/health',
      '/api/v1/models',
      '/api/library',
      '/api/nothing',
      '/mock/v1/models',
    ]) {
      const res = await server.request(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(csp).not.toContain("'unsafe-eval'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });
});
