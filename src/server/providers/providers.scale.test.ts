// Provider tasks on the real stack of docs/deploy.md (issue 34, item 8): PostgreSQL, s3rver, two
// replicas behind nginx, and the Meshy and fal mocks (the apps `npm start` mounts at /mock/<vendor>)
// served once from this process, as one vendor answers every replica. A retried create is
// charged once across replicas, every result is archived, a replica killed mid-task leaves
// nothing charged unrecorded, and each vendor's ledger equals what Kiln recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../../async/index.ts';
import { LibraryEntrySchema, LibraryPageSchema, type LibraryEntry } from '../../contract/index.ts';
import { FAL_DEMO_KEYS } from '../../mock/fal/app.ts';
import { serveFalMock, type ServedFalMock } from '../../mock/fal/testing.ts';
import { MESHY_KEY, serveMeshy, type ServedMeshy } from '../../testing/meshy.ts';
import { fakeGenerator, photoDataUri } from '../../testing/mock.ts';
import { freePort } from '../../testing/ports.ts';
import { startStack, type Stack } from '../../testing/stack.ts';

const LIBRARY = `kl_${'S'.repeat(43)}`;
const FAL = FAL_DEMO_KEYS[0]!;
const MESHY_START = 1000;

let stack: Stack;
let meshy: ServedMeshy;
let fal: ServedFalMock;
beforeAll(async () => {
  meshy = await serveMeshy();
  fal = await serveFalMock({ generator: fakeGenerator });
  stack = await startStack({
    replicas: 2,
    env: {
      MESHY_API_URL: meshy.baseUrl,
      FAL_API_URL: fal.url,
      FAL_PLATFORM_API_URL: `${fal.url}/v1`,
      // Not used here: a closed loopback port, so nothing can reach Tripo's real API.
      TRIPO_API_URL: `http://127.0.0.1:${await freePort()}`,
    },
  });
});
afterAll(async () => {
  await stack?.stop();
  await meshy?.close();
  await fal?.close();
});

const vendorKey = (model: string) => (model.startsWith('fal/') ? FAL.key : MESHY_KEY);

/** A request as the studio sends it, to nginx or one replica, retried past a 502–504. */
async function call(path: string, model: string, init: RequestInit = {}, origin = stack.url) {
  const headers = new Headers(init.headers);
  headers.set('x-kiln-library', LIBRARY);
  headers.set('x-provider-key', vendorKey(model));
  for (let i = 0; ; i++) {
    const res = await fetch(`${origin}${path}`, { ...init, headers }).catch(() => undefined);
    if (res && (![502, 503, 504].includes(res.status) || i >= 40)) return res;
    await sleep(250);
  }
}

async function create(
  body: { model: string } & Record<string, unknown>,
  idem?: string,
  origin?: string,
) {
  const res = await call(
    '/api/v1/3d/generations',
    body.model,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(idem ? { 'idempotency-key': idem } : {}) },
      body: JSON.stringify(body),
    },
    origin,
  );
  const json = (await res.json()) as { id: string; step?: { index: number } | null };
  expect([200, 202], JSON.stringify(json)).toContain(res.status);
  return json;
}

/** Polls a task until it ends (through `origin`); its library entry once archived. */
async function finish(id: string, model: string, origin?: string): Promise<LibraryEntry> {
  for (let i = 0; i < 300; i++) {
    const task = (await (await call(`/api/v1/tasks/${id}`, model, {}, origin)).json()) as {
      status: string;
    };
    if (task.status === 'failed') throw new Error(`${id} failed: ${JSON.stringify(task)}`);
    if (task.status === 'completed') {
      const entry = LibraryEntrySchema.parse(
        await (await call(`/api/library/${id}`, model, {}, origin)).json(),
      );
      if (entry.archived) return entry;
    }
    await sleep(200);
  }
  throw new Error(`${id} never ended archived`);
}

/** Every library entry of one provider, through nginx, paged. */
async function libraryOf(provider: 'meshy' | 'fal'): Promise<LibraryEntry[]> {
  const out: LibraryEntry[] = [];
  let cursor: string | null = null;
  do {
    const q: string = `?provider=${provider}&limit=10${cursor ? `&cursor=${cursor}` : ''}`;
    const page = LibraryPageSchema.parse(
      await (await call(`/api/library${q}`, provider === 'fal' ? 'fal/' : 'meshy/')).json(),
    );
    out.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return out;
}

const spent = (entries: LibraryEntry[]) =>
  entries.reduce((sum, e) => sum + (e.cost?.amount ?? 0), 0);

describe('provider tasks on two replicas behind nginx', () => {
  it('a retried create is charged once across replicas, and its result is archived', async () => {
    const meshyBody = { model: 'meshy/meshy-6', image_url: photoDataUri('chair.png') };
    const falBody = { model: 'fal/fal-ai/trellis', image_url: photoDataUri('chair.png') };
    // nginx is round-robin: each retry reaches the other replica.
    const [m1, m2, m3] = [
      await create(meshyBody, 'scale-meshy-1'),
      await create(meshyBody, 'scale-meshy-1'),
      await create(meshyBody, 'scale-meshy-1'),
    ];
    expect(m2.id).toBe(m1.id);
    expect(m3.id).toBe(m1.id);
    const [f1, f2] = [await create(falBody, 'scale-fal-1'), await create(falBody, 'scale-fal-1')];
    expect(f2.id).toBe(f1.id);
    const upstreams = new Set(
      stack
        .accessLog()
        .filter((l) => l.method === 'POST' && l.uri === '/api/v1/3d/generations')
        .map((l) => l.upstream),
    );
    expect(upstreams.size).toBe(2);
    expect(meshy.mock.balanceOf(MESHY_KEY)).toBe(MESHY_START - 30);
    const [meshyEntry, falEntry] = await Promise.all([
      finish(m1.id, meshyBody.model),
      finish(f1.id, falBody.model),
    ]);
    // fal bills a request when it completes: once.
    expect(fal.balanceOf(FAL.key)).toBeCloseTo(FAL.balance - 0.02, 9);
    expect(meshyEntry.cost).toEqual({ amount: 30, unit: 'credits' });
    expect(falEntry.cost).toEqual({ amount: 0.02, unit: 'USD' });
    expect(meshyEntry.model_url).toMatch(/\/api\/assets\/[a-f0-9]{64}\.glb/);
  });

  it('a replica killed with SIGKILL mid-task: the other finishes each poll, and nothing is charged unrecorded', async () => {
    const [first, second] = stack.replicas.map((r) => r.url) as [string, string];
    const text = await create(
      { model: 'meshy/meshy-6', prompt: 'a wooden chair' },
      'scale-text',
      first,
    );
    // The first replica polls until it has started the refine (the second charged step)…
    for (let i = 0; i < 200; i++) {
      const task = (await (await call(`/api/v1/tasks/${text.id}`, 'meshy/', {}, first)).json()) as {
        step?: { index: number } | null;
      };
      if (task.step?.index === 2) break;
      await sleep(100);
    }
    // …and a fal task waits in the queue when the first replica dies.
    const queued = await create(
      { model: 'fal/fal-ai/trellis', image_url: photoDataUri('chair.png') },
      'scale-fal-2',
      first,
    );
    await stack.kill9(0);
    const [textEntry, falEntry] = await Promise.all([
      finish(text.id, 'meshy/', second),
      finish(queued.id, 'fal/', second),
    ]);
    expect(textEntry).toMatchObject({ status: 'completed', archived: true });
    expect(textEntry.cost).toEqual({ amount: 30, unit: 'credits' });
    expect(falEntry.cost).toEqual({ amount: 0.02, unit: 'USD' });
    // The refine was started once: the preview and one refine.
    expect(meshy.mock.balanceOf(MESHY_KEY)).toBe(MESHY_START - 30 - 30);
  });

  it("each vendor's ledger equals what Kiln recorded, and every result is archived", async () => {
    await stack.startReplica(0);
    const [meshyTasks, falTasks] = [await libraryOf('meshy'), await libraryOf('fal')];
    expect(meshyTasks).toHaveLength(2);
    expect(falTasks).toHaveLength(2);
    for (const e of [...meshyTasks, ...falTasks]) expect(e, e.id).toMatchObject({ archived: true });
    expect(spent(meshyTasks)).toBe(MESHY_START - meshy.mock.balanceOf(MESHY_KEY)!);
    expect(spent(falTasks)).toBeCloseTo(FAL.balance - fal.balanceOf(FAL.key)!, 9);
  });
});
