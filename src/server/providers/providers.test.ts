// Kiln's one create and task routes for vendors' models (issue 34), end to end in-process: Kiln's
// server (real SQLite, real blobs) → the adapter → the vendor's mock on a loopback port.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LibraryEntrySchema } from '../../contract/index.ts';
import { serveFalMock, type ServedFalMock } from '../../mock/fal/testing.ts';
import { FAL_DEMO_KEYS } from '../../mock/fal/app.ts';
import { fakeGenerator, photoDataUri } from '../../testing/mock.ts';
import { MESHY_KEY, MESHY_POOR_KEY, serveMeshy, type ServedMeshy } from '../../testing/meshy.ts';
import { post, startTestServer, type TestServer } from '../../testing/server.ts';
import { TRIPO_DEMO_KEYS } from '../../mock/tripo/app.ts';
import { serveTripoMock, type ServedTripoMock } from '../../testing/tripo-mock.ts';
import { ownerHasher } from '../owner-id.ts';
import { configuredProviders } from './configure.ts';
import { CONTINUE_STALE_MS } from './tasks.ts';
import type { ConfiguredProvider } from './registry.ts';

const LIBRARY = `kl_${'A'.repeat(43)}`;
/** The library's owner as the test server files it (its secret is 32 × 7). */
const ownerOfLibrary = ownerHasher(Buffer.alloc(32, 7))(LIBRARY);
const FAL_KEY = FAL_DEMO_KEYS[0]!.key;
const TRIPO_KEY = TRIPO_DEMO_KEYS[0]!.key;

let meshy: ServedMeshy;
let fal: ServedFalMock;
let tripo: ServedTripoMock;
let kiln: TestServer;

/** The vendors as main.ts configures them, at their mocks' addresses. */
function providers(): ConfiguredProvider[] {
  return configuredProviders({
    meshy: meshy.baseUrl,
    tripo: tripo.baseUrl,
    fal: fal.url,
    falPlatform: `${fal.url}/v1`,
  });
}

beforeEach(async () => {
  meshy = await serveMeshy();
  fal = await serveFalMock({ generator: fakeGenerator });
  tripo = await serveTripoMock();
  kiln = await startTestServer({
    providers: providers(),
    // The vendors' result addresses are on loopback here: fetched as they are.
    fetchGlb: async (url) => new Uint8Array(await (await fetch(url)).arrayBuffer()),
  });
});
afterEach(async () => {
  await kiln.close();
  await meshy.close();
  await fal.close();
  await tripo.close();
});

/** A request to Kiln under the library key, with a vendor's key. */
function asArtist(path: string, vendorKey: string, init: RequestInit = {}) {
  const headers = new Headers(init.headers);
  headers.set('x-kiln-library', LIBRARY);
  headers.set('x-provider-key', vendorKey);
  return kiln.request(path, { ...init, headers, key: null });
}

async function libraryEntry(id: string, vendorKey: string) {
  return LibraryEntrySchema.parse(await (await asArtist(`/api/library/${id}`, vendorKey)).json());
}

/** A Meshy text task created through Kiln's create route: its id. */
async function meshyTextTask() {
  const res = await asArtist(
    '/api/v1/3d/generations',
    MESHY_KEY,
    post({ model: 'meshy/meshy-6', prompt: 'a wooden chair' }),
  );
  return ((await res.json()) as { id: string }).id;
}

async function pollUntilDone(id: string, vendorKey: string) {
  for (let i = 0; i < 200; i++) {
    const res = await asArtist(`/api/v1/tasks/${id}`, vendorKey);
    const task = (await res.json()) as { status: string; progress: number | null };
    if (task.status !== 'pending') return task as Record<string, unknown>;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${id} never ended`);
}

describe('providers through Kiln', () => {
  it('lists the providers, their models as provider/model, and each balance as the vendor states it', async () => {
    const list = (await (await kiln.request('/api/providers', { key: null })).json()) as {
      data: { name: string }[];
    };
    expect(list.data.map((p) => p.name)).toEqual(['meshy', 'tripo', 'fal']);
    // Every vendor call is counted by provider and operation, never by key.
    await asArtist('/api/providers/meshy/balance', MESHY_KEY);
    const metrics = await (await kiln.request('/metrics', { key: null })).text();
    expect(metrics).toMatch(
      /kiln_provider_requests_total\{provider="meshy",operation="balance",outcome="ok"\} [1-9]/,
    );
    expect(metrics).not.toContain(MESHY_KEY);
    const models = (await (await asArtist('/api/providers/meshy/models', MESHY_KEY)).json()) as {
      data: { id: string; unit: string }[];
    };
    expect(models.data.map((m) => m.id)).toContain('meshy/meshy-6');
    const balance = (await (await asArtist('/api/providers/meshy/balance', MESHY_KEY)).json()) as {
      amount: number;
      unit: string;
    };
    expect(balance).toMatchObject({ amount: meshy.mock.balanceOf(MESHY_KEY), unit: 'credits' });
  });

  it('a Meshy photo task: created, polled to the end, in the library under the library key, archived, charged once on a retry', async () => {
    const body = { model: 'meshy/meshy-6', image_url: photoDataUri('chair.png') };
    const first = await asArtist(
      '/api/v1/3d/generations',
      MESHY_KEY,
      post(body, { 'idempotency-key': 'retry-me' }),
    );
    expect(first.status).toBe(202);
    const created = (await first.json()) as { id: string; provider: string };
    expect(created.id).toMatch(/^meshy_/);
    expect(created.provider).toBe('meshy');
    // The same create again, with the same key: the same task, charged once.
    const again = await asArtist(
      '/api/v1/3d/generations',
      MESHY_KEY,
      post(body, { 'idempotency-key': 'retry-me' }),
    );
    expect(((await again.json()) as { id: string }).id).toBe(created.id);
    expect(meshy.mock.balanceOf(MESHY_KEY)).toBe(1000 - 30);

    const done = await pollUntilDone(created.id, MESHY_KEY);
    expect(done).toMatchObject({ status: 'completed', progress: 100, provider: 'meshy' });
    const entry = (await (await asArtist(`/api/library/${created.id}`, MESHY_KEY)).json()) as {
      model: string;
      archived: boolean;
    };
    expect(entry).toMatchObject({ model: 'meshy/meshy-6', archived: true });
    // The spec's credits are not touched by another provider's task.
    const spec = (await (await kiln.request('/api/credits')).json()) as { history: unknown[] };
    expect(spec.history.length).toBeLessThanOrEqual(1);
  });

  it("the same photo on two providers: each entry keeps its cost in its vendor's unit, and each is the other's same input", async () => {
    const photo = photoDataUri('chair.png');
    const make = async (model: string, key: string) => {
      const res = await asArtist('/api/v1/3d/generations', key, post({ model, image_url: photo }));
      const { id } = (await res.json()) as { id: string };
      await pollUntilDone(id, key);
      return id;
    };
    const meshyId = await make('meshy/meshy-6', MESHY_KEY);
    const falId = await make('fal/fal-ai/trellis', FAL_KEY);
    const entry = async (id: string) =>
      (await (await asArtist(`/api/library/${id}`, MESHY_KEY)).json()) as {
        cost?: unknown;
        credits_consumed: number | null;
        created: number;
        completed_at: number | null;
      };
    const meshyEntry = await entry(meshyId);
    expect(meshyEntry.cost).toEqual({ amount: 30, unit: 'credits' });
    expect(meshyEntry.credits_consumed).toBeNull();
    expect(meshyEntry.completed_at).toBeGreaterThanOrEqual(meshyEntry.created);
    expect((await entry(falId)).cost).toEqual({ amount: 0.02, unit: 'USD' });
    // "Compare with…" lists the other provider's model of the same photo, both ways.
    const same = async (id: string) =>
      (
        (await (await asArtist(`/api/library/${id}/same-input`, MESHY_KEY)).json()) as {
          data: { id: string }[];
        }
      ).data.map((e) => e.id);
    expect(await same(meshyId)).toEqual([falId]);
    expect(await same(falId)).toEqual([meshyId]);
  });

  it('a Meshy text task is one Kiln task of two charged steps; the refine starts once', async () => {
    const id = await meshyTextTask();
    const done = await pollUntilDone(id, MESHY_KEY);
    expect(done).toMatchObject({ status: 'completed', id });
    expect(done.step).toMatchObject({ index: 2, of: 2 });
    expect(meshy.mock.balanceOf(MESHY_KEY)).toBe(1000 - 30);
    expect((await kiln.storage.providerRefs.get(id))?.ref).toMatch(/^refine\./);
    // The task's cost is both steps', in Meshy's unit, in its answer and in the library.
    expect(done.cost).toEqual({ amount: 30, unit: 'credits' });
    expect((await libraryEntry(id, MESHY_KEY)).cost).toEqual({ amount: 30, unit: 'credits' });
  });

  it('fal: no invented percentage, and a task a fal key made is polled with that key', async () => {
    const res = await asArtist(
      '/api/v1/3d/generations',
      FAL_KEY,
      post({ model: 'fal/fal-ai/trellis', image_url: photoDataUri('chair.png') }),
    );
    expect(res.status).toBe(202);
    const created = (await res.json()) as { id: string; progress: number | null };
    expect(created.id).toMatch(/^fal_/);
    expect(created.progress).toBeNull();
    const done = await pollUntilDone(created.id, FAL_KEY);
    expect(done).toMatchObject({ status: 'completed', progress: 100 });
    // Its cost is in fal's own unit, dollars, never credits.
    const entry = await libraryEntry(created.id, FAL_KEY);
    expect(entry.cost).toEqual({ amount: 0.02, unit: 'USD' });
    expect(entry.credits_consumed).toBeNull();
  });

  it('Tripo: two views take the front and right slots; the result is archived before its address expires; the balance holds nothing frozen after', async () => {
    const res = await asArtist(
      '/api/v1/3d/generations',
      TRIPO_KEY,
      post({
        model: 'tripo/v2.5-20250123',
        image_urls: [photoDataUri('chair.png'), photoDataUri('chair.png')],
      }),
    );
    const body = (await res.json()) as { id: string; error?: unknown };
    expect(res.status, JSON.stringify(body)).toBe(202);
    const done = await pollUntilDone(body.id, TRIPO_KEY);
    expect(done).toMatchObject({ status: 'completed', provider: 'tripo' });
    expect(done.result_expires_ms).toEqual(expect.any(Number));
    const entry = (await (await asArtist(`/api/library/${body.id}`, TRIPO_KEY)).json()) as {
      archived: boolean;
    };
    expect(entry.archived).toBe(true);
    const balance = (await (await asArtist('/api/providers/tripo/balance', TRIPO_KEY)).json()) as {
      amount: number;
      frozen: number;
    };
    expect(balance.frozen).toBe(0);
  });

  it('a Tripo result whose address expired before the archive says so, naming Tripo and what to do', async () => {
    const quick = await serveTripoMock({ resultTtlMs: 1 });
    const other = await startTestServer({
      providers: configuredProviders({ tripo: quick.baseUrl }).filter((p) => p.name === 'tripo'),
      fetchGlb: async (url) => {
        const res = await fetch(url);
        if (!res.ok)
          throw Object.assign(new Error(`answered ${res.status}`), { status: res.status });
        return new Uint8Array(await res.arrayBuffer());
      },
    });
    try {
      const headers = { 'x-kiln-library': LIBRARY, 'x-provider-key': TRIPO_KEY };
      const res = await other.request('/api/v1/3d/generations', {
        ...post({ model: 'tripo/v2.5-20250123', prompt: 'a wooden chair' }, headers),
        key: null,
      });
      const { id } = (await res.json()) as { id: string };
      let entry: { archived: boolean; archive?: { error?: string | null } } | undefined;
      for (let i = 0; i < 200; i++) {
        await other.request(`/api/v1/tasks/${id}`, { headers, key: null });
        entry = (await (
          await other.request(`/api/library/${id}`, { headers, key: null })
        ).json()) as typeof entry;
        if (entry?.archive?.error) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(entry?.archived).toBe(false);
      expect(entry?.archive?.error).toMatch(
        /^Tripo's address for this model stopped working \(HTTP 403\)/,
      );
    } finally {
      await other.close();
      await quick.close();
    }
  });

  it('bad input is refused naming the field, and nothing is sent', async () => {
    const cases: [Record<string, unknown>, string, string | undefined][] = [
      [{ model: 'meshy/nope', prompt: 'a cup' }, 'model', MESHY_KEY],
      [{ model: 'meshy/meshy-6' }, 'image_url', MESHY_KEY],
      [
        { model: 'meshy/meshy-6', prompt: 'x', image_url: photoDataUri('chair.png') },
        'prompt',
        MESHY_KEY,
      ],
      [{ model: 'fal/fal-ai/trellis', prompt: 'a cup' }, 'prompt', FAL_KEY],
      [{ model: 'tripo/v2.5', prompt: 'a cup' }, 'model', MESHY_KEY],
      [{ model: 'meshy/meshy-6', prompt: 'a cup', mode: 'sync' }, 'mode', MESHY_KEY],
    ];
    for (const [body, param, key] of cases) {
      const res = await asArtist('/api/v1/3d/generations', key!, post(body));
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: { param: string } }).error.param).toBe(param);
    }
    const noKey = await kiln.request('/api/v1/3d/generations', {
      ...post({ model: 'meshy/meshy-6', prompt: 'a cup' }, { 'x-kiln-library': LIBRARY }),
      key: null,
    });
    expect(noKey.status).toBe(401);
    expect(((await noKey.json()) as { error: { param: string } }).error.param).toBe(
      'x-provider-key',
    );
    expect(meshy.mock.balanceOf(MESHY_KEY)).toBe(1000);
    expect(await kiln.store.list(ownerOfLibrary, { limit: 5 })).toEqual([]);
  });

  it("a vendor's refusal keeps its meaning: a wrong key is a 401, too few credits a 402, and nothing is recorded", async () => {
    const wrong = await asArtist(
      '/api/v1/3d/generations',
      'msy_notAKeyMeshyKnows00000000000000000009',
      post({ model: 'meshy/meshy-6', prompt: 'a cup' }),
    );
    expect(wrong.status).toBe(401);
    const poor = await asArtist(
      '/api/v1/3d/generations',
      MESHY_POOR_KEY,
      post({ model: 'meshy/meshy-6', image_url: photoDataUri('chair.png') }),
    );
    expect(poor.status).toBe(402);
    expect(await kiln.storage.intents.unresolved(ownerOfLibrary, Date.now() + 1)).toEqual([]);
  });
});

describe('a Meshy text task whose continue was taken by a process that died (decision 0117)', () => {
  /** A text task, with `continue:<id>` held by a replica that is about to die. */
  async function textTaskWithDeadContinue() {
    const id = await meshyTextTask();
    const lock = {
      id: `continue:${id}`,
      owner: ownerOfLibrary,
      holder: 'replica-that-died',
      sentMs: Date.now(),
      model: 'meshy/meshy-6',
      summary: `the next stage of ${id}`,
    };
    await kiln.storage.intents.record(lock);
    // The preview ends; every poll meanwhile leaves the next stage to the lock's holder.
    let task: Record<string, unknown> = {};
    for (let i = 0; i < 100 && task.progress !== 50; i++) {
      task = (await (await asArtist(`/api/v1/tasks/${id}`, MESHY_KEY)).json()) as typeof task;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(task).toMatchObject({ status: 'pending', progress: 50, step: { index: 1 } });
    return { id, lock, previewId: id.split('.').at(-1)! };
  }

  /** Time passes: the dead holder's lock is older than a continue ever takes. */
  async function ageLock(lock: { id: string; holder: string; sentMs: number }) {
    const held = await kiln.storage.intents.get(lock.id);
    expect(held?.holder).toBe(lock.holder);
    await kiln.storage.intents.takeOver(held!, lock.holder, Date.now() - CONTINUE_STALE_MS - 1);
  }

  it('a fresh lock is left alone; once stale, a later poll takes it and starts the refine once', async () => {
    const { id, lock } = await textTaskWithDeadContinue();
    // Within the window the lock's holder may still be sending: nothing is started here.
    await asArtist(`/api/v1/tasks/${id}`, MESHY_KEY);
    expect(meshy.mock.balanceOf(MESHY_KEY)).toBe(1000 - 20);
    expect(await kiln.storage.providerRefs.get(id)).toBeUndefined();
    await ageLock(lock);
    const done = await pollUntilDone(id, MESHY_KEY);
    expect(done).toMatchObject({ status: 'completed', step: { index: 2, of: 2 } });
    expect(meshy.mock.balanceOf(MESHY_KEY)).toBe(1000 - 30);
    expect(await kiln.storage.intents.get(lock.id)).toBeUndefined();
    expect((await libraryEntry(id, MESHY_KEY)).cost).toEqual({ amount: 30, unit: 'credits' });
  });

  it('a refine the dead process had already started is found at Meshy and followed, never started twice', async () => {
    const { id, lock, previewId } = await textTaskWithDeadContinue();
    // The dead process sent the refine (Meshy charged it) and died before keeping its reference.
    const sent = await fetch(`${meshy.baseUrl}/openapi/v2/text-to-3d`, {
      method: 'POST',
      headers: { authorization: `Bearer ${MESHY_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'refine', preview_task_id: previewId, ai_model: 'meshy-6' }),
    });
    const { result: refineId } = (await sent.json()) as { result: string };
    expect(meshy.mock.balanceOf(MESHY_KEY)).toBe(1000 - 30);
    await ageLock(lock);
    const done = await pollUntilDone(id, MESHY_KEY);
    expect(done).toMatchObject({ status: 'completed', step: { index: 2, of: 2 } });
    expect((await kiln.storage.providerRefs.get(id))?.ref).toBe(`refine.meshy-6.${refineId}`);
    // Charged once: the preview and the one refine, as the library says.
    expect(meshy.mock.balanceOf(MESHY_KEY)).toBe(1000 - 30);
    expect((await libraryEntry(id, MESHY_KEY)).cost).toEqual({ amount: 30, unit: 'credits' });
    expect(await kiln.storage.intents.unresolved(ownerOfLibrary, Date.now() + 1)).toEqual([]);
  });

  it('a lock left by a process that died after keeping the new reference is cleared when the task ends', async () => {
    const id = await meshyTextTask();
    await pollUntilDone(id, MESHY_KEY);
    await kiln.storage.intents.record({
      id: `continue:${id}`,
      owner: ownerOfLibrary,
      holder: 'replica-that-died',
      sentMs: Date.now(),
      model: 'meshy/meshy-6',
      summary: `the next stage of ${id}`,
    });
    await asArtist(`/api/v1/tasks/${id}`, MESHY_KEY);
    expect(await kiln.storage.intents.get(`continue:${id}`)).toBeUndefined();
  });
});
