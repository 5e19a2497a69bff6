import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStorage, type Storage } from '../storage/database.ts';
import { onApiError } from '../../http/index.ts';
import { idempotency } from './idempotency.ts';
import { owner, type OwnerEnv } from './owner.ts';

let storage: Storage;
beforeEach(async () => {
  storage = await openSqliteStorage(':memory:');
});
afterEach(() => storage.close());

/** Key k1 of tr_a's owner claimed by `holder` at `atMs` for `leaseMs`, for the body {"a":1}. */
async function claimedBy(holder: string, atMs: number, leaseMs: number) {
  const sha = createHash('sha256').update('{"a":1}').digest('hex');
  await storage.idempotency.claim('owner-of-tr_a', 'k1', sha, holder, atMs, leaseMs);
}

/** A create endpoint behind the middleware; `handler` decides each answer. */
function appWith(
  handler: (body: string) => Promise<Response> | Response,
  options: { holder?: string; leaseMs?: number; maxWaitMs?: number; now?: () => number } = {},
) {
  const app = new Hono<OwnerEnv>();
  app.onError(onApiError(() => {}));
  app.post(
    '/create',
    owner((key) => `owner-of-${key}`),
    idempotency({
      store: storage.idempotency,
      holder: options.holder ?? 'this-process',
      now: options.now ?? Date.now,
      ...(options.leaseMs ? { leaseMs: options.leaseMs } : {}),
      ...(options.maxWaitMs ? { maxWaitMs: options.maxWaitMs } : {}),
    }),
    async (c) => handler(await c.req.text()),
  );
  return (body: unknown, key = 'k1') =>
    app.request('http://kiln.test/create', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { authorization: 'Bearer tr_a', 'idempotency-key': key },
    });
}

describe('idempotency middleware', () => {
  it('records the key in flight before the request goes on', async () => {
    let seen: unknown;
    const send = appWith(async () => {
      seen = await storage.idempotency.get('owner-of-tr_a', 'k1');
      return Response.json({ id: 't1' }, { status: 202 });
    });
    expect((await send({ a: 1 })).status).toBe(202);
    expect(seen).toMatchObject({ state: 'in_flight', holder: 'this-process' });
    expect(await storage.idempotency.get('owner-of-tr_a', 'k1')).toMatchObject({ state: 'done' });
  });

  it('makes a repeat in flight wait for the first answer, then replays it', async () => {
    let calls = 0;
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const send = appWith(async () => {
      calls++;
      await gate;
      return Response.json({ id: `t${calls}` }, { status: 202 });
    });
    const first = send({ a: 1 });
    const second = send({ a: 1 });
    await new Promise((r) => setTimeout(r, 100));
    open();
    const [a, b] = await Promise.all([first, second]);
    expect(await a.json()).toEqual({ id: 't1' });
    expect(await b.json()).toEqual({ id: 't1' });
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(calls).toBe(1);
  });

  it('refuses another body with 409, even while the first is in flight', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const send = appWith(async () => {
      await gate;
      return Response.json({ id: 't1' }, { status: 202 });
    });
    const first = send({ a: 1 });
    await new Promise((r) => setTimeout(r, 20));
    const other = await send({ a: 2 });
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({
      error: { code: 'idempotency_key_reused', param: 'Idempotency-Key' },
    });
    open();
    expect((await first).status).toBe(202);
  });

  it('keeps no 5xx or 429, so a retry goes through again', async () => {
    const statuses = [503, 429, 202];
    let calls = 0;
    const send = appWith(() =>
      Response.json({ n: ++calls }, { status: statuses[calls - 1] ?? 500 }),
    );
    expect((await send({ a: 1 })).status).toBe(503);
    expect((await send({ a: 1 })).status).toBe(429);
    expect((await send({ a: 1 })).status).toBe(202);
    expect((await send({ a: 1 })).status).toBe(202);
    expect(calls).toBe(3);
  });

  it('takes over a record whose holder died (lease run out), and forwards again', async () => {
    const now = 1_000_000;
    let calls = 0;
    const send = appWith(() => Response.json({ id: `t${++calls}` }, { status: 202 }), {
      now: () => now,
    });
    // A dead holder's record of this very body, its lease run out 10 s ago.
    await claimedBy('dead-process', now - 20_000, 10_000);
    const res = await send({ a: 1 });
    expect(res.status).toBe(202);
    expect(calls).toBe(1);
    expect(await storage.idempotency.get('owner-of-tr_a', 'k1')).toMatchObject({ state: 'done' });
  });

  it('waits for a live holder elsewhere, and says so with 409 when it takes too long', async () => {
    await claimedBy('other-replica', Date.now(), 60_000);
    let calls = 0;
    const send = appWith(() => Response.json({ id: `t${++calls}` }, { status: 202 }), {
      maxWaitMs: 300,
    });
    const res = await send({ a: 1 });
    expect(res.status).toBe(409);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toMatchObject({ error: { code: 'idempotency_key_in_use' } });
    expect(calls).toBe(0);
  });

  it('renews its lease while a slow request goes on, so nobody takes it over', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const send = appWith(
      async () => {
        await gate;
        return Response.json({ id: 't1' }, { status: 202 });
      },
      { leaseMs: 150 },
    );
    const first = send({ a: 1 });
    await new Promise((r) => setTimeout(r, 500));
    const record = await storage.idempotency.get('owner-of-tr_a', 'k1');
    expect(record?.leaseUntilMs).toBeGreaterThan(Date.now());
    open();
    expect((await first).status).toBe(202);
  });

  it('refuses a malformed key with 400 naming the header', async () => {
    const send = appWith(() => Response.json({}, { status: 202 }));
    const res = await send({ a: 1 }, 'has spaces in it');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: 'Idempotency-Key' } });
  });
});
