// An archive that waits on Kiln's own store says so (issue 31, item 7; decision 0095): the entry's
// archive names the store (`outage`), says it in a sentence (`error`) and when Kiln tries again
// (`next_attempt_ms`), and never counts it as a failure of the model.
import { afterEach, describe, expect, it } from 'vitest';
import { LibraryEntrySchema, LibraryPageSchema, TaskSchema } from '../../contract/index.ts';
import type { Outage } from '../../testing/outage.ts';
import { post, startTestServer, type TestServer } from '../../testing/server.ts';
import { SafeFetchError } from '../../net/index.ts';
import { openSqliteStorage, type Storage } from '../storage/database.ts';
import { diskBlobStore } from '../storage/blobs.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createArchiver, STORE_OUTAGE_RETRY_MS } from './archive.ts';
import { createEntryService } from './entries.ts';
import { finishedAt } from '../../testing/library-rows.ts';

let server: TestServer | undefined;
let storage: Storage | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.close();
  await storage?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  server = storage = dir = undefined;
});

async function entryOf(s: TestServer, id: string) {
  const res = await s.request(`/api/library/${id}`);
  expect(res.status).toBe(200);
  return LibraryEntrySchema.parse(await res.json());
}

async function syncTask(s: TestServer, prompt: string): Promise<string> {
  const res = await s.request(
    '/api/v1/3d/generations',
    post({ model: 'beta-text', prompt, mode: 'sync' }),
  );
  expect(res.status).toBe(200);
  const task = TaskSchema.parse(await res.json());
  expect(task.status).toBe('completed');
  return task.id;
}

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });

describe('an archive during a file store outage', () => {
  it('says the file store cannot be reached and when Kiln tries again, in the entry and the list, uncounted', async () => {
    const blobs: Outage = { down: true };
    let clock = 1_900_000_000_000;
    server = await startTestServer({ outages: { blobs }, now: () => clock });
    const id = await syncTask(server, 'a jug while the bucket is away');

    const waiting = await entryOf(server, id);
    expect(waiting.archived).toBe(false);
    expect(waiting.archive).toEqual({
      state: 'pending',
      attempts: 0,
      error: expect.stringMatching(/^Kiln’s file store could not be reached/),
      next_attempt_ms: clock + STORE_OUTAGE_RETRY_MS,
      outage: 'file_store',
    });
    expect(waiting.archive?.error).toMatch(/tries again by itself/);
    expect(waiting.archive?.error).not.toMatch(/database/);
    // The gallery's list says the same of it.
    const page = LibraryPageSchema.parse(await (await server.request('/api/library')).json());
    expect(page.data.find((e) => e.id === id)?.archive).toEqual(waiting.archive);

    // Sweeps during the outage move the next try on and count nothing.
    for (let i = 0; i < 3; i++) {
      clock += STORE_OUTAGE_RETRY_MS;
      await server.server.sweep();
      expect((await entryOf(server, id)).archive).toMatchObject({
        state: 'pending',
        attempts: 0,
        outage: 'file_store',
        next_attempt_ms: clock + STORE_OUTAGE_RETRY_MS,
      });
    }

    // The store is back: the next sweep keeps the copy, and the reason is gone.
    blobs.down = false;
    clock += STORE_OUTAGE_RETRY_MS;
    await server.server.sweep();
    const kept = await entryOf(server, id);
    expect(kept.archived).toBe(true);
    expect(kept.archive).toEqual({
      state: 'archived',
      attempts: 1,
      error: null,
      next_attempt_ms: null,
    });
  });

  it('keeps the failures the model had, and says the outage on top of them', async () => {
    const blobs: Outage = { down: false };
    let clock = 1_900_000_000_000;
    let fetches = 0;
    server = await startTestServer({
      outages: { blobs },
      now: () => clock,
      fetchGlb: async (url) => {
        fetches++;
        if (fetches === 1) throw new Error('model_url answered 500');
        const res = await server!.app.request(url);
        return new Uint8Array(await res.arrayBuffer());
      },
    });
    const id = await syncTask(server, 'a ladle');
    expect((await entryOf(server, id)).archive).toEqual({
      state: 'retrying',
      attempts: 1,
      error: 'model_url answered 500',
      next_attempt_ms: clock + 30_000,
    });
    blobs.down = true;
    clock += 30_000;
    await server.server.sweep();
    expect((await entryOf(server, id)).archive).toEqual({
      state: 'retrying',
      attempts: 1,
      error: expect.stringMatching(/^Kiln’s file store could not be reached/),
      next_attempt_ms: clock + STORE_OUTAGE_RETRY_MS,
      outage: 'file_store',
    });
  });

  it('does not call an upstream that refuses the connection an outage of Kiln’s store', async () => {
    const clock = 1_900_000_000_000;
    server = await startTestServer({
      now: () => clock,
      // What the safe fetch throws when the model's host refuses: ECONNREFUSED in its cause,
      // the same code a stopped bucket gives.
      fetchGlb: () =>
        Promise.reject(new SafeFetchError('network', 'connect ECONNREFUSED', { cause: refused() })),
    });
    const id = await syncTask(server, 'a cup from a host that is down');
    const entry = await entryOf(server, id);
    expect(entry.archive).toEqual({
      state: 'retrying',
      attempts: 1,
      error: 'connect ECONNREFUSED',
      next_attempt_ms: clock + 30_000,
    });
  });
});

describe('an archive whose row cannot be written at the end', () => {
  it('says the database could not be reached, uncounted', async () => {
    storage = await openSqliteStorage(':memory:');
    dir = mkdtempSync(join(tmpdir(), 'kiln-archive-outage-'));
    const now = 1_900_000_000_000;
    await storage.library.insert(finishedAt(now));
    // The database answers the archive's other writes, but not the one that records the copy.
    const store = { ...storage.library, archived: () => Promise.reject(refused()) };
    const archiver = createArchiver({
      store,
      blobs: diskBlobStore(dir),
      leases: storage.leases,
      holder: 'a',
      fetchGlb: () => Promise.resolve(new Uint8Array([0x67, 0x6c, 0x54, 0x46])),
      now: () => now,
      log: () => {},
    });
    const [row] = await storage.library.archiveDue(now, 10);
    expect(await archiver.firstSighting(row!)).toBeUndefined();
    const entries = createEntryService({
      shares: storage.shares,
      collections: storage.collections,
    });
    const after = await storage.library.get('o', 't1');
    const entry = await entries.entry({ req: { url: 'http://kiln.test/' } }, 'o', after!);
    expect(entry.archive).toEqual({
      state: 'pending',
      attempts: 0,
      error: expect.stringMatching(/^Kiln’s database could not be reached/),
      next_attempt_ms: now + STORE_OUTAGE_RETRY_MS,
      outage: 'database',
    });
  });
});
