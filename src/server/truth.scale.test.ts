// Truth under faults on the real stack of docs/deploy.md (issue 22): PostgreSQL, s3rver, the
// standalone mock, two replicas behind nginx. After each fault, nothing the upstream charged is
// missing or wrong: every task is in the library with its true state and its model kept, and
// the balance Kiln shows is the mock's own ledger.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../async/index.ts';
import {
  CreditsSchema,
  ErrorBodySchema,
  LibraryEntrySchema,
  TaskSchema,
  type Credits,
  type LibraryEntry,
  type Task,
} from '../contract/index.ts';
import { readPhoto } from '../testing/fixtures.ts';
import { STACK_KEY, startStack, type Stack } from '../testing/stack.ts';

const BURST_KEY = 'tr_burst_after_anchor';
const FIRST_BURST_KEY = 'tr_burst_first';
const OUTAGE_KEY = 'tr_outage_key';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    replicas: 2,
    mockSpeed: 'fast',
    keys: [`${BURST_KEY}:100000`, `${FIRST_BURST_KEY}:100000`, `${OUTAGE_KEY}:100000`],
  });
});
afterAll(() => stack?.stop());

const headers = (key: string) => ({
  authorization: `Bearer ${key}`,
  'content-type': 'application/json',
});

/** A request, retried while the answer is 502/503/504 or nothing (a client's retry). */
async function withRetries(send: () => Promise<Response>, attempts = 120): Promise<Response> {
  for (let i = 0; ; i++) {
    try {
      const res = await send();
      if (![502, 503, 504].includes(res.status) || i >= attempts) return res;
      await res.arrayBuffer();
    } catch (err) {
      if (i >= attempts) throw err;
    }
    await sleep(250);
  }
}

async function create(key: string, body: object, idem?: string): Promise<Task> {
  const res = await withRetries(() =>
    fetch(`${stack.url}/api/v1/3d/generations`, {
      method: 'POST',
      headers: { ...headers(key), ...(idem ? { 'idempotency-key': idem } : {}) },
      body: JSON.stringify(body),
    }),
  );
  expect([200, 202], await res.clone().text()).toContain(res.status);
  return TaskSchema.parse(await res.json());
}

async function poll(key: string, id: string): Promise<Task> {
  const res = await withRetries(() =>
    fetch(`${stack.url}/api/v1/tasks/${id}`, { headers: headers(key) }),
  );
  expect(res.status).toBe(200);
  return TaskSchema.parse(await res.json());
}

async function pollUntilEnded(key: string, id: string): Promise<Task> {
  for (let i = 0; i < 400; i++) {
    const task = await poll(key, id);
    if (task.status !== 'pending') return task;
    await sleep(100);
  }
  throw new Error(`${id} never ended`);
}

async function entry(key: string, id: string, via = stack.url): Promise<LibraryEntry> {
  const res = await withRetries(() => fetch(`${via}/api/library/${id}`, { headers: headers(key) }));
  expect(res.status, await res.clone().text()).toBe(200);
  return LibraryEntrySchema.parse(await res.json());
}

async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(500);
  }
}

async function credits(key: string): Promise<Credits> {
  const res = await withRetries(() => fetch(`${stack.url}/api/credits`, { headers: headers(key) }));
  expect(res.status).toBe(200);
  return CreditsSchema.parse(await res.json());
}

/** The history goes up only at a refund (nothing outside Kiln used these keys). */
function expectNoRiseWithoutRefund(history: Credits['history']) {
  for (let i = 1; i < history.length; i++)
    if (history[i]!.balance > history[i - 1]!.balance)
      expect(history[i]!.kind, JSON.stringify(history.slice(i - 1, i + 1))).toBe('refund');
}

describe('truth under faults, on PostgreSQL, S3 and two replicas behind nginx', () => {
  it('PostgreSQL stopped under load: tasks that complete meanwhile end completed and archived, no restart', async () => {
    const pids = stack.replicas.map((r) => r.process?.child.pid);
    const run = Date.now();
    // The artist's first task, on its own: the upstream states the balance.
    await create(OUTAGE_KEY, { model: 'beta-text', prompt: `first ${run}`, mode: 'sync' });
    await sleep(200);
    const tasks = await Promise.all(
      [0, 1, 2].map((i) =>
        create(
          OUTAGE_KEY,
          { model: 'beta-text', prompt: `outage ${run} vase ${i}` },
          `o-${run}-${i}`,
        ),
      ),
    );
    stack.pg.stop();
    let pgDown = true;
    try {
      // The artist keeps polling: the upstream's answers still come through Kiln.
      for (const t of tasks)
        expect((await pollUntilEnded(OUTAGE_KEY, t.id)).status).toBe('completed');
      // Meanwhile a create without a key cannot be recorded: refused, sent nowhere, charged nothing.
      const before = stack.mockLedger(OUTAGE_KEY);
      for (const replica of stack.replicas) {
        const refused = await fetch(`${replica.url}/api/v1/3d/generations`, {
          method: 'POST',
          headers: headers(OUTAGE_KEY),
          body: JSON.stringify({
            model: 'beta-text',
            prompt: `not while the database is away ${run}`,
          }),
        });
        expect(refused.status).toBe(503);
        expect(ErrorBodySchema.parse(await refused.json()).error.message).toMatch(
          /database.*nothing was charged/,
        );
      }
      expect(stack.mockLedger(OUTAGE_KEY)).toEqual(before);
      stack.pg.start();
      pgDown = false;
    } finally {
      if (pgDown) stack.pg.start();
    }
    // One task is polled again; the others' tabs closed: only the library is read.
    await poll(OUTAGE_KEY, tasks[0]!.id);
    for (const t of tasks) {
      const e = await until(
        () => entry(OUTAGE_KEY, t.id),
        (e) => e.status === 'completed' && e.archived,
      );
      expect(e, t.id).toMatchObject({ status: 'completed', archived: true });
      // The model Kiln kept opens at its signed address, through either replica.
      for (const replica of stack.replicas) {
        const glb = await fetch(`${replica.url}${e.model_url}`);
        expect(glb.status).toBe(200);
        await glb.arrayBuffer();
      }
    }
    // No replica was restarted to get there.
    expect(stack.replicas.map((r) => r.process?.child.pid)).toEqual(pids);
    for (const r of stack.replicas) expect(r.process?.child.exitCode).toBeNull();
    // And the balance is the mock's ledger.
    const ledger = stack.mockLedger(OUTAGE_KEY);
    expect(await credits(OUTAGE_KEY)).toMatchObject({ balance: ledger.balance, exact: true });
  }, 240_000);

  it('a burst of 30 creates with failures over both replicas: the balance is the ledger’s once settled', async () => {
    // The artist's first task, on its own: the upstream states the balance.
    const lone = await create(BURST_KEY, {
      model: 'beta-text',
      prompt: 'a lone cup',
      mode: 'sync',
    });
    expect(lone.status).toBe('completed');
    // Thirty at once, a third of them failing (and refunded), across both replicas by nginx.
    const run = Date.now();
    const models = ['beta-text', 'alpha', 'gamma'] as const;
    const tasks = await Promise.all(
      Array.from({ length: 30 }, (_, i) => {
        const fails = i % 3 === 0;
        const model = models[i % 3]!;
        const body =
          model === 'beta-text'
            ? { model, prompt: `${fails ? 'mock:fail ' : ''}burst ${run} ${i}` }
            : {
                model,
                image_url: `data:image/png;base64,${Buffer.from(readPhoto('chair.png')).toString('base64')}`,
                ...(fails ? { mode: 'async' } : {}),
              };
        return create(BURST_KEY, body, `b-${run}-${i}`);
      }),
    );
    const ended = await Promise.all(tasks.map((t) => pollUntilEnded(BURST_KEY, t.id)));
    expect(ended.filter((t) => t.status === 'failed').length).toBeGreaterThanOrEqual(10);
    const ledger = stack.mockLedger(BURST_KEY);
    expect(ledger.tasks.filter((t) => t.status === 'pending')).toEqual([]);
    const shown = await credits(BURST_KEY);
    expect(shown).toMatchObject({ balance: ledger.balance, exact: true });
    expectNoRiseWithoutRefund(shown.history);
    // Every task the upstream made for this key is in the library with its true state.
    for (const t of ledger.tasks) {
      const e = await entry(BURST_KEY, t.id);
      expect(e.status, t.id).toBe(t.status);
    }
  }, 240_000);

  it('a burst that comes first says its balance is not exact, until a task on its own', async () => {
    const run = Date.now();
    const tasks = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        create(
          FIRST_BURST_KEY,
          { model: 'beta-text', prompt: `${i % 4 === 0 ? 'mock:fail ' : ''}first ${run} ${i}` },
          `f-${run}-${i}`,
        ),
      ),
    );
    await Promise.all(tasks.map((t) => pollUntilEnded(FIRST_BURST_KEY, t.id)));
    const unsure = await credits(FIRST_BURST_KEY);
    expect(unsure.exact).toBe(false);
    expect(unsure.note).toMatch(/overlapping/);
    const lone = await create(FIRST_BURST_KEY, {
      model: 'beta-text',
      prompt: `a lone bowl ${run}`,
      mode: 'sync',
    });
    expect(lone.status).toBe('completed');
    const sure = await credits(FIRST_BURST_KEY);
    expect(sure).toMatchObject({ balance: stack.mockLedger(FIRST_BURST_KEY).balance, exact: true });
  }, 120_000);

  it('the bucket stopped during uploads and an archive: 503s that name the file store, then everything kept', async () => {
    await stack.s3.pause();
    let task: Task;
    try {
      for (const replica of stack.replicas) {
        const up = await fetch(`${replica.url}/api/uploads`, {
          method: 'POST',
          headers: { 'content-type': 'image/png' },
          body: Buffer.from(readPhoto('teapot.png')),
        });
        expect(up.status).toBe(503);
        const { error } = ErrorBodySchema.parse(await up.json());
        expect(error.message).toMatch(/file store/);
        expect(error.message).not.toMatch(/database/);
      }
      // A task completes while the bucket is away: the library has it, waiting for its copy.
      task = await create(STACK_KEY, {
        model: 'beta-text',
        prompt: `while the bucket is away ${Date.now()}`,
        mode: 'sync',
      });
      expect(task.status).toBe('completed');
      const waiting = await entry(STACK_KEY, task.id);
      expect(waiting).toMatchObject({ status: 'completed', archived: false });
      expect(waiting.archive?.state).not.toBe('failed');
    } finally {
      await stack.s3.resume();
    }
    const kept = await until(
      () => entry(STACK_KEY, task.id),
      (e) => e.archived,
    );
    expect(kept).toMatchObject({ archived: true, archive: { state: 'archived' } });
    const glb = await fetch(`${stack.url}${kept.model_url}`);
    expect(glb.status).toBe(200);
    const up = await fetch(`${stack.url}/api/uploads`, {
      method: 'POST',
      headers: { 'content-type': 'image/png' },
      body: Buffer.from(readPhoto('teapot.png')),
    });
    expect(up.status).toBe(201);
  }, 180_000);

  it('text PostgreSQL cannot hold is refused before any charge, and NUL in an id is a 400', async () => {
    const before = stack.mockLedger(STACK_KEY);
    const res = await fetch(`${stack.url}/api/v1/3d/generations`, {
      method: 'POST',
      headers: headers(STACK_KEY),
      body: JSON.stringify({ model: 'beta-text', prompt: 'a\u0000vase' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { param: 'prompt' } });
    expect(stack.mockLedger(STACK_KEY)).toEqual(before);
    for (const path of [
      '/api/library/a%00b',
      '/api/v1/tasks/a%00b',
      '/api/library?q=%00',
      '/s/a%00b',
    ])
      expect(
        (await fetch(`${stack.url}${path}`, { headers: headers(STACK_KEY) })).status,
        path,
      ).toBe(400);
  });

  it('a key may have three optimise jobs under way, whichever replica each request reaches', async () => {
    const task = await create(STACK_KEY, {
      model: 'beta-text',
      prompt: 'a chair to optimise',
      mode: 'sync',
    });
    await until(
      () => entry(STACK_KEY, task.id),
      (e) => e.archived,
    );
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        fetch(`${stack.replicas[i % 2]!.url}/api/library/${task.id}/optimise`, {
          method: 'POST',
          headers: headers(STACK_KEY),
          body: JSON.stringify({ preset: 'custom', triangles: 1000 + i * 100 }),
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202).length).toBeLessThanOrEqual(3);
    expect(statuses.filter((s) => s === 202).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 202 || s === 429)).toBe(true);
  });
});
