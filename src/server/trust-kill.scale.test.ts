// Truth under faults, round two (issue 31): a replica killed with kill -9 early in a keyed burst,
// five rounds, on the real stack of docs/deploy.md (PostgreSQL, s3rver, the standalone mock, two
// replicas behind nginx), leaves no balance that is exact and wrong. On a stack of its own, beside
// trust.scale.test.ts's PostgreSQL restarts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../async/index.ts';
import type { Task } from '../contract/index.ts';
import { startStack, type Stack } from '../testing/stack.ts';
import { expectNoUnexplainedRise, trustClient } from '../testing/trust-client.ts';

const KILL_KEY = 'tr_kill_burst';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    replicas: 2,
    mockSpeed: 'fast',
    keys: [`${KILL_KEY}:100000`],
    env: { CREATE_RATE_LIMIT: '1000' },
  });
});
afterAll(() => stack?.stop());

const { create, pollUntilEnded, credits, expectEveryChargeRecorded } = trustClient(() => stack);

describe('trust under faults, round two: kill -9', () => {
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
});
