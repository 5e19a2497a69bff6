import { describe, expect, it } from 'vitest';
import { deriveBalance, type LedgerTask } from './ledger.ts';

const PRICES = new Map([
  ['alpha', 10],
  ['gamma', 30],
]);

/** A task charged in [sent, answered]; completed with the balance right after its charge. */
function done(id: string, sent: number, answered: number, remaining: number, price = 10) {
  return {
    taskId: id,
    model: price === 30 ? 'gamma' : 'alpha',
    status: 'completed',
    sentMs: sent,
    answeredMs: answered,
    lastPendingMs: answered,
    endedMs: answered + 1000,
    creditsConsumed: price,
    creditsRemaining: remaining,
  } satisfies LedgerTask;
}

function failed(id: string, sent: number, answered: number, lastPending: number, ended: number) {
  return {
    taskId: id,
    model: 'alpha',
    status: 'failed',
    sentMs: sent,
    answeredMs: answered,
    lastPendingMs: lastPending,
    endedMs: ended,
    creditsConsumed: null,
    creditsRemaining: null,
  } satisfies LedgerTask;
}

function pending(id: string, sent: number, answered: number, model = 'alpha') {
  return {
    taskId: id,
    model,
    status: 'pending',
    sentMs: sent,
    answeredMs: answered,
    lastPendingMs: answered,
    endedMs: null,
    creditsConsumed: null,
    creditsRemaining: null,
  } satisfies LedgerTask;
}

const derive = (tasks: LedgerTask[], more: Partial<Parameters<typeof deriveBalance>[0]> = {}) =>
  deriveBalance({
    tasks,
    refusals: [],
    unresolvedSentMs: [],
    prices: PRICES,
    clockMarginMs: 0,
    ...more,
  });

describe('the balance derived from charges, refunds and what the upstream stated', () => {
  it('knows nothing before the upstream has stated a balance', () => {
    expect(derive([pending('a', 0, 10)])).toEqual({
      balance: null,
      asOfMs: null,
      throughMs: null,
      exact: false,
      note: null,
      history: [],
    });
  });

  it('follows one task after another exactly', () => {
    const b = derive([done('a', 0, 10, 990), done('b', 100, 110, 960, 30)]);
    expect(b).toMatchObject({ balance: 960, exact: true, note: null, asOfMs: 110 });
    expect(b.history.map((h) => [h.kind, h.balance])).toEqual([
      ['stated', 990],
      ['charge', 960],
    ]);
  });

  it('counts a task still under way, at its model’s price', () => {
    const b = derive([done('a', 0, 10, 990), pending('b', 100, 110, 'gamma')]);
    expect(b).toMatchObject({ balance: 960, exact: true, asOfMs: 10 });
  });

  it('is true as of the newest thing Kiln saw: the statement, or a charge or refund after it', () => {
    // Stated at 10; nothing since: as of the statement.
    expect(derive([done('a', 0, 10, 990)])).toMatchObject({ asOfMs: 10, throughMs: 10 });
    // Stated at 10, then Kiln charged b (answered at 110): as of that charge, the statement still 10.
    expect(derive([done('a', 0, 10, 990), pending('b', 100, 110, 'gamma')])).toMatchObject({
      asOfMs: 10,
      throughMs: 110,
    });
    // A refund seen at 300 after the newest statement (60): as of the refund.
    expect(derive([failed('f', 0, 10, 200, 300), done('a', 50, 60, 980)])).toMatchObject({
      asOfMs: 60,
      throughMs: 300,
    });
  });

  it('puts back the refund of a task that failed after the newest completed charge', () => {
    // f charged first, then a (the upstream says 980 after a), then f fails: 990.
    const b = derive([failed('f', 0, 10, 200, 300), done('a', 50, 60, 980)]);
    expect(b).toMatchObject({ balance: 990, exact: true });
    expect(b.history.map((h) => [h.kind, h.balance])).toEqual([
      ['stated', 980],
      ['refund', 990],
    ]);
  });

  it('does not count a refund the upstream’s figure already holds', () => {
    const b = derive([
      done('a', 0, 10, 990),
      failed('f', 20, 30, 40, 50),
      done('b', 100, 110, 980),
    ]);
    expect(b).toMatchObject({ balance: 980, exact: true });
  });

  it('does not take the newest completion for the newest balance (a slow early task)', () => {
    // a is charged before b, but completes after it: its figure is older news.
    const b = derive([done('x', 0, 10, 1000), done('a', 100, 110, 990), done('b', 200, 210, 980)]);
    expect(b.balance).toBe(980);
    // Completion order does not matter: the windows of the charges do.
    const swapped = derive([
      done('x', 0, 10, 1000),
      { ...done('a', 100, 110, 990), endedMs: 5000 },
      { ...done('b', 200, 210, 980), endedMs: 300 },
    ]);
    expect(swapped.balance).toBe(980);
  });

  it('after a burst of overlapping charges with failures, equals the ledger once it settles', () => {
    // A lone task states 1000; then twelve creates at once (every third fails, refunded later).
    const tasks: LedgerTask[] = [done('lone', 0, 10, 1000)];
    let truth = 1000;
    const order = [5, 2, 9, 0, 11, 7, 3, 10, 1, 8, 4, 6]; // the upstream's charge order
    const charged: number[] = [];
    for (const i of order) {
      truth -= 10;
      charged[i] = truth;
    }
    for (let i = 0; i < 12; i++) {
      if (i % 3 === 0) tasks.push(failed(`t${i}`, 100, 150 + i, 400, 500 + i));
      else tasks.push(done(`t${i}`, 100, 150 + i, charged[i]!));
    }
    const refunds = 4 * 10;
    const b = derive(tasks);
    expect(b).toMatchObject({ balance: 1000 - 120 + refunds, exact: true, asOfMs: 10 });
    // The history goes up only at refunds.
    for (let i = 1; i < b.history.length; i++)
      if (b.history[i]!.balance > b.history[i - 1]!.balance)
        expect(b.history[i]!.kind).toBe('refund');
  });

  it('says so when a burst came first and no figure can be placed', () => {
    const b = derive([failed('f', 0, 30, 40, 50), done('a', 0, 20, 960), done('b', 0, 25, 970)]);
    expect(b.exact).toBe(false);
    expect(b.note).toMatch(/overlapping moments/);
    // The ledger from the first figure the upstream stated (its place is not known).
    expect(b).toMatchObject({ balance: 970, asOfMs: 20 });
  });

  it('is exact again once a task on its own states the balance', () => {
    const b = derive([
      failed('f', 0, 30, 40, 50),
      done('a', 0, 20, 960),
      done('b', 0, 25, 970),
      done('c', 1000, 1010, 950),
    ]);
    expect(b).toMatchObject({ balance: 950, exact: true, note: null });
  });

  it('learns from a refusal’s figure, and corrects to a top-up it did not see', () => {
    const b = derive([done('a', 0, 10, 990), done('b', 500, 510, 1980)], {
      refusals: [{ balance: 5, sentMs: 300, answeredMs: 310 }],
    });
    expect(b).toMatchObject({ balance: 1980, exact: true });
    expect(b.history.map((h) => [h.kind, h.balance])).toEqual([
      ['stated', 990],
      ['correction', 5],
      ['correction', 1990],
      ['charge', 1980],
    ]);
    // A correction is never money that came in: it names both figures and why they differ.
    expect(b.history[2]!.correction).toEqual({ ledger: 5, stated: 1990, cause: 'outside' });
  });

  it('a replayed create after a replica died: counted once, never exact and wrong (issue 31)', () => {
    // A lone task states 1000 − 10. Then a burst: r is charged at 105 (balance 980) and its
    // replica dies; b is charged at 110 (970), c at 120 (960). The client retries r; the
    // upstream replays it, answered at 10,000, with its frozen figure 980.
    const lone = done('a', 0, 10, 990);
    const b1 = { ...done('b', 108, 112, 970), endedMs: 400 };
    const c1 = { ...done('c', 118, 122, 960), endedMs: 500 };
    // Before issue 31 the row had the retry's window: a clean, late figure of 980 (+20).
    const asRetried = { ...done('r', 9_990, 10_000, 980), endedMs: 10_100 };
    expect(derive([lone, b1, c1, asRetried])).toMatchObject({ balance: 980, exact: true });
    // Now the window opens at the first attempt's send, and the figure proves nothing.
    const recovered = { ...asRetried, sentMs: 100, recovered: true };
    const b = derive([lone, b1, c1, recovered]);
    expect(b.balance).toBe(960);
    expect(b.exact).toBe(false);
    expect(b.note).toMatch(/answered again after a restart/);
    // A task on its own afterwards states a newer balance: exact again.
    expect(derive([lone, b1, c1, recovered, done('d', 20_000, 20_010, 950)])).toMatchObject({
      balance: 950,
      exact: true,
      note: null,
    });
  });

  it('without a clean figure, the upstream’s figures are corrections with cause `overlap`', () => {
    // Three charges at overlapping moments, their figures out of order: 980 is seen after 970.
    const b = derive([done('a', 0, 30, 970), done('b', 0, 40, 980), done('c', 0, 50, 960)]);
    expect(b.exact).toBe(false);
    for (let i = 1; i < b.history.length; i++)
      if (b.history[i]!.balance > b.history[i - 1]!.balance) {
        expect(b.history[i]!.kind).toBe('correction');
        expect(b.history[i]!.correction).toMatchObject({
          ledger: b.history[i - 1]!.balance,
          stated: b.history[i]!.balance,
          cause: 'overlap',
        });
      }
  });

  it('is not exact while a price is unknown, or a create’s answer was lost', () => {
    const unknown = derive([done('a', 0, 10, 990), pending('b', 100, 110, 'beta')]);
    expect(unknown).toMatchObject({ balance: 990, exact: false });
    expect(unknown.note).toMatch(/price of a task/);
    const lost = derive([done('a', 0, 10, 990)], { unresolvedSentMs: [50] });
    expect(lost).toMatchObject({ balance: 990, exact: false });
    expect(lost.note).toMatch(/lost the answer/);
    // A lost answer before the figure changes nothing.
    expect(derive([done('a', 100, 110, 990)], { unresolvedSentMs: [50] }).exact).toBe(true);
  });

  it('orders windows that only touch (one process, one clock), but not across replicas', () => {
    const tasks = [done('a', 0, 10, 990), done('b', 10, 20, 980)];
    expect(derive(tasks, { clockMarginMs: 0 })).toMatchObject({ balance: 980, exact: true });
    expect(derive(tasks, { clockMarginMs: 50 })).toMatchObject({ exact: false });
  });

  it('whenever it says exact, it is the ledger’s balance (random bursts and failures)', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let exactRuns = 0;
    for (let run = 0; run < 300; run++) {
      // The truth: a ledger of charges and refunds at known instants.
      let balance = 10_000;
      const events: { at: number; apply: () => void }[] = [];
      const tasks: LedgerTask[] = [];
      let t = 0;
      const n = 1 + Math.floor(random() * 12);
      for (let i = 0; i < n; i++) {
        t += random() < 0.5 ? Math.floor(random() * 5) : 50 + Math.floor(random() * 200);
        const sent = t;
        const chargeAt = sent + Math.floor(random() * 10);
        const answered = chargeAt + Math.floor(random() * 10);
        const price = random() < 0.5 ? 10 : 30;
        const fails = random() < 0.3;
        // Some creates lose their answer to a killed replica: the retry's answer comes much later,
        // and the row keeps the first attempt's send (a recovery path, decision 0091).
        const recovered = random() < 0.15;
        const task: LedgerTask = {
          taskId: `t${i}`,
          model: price === 30 ? 'gamma' : 'alpha',
          status: fails ? 'failed' : 'completed',
          sentMs: sent,
          answeredMs: recovered ? answered + 300 + Math.floor(random() * 300) : answered,
          recovered,
          lastPendingMs: answered,
          endedMs: null,
          creditsConsumed: fails ? null : price,
          creditsRemaining: null,
        };
        events.push({
          at: chargeAt,
          apply: () => {
            balance -= price;
            if (!fails) task.creditsRemaining = balance;
          },
        });
        if (fails) {
          const refundAt = answered + 1 + Math.floor(random() * 100);
          task.lastPendingMs = refundAt - Math.floor(random() * 5) - 1;
          task.endedMs = refundAt + Math.floor(random() * 5);
          events.push({ at: refundAt, apply: () => void (balance += price) });
        } else task.endedMs = answered + 100;
        tasks.push(task);
      }
      events.sort((a, b) => a.at - b.at).forEach((e) => e.apply());
      const b = derive(tasks, { clockMarginMs: 0 });
      if (b.exact) {
        exactRuns++;
        expect(b.balance, `run ${run}`).toBe(balance);
      }
      // The history goes up only at a refund (no top-ups here) when it is exact; otherwise at
      // a refund or a correction that names both figures and its cause, never unexplained.
      for (let i = 1; i < b.history.length; i++) {
        const [was, now] = [b.history[i - 1]!, b.history[i]!];
        if (now.balance <= was.balance) continue;
        if (b.exact) expect(now.kind, `run ${run}`).toBe('refund');
        else if (now.kind !== 'refund')
          expect(now.correction, `run ${run}`).toMatchObject({
            ledger: was.balance,
            stated: now.balance,
          });
      }
    }
    expect(exactRuns).toBeGreaterThan(60);
  });
});
