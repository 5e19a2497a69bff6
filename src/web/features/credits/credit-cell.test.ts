import { describe, expect, it } from 'vitest';
import { creditCell } from './credit-cell.ts';

describe('creditCell', () => {
  it('shows the credits a completed task consumed', () => {
    expect(creditCell({ status: 'completed', credits_consumed: 30 }, 30)).toEqual({
      text: '30',
      tone: 'spent',
    });
    expect(creditCell({ status: 'completed', credits_consumed: 0 }, 30).text).toBe('0');
  });

  it('shows a dash when the cost is not known', () => {
    expect(creditCell({ status: 'completed', credits_consumed: null }, 30)).toEqual({
      text: '—',
      tone: 'unknown',
    });
  });

  it("says 'pending' while a task runs", () => {
    expect(creditCell({ status: 'pending', credits_consumed: 30 }, 30)).toEqual({
      text: 'pending',
      tone: 'pending',
    });
  });

  it('shows a failed task’s refund from the model price', () => {
    expect(creditCell({ status: 'failed', credits_consumed: null }, 30)).toEqual({
      text: '+30 refunded',
      tone: 'refunded',
    });
    expect(creditCell({ status: 'failed', credits_consumed: 0 }, 20).text).toBe('+20 refunded');
  });

  it('prefers what the task itself consumed', () => {
    expect(creditCell({ status: 'failed', credits_consumed: 25 }, 30).text).toBe('+25 refunded');
  });

  it("says '0 (refunded)' when the price is unknown", () => {
    expect(creditCell({ status: 'failed', credits_consumed: null }, undefined).text).toBe(
      '0 (refunded)',
    );
    expect(creditCell({ status: 'failed', credits_consumed: null }, 0).text).toBe('0 (refunded)');
  });

  it('formats numbers with the given formatter', () => {
    const num = (n: number) => `#${n}`;
    expect(creditCell({ status: 'completed', credits_consumed: 1500 }, null, num).text).toBe(
      '#1500',
    );
    expect(creditCell({ status: 'failed', credits_consumed: null }, 1500, num).text).toBe(
      '+#1500 refunded',
    );
  });

  it("shows a vendor's task in the vendor's own unit: fal in dollars, never credits", () => {
    const fal = { amount: 0.02, unit: 'USD' as const };
    expect(creditCell({ status: 'completed', credits_consumed: null, cost: fal }, 30)).toEqual({
      text: '$0.02',
      tone: 'spent',
    });
    expect(creditCell({ status: 'pending', credits_consumed: null, cost: fal }, 30).text).toBe(
      'pending',
    );
    const refunded = { amount: 0, unit: 'USD' as const };
    expect(creditCell({ status: 'failed', credits_consumed: null, cost: refunded }, 30)).toEqual({
      text: '0 (refunded)',
      tone: 'refunded',
    });
    // A Meshy text task whose refine failed keeps its preview's charge.
    const preview = { amount: 20, unit: 'credits' as const };
    expect(creditCell({ status: 'failed', credits_consumed: null, cost: preview }, 30).text).toBe(
      '20 credits',
    );
  });
});
