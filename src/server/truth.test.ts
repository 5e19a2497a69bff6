// Truth under faults, in one process (issue 22; the same on the real stack is in
// faults.scale.test.ts): nothing the upstream charged goes unrecorded, a write that failed is
// written again without a restart, and text no store can hold is refused before any charge.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CreditsSchema,
  ErrorBodySchema,
  LibraryEntrySchema,
  TaskSchema,
  type Task,
} from '../contract/index.ts';
import { photoPath } from '../testing/fixtures.ts';
import { ledgerOf } from '../testing/mock.ts';
import type { Outage } from '../testing/outage.ts';
import {
  KEY,
  pollUntilDone as pollDone,
  post,
  startTestServer,
  type TestServer,
} from '../testing/server.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const keyHash = createHash('sha256').update(KEY).digest('hex');

async function pollUntilDone(s: TestServer, id: string): Promise<Task> {
  return (await pollDone(s, id)).task;
}

async function entryOf(s: TestServer, id: string) {
  const res = await s.request(`/api/library/${id}`);
  expect(res.status).toBe(200);
  return LibraryEntrySchema.parse(await res.json());
}

describe('a database outage', () => {
  it('a completion seen while the database is away is written by the next poll', async () => {
    const database: Outage = { down: false };
    server = await startTestServer({ outages: { database } });
    const created = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'a vase' }),
    );
    expect(created.status).toBe(202);
    const { id } = TaskSchema.parse(await created.json());
    database.down = true;
    // The upstream's answer still reaches the artist while the library cannot take it.
    const done = await pollUntilDone(server, id);
    expect(done.status).toBe('completed');
    expect((await server.request(`/api/library/${id}`)).status).toBe(503);
    database.down = false;
    // The same body again: it was never written, so it is written now (and archived).
    expect((await server.request(`/api/v1/tasks/${id}`)).status).toBe(200);
    expect(await entryOf(server, id)).toMatchObject({ status: 'completed', archived: true });
  });

  it('a completion nobody polls again is caught up by the next read of the library', async () => {
    const database: Outage = { down: false };
    let clock = Date.now();
    server = await startTestServer({ outages: { database }, now: () => clock });
    const { id } = TaskSchema.parse(
      await (
        await server.request(
          '/api/v1/3d/generations',
          post({ model: 'beta-text', prompt: 'a cup' }),
        )
      ).json(),
    );
    database.down = true;
    expect((await pollUntilDone(server, id)).status).toBe('completed');
    database.down = false;
    // The tab closed: nothing polls the task again. A while later the gallery is opened.
    clock += 10_000;
    const page = await (await server.request('/api/library')).json();
    expect(page.data.find((e: { id: string }) => e.id === id)).toMatchObject({
      status: 'completed',
    });
    // Its archive goes on without anybody waiting; it is there soon after.
    let entry = await entryOf(server, id);
    for (let i = 0; !entry.archived && i < 100; i++) {
      await new Promise((r) => setTimeout(r, 20));
      entry = await entryOf(server, id);
    }
    expect(entry).toMatchObject({
      status: 'completed',
      archived: true,
      model_url: expect.stringMatching(/^\/api\/assets\//),
    });
  });

  it('a create the database cannot record is refused, and nothing is sent or charged', async () => {
    const database: Outage = { down: true };
    server = await startTestServer({ outages: { database } });
    const before = await ledgerOf(server.mock.store, keyHash);
    const res = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'while the database is away' }),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    const body = ErrorBodySchema.parse(await res.json());
    expect(body.error.message).toMatch(/sent nothing upstream and nothing was charged/);
    const after = await ledgerOf(server.mock.store, keyHash);
    expect(after.balance).toBe(before.balance);
    expect(after.completed + after.pending + after.failed).toBe(0);
  });

  it('a create answered just as the database went away is written when it comes back', async () => {
    const database: Outage = { down: false };
    server = await startTestServer({ outages: { database } });
    const mockFetch = server.mock.app;
    // The database goes away between the intent and the upstream's answer.
    const s = await startTestServer({
      outages: { database },
      upstream: {
        baseUrl: 'http://mock.test/v1',
        fetch: async (r) => {
          const res = await mockFetch.request(r.url.replace('http://mock.test/v1', ''), r);
          if (r.method === 'POST') database.down = true;
          return res;
        },
      },
    });
    try {
      const res = await s.request(
        '/api/v1/3d/generations',
        post({ model: 'beta-text', prompt: 'a lamp' }),
      );
      expect(res.status).toBe(202);
      const { id } = TaskSchema.parse(await res.json());
      database.down = false;
      // Polled: written at once from what was kept in memory.
      expect((await s.request(`/api/v1/tasks/${id}`)).status).toBe(200);
      expect(await entryOf(s, id)).toMatchObject({ id, prompt: 'a lamp' });
    } finally {
      await s.close();
    }
  });
});

describe('text no store can hold', () => {
  it('is refused before anything is charged, naming the field', async () => {
    server = await startTestServer();
    const before = await ledgerOf(server.mock.store, keyHash);
    for (const [body, param] of [
      [{ model: 'beta-text', prompt: 'a\u0000vase' }, 'prompt'],
      [{ model: 'beta-text', prompt: 'half a pair \ud83d' }, 'prompt'],
      [{ model: 'alpha', image_url: 'https://x.test/a.png', note: 'x\u0000' }, 'note'],
    ] as const) {
      const res = await server.request('/api/v1/3d/generations', post(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'invalid_value', param } });
    }
    // A body the contract refuses is answered by Kiln, as the upstream would: nothing forwarded.
    const bad = await server.request('/api/v1/3d/generations', post({ model: 'alpha' }));
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { param: 'image_url' } });
    const after = await ledgerOf(server.mock.store, keyHash);
    expect(after.balance).toBe(before.balance);
  });

  it('in a path or a query is a 400, never a 500', async () => {
    server = await startTestServer();
    for (const path of [
      '/api/library/a%00b',
      '/api/v1/tasks/a%00b',
      '/api/library/a%00b/share',
      '/api/assets/%00.glb',
      '/s/a%00b',
    ]) {
      const res = await server.request(path);
      expect(res.status, path).toBe(400);
      expect(await res.json()).toMatchObject({ error: { param: 'path' } });
    }
    const q = await server.request('/api/library?q=a%00b');
    expect(q.status).toBe(400);
    expect(await q.json()).toMatchObject({ error: { param: 'q' } });
    const bulk = await server.request(
      '/api/library/bulk',
      post({ ids: ['ok', 'b\u0000'], action: 'hide' }),
    );
    expect(bulk.status).toBe(400);
    expect(await bulk.json()).toMatchObject({ error: { param: 'ids[1]' } });
  });
});

describe('JSON bodies', () => {
  it('over 1 MB get a 413 without being read, declared or streamed', async () => {
    server = await startTestServer();
    const big = JSON.stringify({
      ids: Array.from({ length: 120_000 }, (_, i) => `task_${i}`),
      action: 'hide',
    });
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const declared = await server.request('/api/library/bulk', post(JSON.parse(big)));
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ error: { code: 'body_too_large' } });
    // Streamed without a length: counted as it comes, refused once past the limit.
    let sent = 0;
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += chunk.byteLength;
        if (sent > 64 * 1024 * 1024) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const streamed = await server.request('/api/library/bulk', {
      method: 'POST',
      body: stream,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(sent).toBeLessThan(4 * 1024 * 1024);
  });
});

describe('a key the upstream does not know', () => {
  it('leaves no idempotency record, counter or intent behind', async () => {
    server = await startTestServer({ createsPerMinute: 30 });
    for (let i = 0; i < 3; i++) {
      const res = await server.request('/api/v1/3d/generations', {
        ...post({ model: 'beta-text', prompt: 'x' }, { 'idempotency-key': `k-${i}` }),
        key: 'tr_nobody',
      });
      expect(res.status).toBe(401);
    }
    const db = new Database(join(server.dataDir, 'kiln.sqlite'), { readonly: true });
    try {
      for (const table of ['idempotency_keys', 'counters', 'create_intents', 'library'])
        expect(db.prepare(`select count(*) as n from ${table}`).get(), table).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe('the balance after a create refused for want of credits', () => {
  it('is the refusal’s figure, exact', async () => {
    server = await startTestServer({ mock: { keys: [{ key: KEY, balance: 5 }] } });
    const refused = await server.request(
      '/api/v1/3d/generations',
      post({ model: 'beta-text', prompt: 'too dear' }),
    );
    expect(refused.status).toBe(402);
    const credits = CreditsSchema.parse(await (await server.request('/api/credits')).json());
    expect(credits).toMatchObject({ balance: 5, exact: true });
  });
});

describe('PUBLIC_URL without a port', () => {
  it('lets a pasted address reach that origin only, not the host’s other ports', async () => {
    server = await startTestServer({ publicUrl: 'http://127.0.0.1' });
    for (const url of [
      'http://127.0.0.1:5432/a.png',
      'http://127.0.0.1:6379/',
      'https://127.0.0.1/a.png',
    ]) {
      const res = await server.request('/api/uploads/from-url', post({ url }));
      expect(res.status, url).toBe(400);
      const { error } = ErrorBodySchema.parse(await res.json());
      expect(error.message, url).toContain(
        'Kiln fetches images only from public http(s) addresses',
      );
    }
  });
});

describe('a file store outage', () => {
  it('is said as the file store, not the database', async () => {
    const blobs: Outage = { down: true };
    server = await startTestServer({ outages: { blobs } });
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(readFileSync(photoPath('chair.png')))]),
      'chair.png',
    );
    const res = await server.request('/api/uploads', { method: 'POST', body: form });
    expect(res.status).toBe(503);
    const { error } = ErrorBodySchema.parse(await res.json());
    expect(error.message).toMatch(/file store/);
    expect(error.message).not.toMatch(/database/);
  });

  it('holds an archive until the store is back, without giving up on the model', async () => {
    const blobs: Outage = { down: true };
    let clock = Date.now();
    server = await startTestServer({ outages: { blobs }, now: () => clock });
    const created = TaskSchema.parse(
      await (
        await server.request(
          '/api/v1/3d/generations',
          post({ model: 'beta-text', prompt: 'a bowl', mode: 'sync' }),
        )
      ).json(),
    );
    expect(created.status).toBe('completed');
    let entry = await entryOf(server, created.id);
    expect(entry.archived).toBe(false);
    expect(entry.archive?.attempts).toBe(0);
    // Hours of outage: sweeps come and go, and none counts against the model.
    for (let i = 0; i < 6; i++) {
      clock += 20 * 60_000;
      await server.server.sweep();
    }
    entry = await entryOf(server, created.id);
    expect(entry.archive).toMatchObject({ attempts: 0 });
    blobs.down = false;
    clock += 20_000;
    await server.server.sweep();
    expect(await entryOf(server, created.id)).toMatchObject({ archived: true });
  });
});

describe('a revoked share', () => {
  it('leaves nothing its page sent that still opens the model or its picture', async () => {
    server = await startTestServer();
    const created = TaskSchema.parse(
      await (
        await server.request(
          '/api/v1/3d/generations',
          post({ model: 'beta-text', prompt: 'a shared boat', mode: 'sync' }),
        )
      ).json(),
    );
    const entry = await entryOf(server, created.id);
    const sha = /assets\/([a-f0-9]{64})\.glb/.exec(entry.model_url ?? '')?.[1];
    expect(sha).toBeDefined();
    const share = await (
      await server.request(`/api/library/${created.id}/share`, { method: 'POST' })
    ).json();
    const token: string = share.token;
    // What anybody with the link gets, and every address and header in it.
    const facts = await server.request(`/api/shares/${token}`, { key: null });
    const page = await server.request(`/s/${token}`, { key: null });
    const glb = await server.request(`/api/shares/${token}/model.glb`, { key: null });
    expect(glb.status).toBe(200);
    const sent = [
      await facts.text(),
      await page.text(),
      JSON.stringify([...glb.headers]),
      JSON.stringify([...facts.headers]),
    ].join('\n');
    expect(sent).not.toContain(sha);
    // The bare hash opens nothing, before or after.
    expect((await server.request(`/api/assets/${sha}.glb`, { key: null })).status).toBe(404);
    expect(
      (await server.request(`/api/library/${created.id}/share`, { method: 'DELETE' })).status,
    ).toBe(204);
    for (const path of [`/api/shares/${token}`, `/api/shares/${token}/model.glb`])
      expect((await server.request(path, { key: null })).status, path).toBe(404);
    // A client holding the link's ETag gets no 304 either.
    const etag = glb.headers.get('etag')!;
    const cached = await server.request(`/api/shares/${token}/model.glb`, {
      key: null,
      headers: { 'if-none-match': etag },
    });
    expect(cached.status).toBe(404);
    expect((await server.request(`/api/assets/${sha}.glb`, { key: null })).status).toBe(404);
  });
});

describe('a database outage is said as the database', () => {
  it('even though its error is the same refused connection a bucket gives', async () => {
    const database: Outage = { down: true };
    server = await startTestServer({ outages: { database } });
    const res = await server.request('/api/library');
    expect(res.status).toBe(503);
    const { error } = ErrorBodySchema.parse(await res.json());
    expect(error.message).toMatch(/database/);
    expect(error.message).not.toMatch(/file store/);
  });
});

describe('GET /api/ready', () => {
  it('answers 200 when the database and the file store answer, and 503 naming what is down', async () => {
    const database: Outage = { down: false };
    const blobs: Outage = { down: false };
    let clock = Date.now();
    server = await startTestServer({ outages: { database, blobs }, now: () => clock });
    const ready = await server.request('/api/ready', { key: null });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      ready: true,
      checks: { database: 'ok', file_store: 'ok' },
    });
    database.down = true;
    clock += 2_000;
    const down = await server.request('/api/ready', { key: null });
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      ready: false,
      checks: { database: 'down', file_store: 'ok' },
      error: { code: 'service_unavailable', message: expect.stringMatching(/database/) },
    });
    // Liveness does not depend on them.
    expect((await server.request('/api/health', { key: null })).status).toBe(200);
    database.down = false;
    blobs.down = true;
    clock += 2_000;
    expect(await (await server.request('/api/ready', { key: null })).json()).toMatchObject({
      checks: { database: 'ok', file_store: 'down' },
      error: { message: expect.stringMatching(/file store/) },
    });
    blobs.down = false;
    server.server.readiness.drain();
    expect((await server.request('/api/ready', { key: null })).status).toBe(503);
  });
});

describe('Kiln’s own upload pasted back', () => {
  it('is the same image, not a re-encoded copy (what works dropped works pasted)', async () => {
    server = await startTestServer();
    const jpeg = await sharp(readFileSync(photoPath('teapot.png')))
      .flatten({ background: '#dddddd' })
      .jpeg({ quality: 80 })
      .toBuffer();
    const up = await server.request('/api/uploads', {
      method: 'POST',
      body: new Uint8Array(jpeg),
      headers: { 'content-type': 'image/jpeg' },
      key: null,
    });
    expect(up.status).toBe(201);
    const first = (await up.json()) as { sha256: string; url: string };
    const pasted = await server.request(
      '/api/uploads/from-url',
      post({ url: `http://kiln.test/api/uploads/${first.sha256}.jpg` }),
    );
    expect(pasted.status).toBe(201);
    const again = (await pasted.json()) as { sha256: string; width: number; height: number };
    expect(again.sha256).toBe(first.sha256);
    expect(again.width).toBeGreaterThan(0);
  });
});
