// Truth under faults, round two (issue 31), on the real stack of docs/deploy.md: PostgreSQL,
// s3rver, the standalone mock, two replicas behind nginx. PostgreSQL restarted under load ends
// no replica; back-to-back bursts leave no rise in the history that nothing explains; made-up
// keys keep nothing. A replica killed in a keyed burst: trust-kill.scale.test.ts, on a stack of
// its own, so that the two fault loops run side by side.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../async/index.ts';
import { startStack, type Stack } from '../testing/stack.ts';
import { expectNoUnexplainedRise, headers, trustClient } from '../testing/trust-client.ts';

const LOAD_KEY = 'tr_restart_load';
const BACK_KEY = 'tr_back_to_back';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    replicas: 2,
    mockSpeed: 'fast',
    keys: [`${LOAD_KEY}:100000`, `${BACK_KEY}:100000`],
    // The create limit on, as in production, so that its counters are in the made-up-key count.
    env: { CREATE_RATE_LIMIT: '1000' },
  });
});
afterAll(() => stack?.stop());

const { seen, create, pollUntilEnded, credits, expectEveryChargeRecorded } = trustClient(
  () => stack,
);

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
