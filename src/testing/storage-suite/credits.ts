// What the balance is derived from: each task's windows, the refusals' balances, the intents.
import { describe, expect, it } from 'vitest';
import { type Using, row, completed } from './rows.ts';

export function creditTests(using: Using) {
  describe('the credits ledger', () => {
    it('keeps the windows of each charge and refund, and the balances refusals stated', () =>
      using(async ({ library, intents }) => {
        await library.insert(row('o1', 'w1', { sentMs: 100, answeredMs: 120, updatedMs: 120 }));
        await library.insert(row('o1', 'w2', { sentMs: 130, answeredMs: 150, updatedMs: 150 }));
        await library.update('w1', { ...completed, creditsRemaining: 990 }, 400);
        const pending = {
          ...completed,
          status: 'pending',
          progress: 20,
          creditsConsumed: null,
          creditsRemaining: null,
          upstreamModelUrl: null,
          completedAt: null,
        };
        await library.update('w2', pending, 300);
        const failed = { ...pending, status: 'failed', error: { message: 'no' } };
        await library.update('w2', failed, 500);
        // A late poll of the failed one changes neither window.
        await library.update('w2', failed, 900);
        const ledger = await library.ledger('o1', 10);
        expect(ledger).toEqual([
          expect.objectContaining({
            taskId: 'w1',
            sentMs: 100,
            answeredMs: 120,
            endedMs: 400,
            creditsRemaining: 990,
          }),
          expect.objectContaining({
            taskId: 'w2',
            sentMs: 130,
            answeredMs: 150,
            lastPendingMs: 300,
            endedMs: 500,
            status: 'failed',
          }),
        ]);
        expect(await library.ledger('o2', 10)).toEqual([]);
        await library.recordBalance('o1', 5, 700, null, 690);
        expect(await library.refusals('o1', 10)).toEqual([
          { balance: 5, sentMs: 690, answeredMs: 700 },
        ]);
        // Intents: written before a create is sent, gone once answered.
        await intents.record({
          id: 'i1',
          owner: 'o1',
          holder: 'h',
          sentMs: 10,
          model: 'alpha',
          summary: 'a cube',
        });
        await intents.record({
          id: 'i2',
          owner: 'o1',
          holder: 'h',
          sentMs: 20,
          model: 'alpha',
          summary: 'a cube',
        });
        await expect(
          intents.record({
            id: 'i2',
            owner: 'o1',
            holder: 'h',
            sentMs: 20,
            model: 'alpha',
            summary: 'x',
          }),
        ).rejects.toThrow();
        await intents.remove('i1');
        expect((await intents.unresolved('o1', 1000)).map((i) => i.id)).toEqual(['i2']);
        expect(await intents.unresolved('o1', 15)).toEqual([]);
        expect(await intents.unresolved('o2', 1000)).toEqual([]);
      }));
  });
}
