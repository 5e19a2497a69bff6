// Truth under faults, round two (issue 31), on the real stack of docs/deploy.md: PostgreSQL,
// s3rver, the standalone mock, two replicas behind nginx. PostgreSQL restarted under load ends
// no replica; a replica killed in a keyed burst leaves no balance that is exact and wrong; back-
// to-back bursts leave no rise in the history that nothing explains; made-up keys keep nothing.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../async/index.ts';
import {
  CreditsSchema,
  LibraryEntrySchema,
  TaskSchema,
  type Credits,
  type Task,
} from '../contract/index.ts';
import { startStack, type Stack } from '../testing/stack.ts';

const LOAD_KEY = 'tr_restart_load';
const KILL_KEY = 'tr_kill_burst';
const BACK_KEY = 'tr_back_to_back';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    replicas: 2,
    mockSpeed: 'fast',
    keys: [`${LOAD_KEY}:100000`, `${KILL_KEY}:100000`, `${BACK_KEY}:100000`],
    // The create limit on, as in production, so that its counters are in the made-up-key count.
    env: { CREATE_RATE_LIMIT: '1000' },
  });
});
afterAll(() => stack?.stop());

const headers = (key: string) => ({
  authorization: `Bearer ${key}`,
  'content-type': 'application/json',
});

/** Every status a request of this file got through nginx (a 502 means a replica was gone). */
const seen: number[] = [];

/** A request retried (same request, same key) while the answer is 502/503/504 or nothing. */
async function withRetries(send: () => Promise<Response>, attempts = 160): Promise<Response> {
  for (let i = 0; ; i++) {
    try {
      const res = await send();
      seen.push(res.status);
      if (![502, 503, 504].includes(res.status) || i >= attempts) return res;
      await res.arrayBuffer();
    } catch (err) {
      if (i >= attempts) throw err;
    }
    await sleep(250);
  }
}

async function create(key: string, body: object, idem: string): Promise<Task> {
  const res = await withRetries(() =>
    fetch(`${stack.url}/api/v1/3d/generations`, {
      method: 'POST',
      headers: { ...headers(key), 'idempotency-key': idem },
      body: JSON.stringify(body),
    }),
  );
  expect([200, 202], await res.clone().text()).toContain(res.status);
  return TaskSchema.parse(await res.json());
}

async function pollUntilEnded(key: string, id: string): Promise<Task> {
  for (let i = 0; i < 600; i++) {
    const res = await withRetries(() =>
      fetch(`${stack.url}/api/v1/tasks/${id}`, { headers: headers(key) }),
    );
    const task = TaskSchema.parse(await res.json());
    if (task.status !== 'pending') return task;
    await sleep(100);
  }
  throw new Error(`${id} never ended`);
}

async function credits(key: string): Promise<Credits> {
  const res = await withRetries(() => fetch(`${stack.url}/api/credits`, { headers: headers(key) }));
  expect(res.status).toBe(200);
  return CreditsSchema.parse(await res.json());
}

/** Every task the upstream made for `key` is in Kiln's library, in the state the upstream says. */
async function expectEveryChargeRecorded(key: string) {
  // Once the upstream has ended every task (the mock's are quick): then their states are final.
  let ledger = stack.mockLedger(key);
  for (let i = 0; i < 120 && ledger.tasks.some((t) => t.status === 'pending'); i++) {
    await sleep(500);
    ledger = stack.mockLedger(key);
  }
  // The upstream's state of a task now (one still pending above may have ended since).
  const upstreamNow = (id: string) => stack.mockLedger(key).tasks.find((x) => x.id === id)?.status;
  for (const t of ledger.tasks) {
    let status = '';
    for (let i = 0; i < 120 && status !== upstreamNow(t.id); i++) {
      const res = await withRetries(() =>
        fetch(`${stack.url}/api/library/${t.id}`, { headers: headers(key) }),
      );
      expect(res.status, `${t.id} is charged upstream but not in the library`).toBe(200);
      status = LibraryEntrySchema.parse(await res.json()).status;
      if (status !== upstreamNow(t.id)) await sleep(500);
    }
    expect(status, t.id).toBe(upstreamNow(t.id));
  }
  return ledger;
}

/** Every rise of the history is a refund, or a correction that names both figures and why. */
function expectNoUnexplainedRise(history: Credits['history']) {
  for (let i = 1; i < history.length; i++) {
    const [was, now] = [history[i - 1]!, history[i]!];
    if (now.balance <= was.balance || now.kind === 'refund') continue;
    expect(now.kind, JSON.stringify([was, now])).toBe('correction');
    expect(now.correction).toMatchObject({ ledger: was.balance, stated: now.balance });
    expect(now.correction?.cause).toMatch(/^(outside|overlap|recovery)$/);
  }
}

describe('trust under faults, round two', () => {
  it('PostgreSQL restarted five times under load (fast and immediate): no replica exits, nothing charged goes unrecorded', async () => {
    const pids = stack.replicas.map((r) => r.process?.child.pid);
    const run = Date.now();
    const from = seen.length;
    let stop = false;
    let n = 0;
    const ids: string[] = [];
    // Four clients: keyed creates (retried as Kiln's client does), library reads, bulk stars.
    const client = async () => {
      while (!stop) {
        const i = n++;
        const task = await create(
          LOAD_KEY,
          { model: 'beta-text', prompt: `restart ${run} ${i}` },
          `r-${run}-${i}`,
        );
        ids.push(task.id);
        const page = await fetch(`${stack.url}/api/library?limit=10`, {
          headers: headers(LOAD_KEY),
        });
        seen.push(page.status);
        await page.arrayBuffer();
        const star = await fetch(`${stack.url}/api/library/bulk`, {
          method: 'POST',
          headers: headers(LOAD_KEY),
          body: JSON.stringify({ ids: ids.slice(-5), action: 'favourite' }),
        });
        seen.push(star.status);
        await star.arrayBuffer();
      }
    };
    const clients = [0, 1, 2, 3].map(client);
    for (const mode of ['fast', 'immediate', 'fast', 'immediate', 'fast'] as const) {
      await sleep(1_200);
      await stack.pg.restart(mode);
    }
    await sleep(1_200);
    stop = true;
    await Promise.all(clients);

    // No replica exited or was restarted; nginx never lost one (a 502), nothing failed as a 500.
    expect(stack.replicas.map((r) => r.process?.child.pid)).toEqual(pids);
    for (const r of stack.replicas) expect(r.process?.child.exitCode).toBeNull();
    const statuses = seen.slice(from);
    expect(statuses.filter((s) => s === 502 || s === 500)).toEqual([]);
    expect(ids.length).toBeGreaterThan(8);
    // Every create the upstream charged is in the library, in its true state.
    const ledger = await expectEveryChargeRecorded(LOAD_KEY);
    expect(new Set(ledger.tasks.map((t) => t.id))).toEqual(new Set(ids));
  }, 240_000);

  it('kill -9 of a replica early in a keyed burst, five rounds: the balance equals the ledger or says it is approximate', async () => {
    for (let round = 0; round < 5; round++) {
      const run = `${Date.now()}-${round}`;
      // A task on its own: the upstream states the balance.
      await create(
        KILL_KEY,
        { model: 'beta-text', prompt: `lone ${run}`, mode: 'sync' },
        `l-${run}`,
      );
      await sleep(100);
      const victim = round % 2;
      let answered = 0;
      let killed: Promise<void> | undefined;
      const queue = Array.from({ length: 30 }, (_, i) => i);
      const tasks: Task[] = [];
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
            tasks.push(
              await create(
                KILL_KEY,
                { model: 'beta-text', prompt: `${i % 5 === 0 ? 'mock:fail ' : ''}k ${run} ${i}` },
                `k-${run}-${i}`,
              ),
            );
            if (++answered === 3) killed = stack.kill9(victim);
          }
        }),
      );
      await killed;
      await Promise.all(tasks.map((t) => pollUntilEnded(KILL_KEY, t.id)));
      const ledger = await expectEveryChargeRecorded(KILL_KEY);
      // Read a few times, a second apart: whenever Kiln says exact, it is the ledger's figure.
      for (let i = 0; i < 4; i++) {
        const shown = await credits(KILL_KEY);
        if (shown.exact !== false) expect(shown.balance, `round ${round}`).toBe(ledger.balance);
        else expect(shown.note).toBeTruthy();
        expectNoUnexplainedRise(shown.history);
        await sleep(1_000);
      }
      await stack.startReplica(victim);
    }
    // And a task on its own makes it exact and right again.
    await create(KILL_KEY, { model: 'beta-text', prompt: 'lone at last', mode: 'sync' }, 'l-last');
    const settled = await credits(KILL_KEY);
    expect(settled).toMatchObject({ balance: stack.mockLedger(KILL_KEY).balance, exact: true });
  }, 600_000);

  it('two back-to-back bursts: no rise in the history that a refund or a named correction does not explain', async () => {
    const run = Date.now();
    await create(
      BACK_KEY,
      { model: 'beta-text', prompt: `lone ${run}`, mode: 'sync' },
      `bl-${run}`,
    );
    const burst = (b: number) =>
      Promise.all(
        Array.from({ length: 15 }, (_, i) =>
          create(
            BACK_KEY,
            { model: 'beta-text', prompt: `${i % 3 === 0 ? 'mock:fail ' : ''}b${b} ${run} ${i}` },
            `bb-${run}-${b}-${i}`,
          ),
        ),
      );
    const first = await burst(1);
    const second = await burst(2);
    await Promise.all([...first, ...second].map((t) => pollUntilEnded(BACK_KEY, t.id)));
    const ledger = await expectEveryChargeRecorded(BACK_KEY);
    const shown = await credits(BACK_KEY);
    if (shown.exact !== false) expect(shown.balance).toBe(ledger.balance);
    expectNoUnexplainedRise(shown.history);
  }, 180_000);

  it('thirty made-up keys keep nothing: no idempotency record, counter, intent or collection', async () => {
    const db = new pg.Client({ connectionString: stack.pg.url });
    await db.connect();
    const count = async () => {
      const out: Record<string, number> = {};
      for (const table of [
        'idempotency_keys',
        'counters',
        'create_intents',
        'collections',
        'library',
        'balances',
      ])
        out[table] = Number((await db.query(`select count(*) as n from ${table}`)).rows[0].n);
      return out;
    };
    try {
      const before = await count();
      const invented = [
        ...Array.from({ length: 15 }, (_, i) => `tr_invented_${i}_${run()}`),
        ...Array.from({ length: 15 }, (_, i) => `not-even-a-tr-key-${i}`),
      ];
      for (const [i, key] of invented.entries()) {
        const answers = await Promise.all([
          fetch(`${stack.url}/api/v1/3d/generations`, {
            method: 'POST',
            headers: { ...headers(key), 'idempotency-key': `made-up-${i}` },
            body: JSON.stringify({ model: 'beta-text', prompt: `made up ${i}` }),
          }),
          fetch(`${stack.url}/api/collections`, {
            method: 'POST',
            headers: headers(key),
            body: JSON.stringify({ name: `shoes ${i}` }),
          }),
        ]);
        for (const a of answers) {
          expect(a.status, key).toBe(401);
          expect(await a.json()).toMatchObject({ error: { param: 'authorization' } });
        }
      }
      expect(await count()).toEqual(before);
    } finally {
      await db.end();
    }
  });
});

function run(): string {
  return Math.random().toString(36).slice(2);
}
