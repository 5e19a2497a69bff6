import { describe, expect, it } from 'vitest';
import { balanceInRefusal } from './service.ts';

describe('balanceInRefusal', () => {
  const body = (message: unknown) => JSON.stringify({ error: { type: 'x', message } });

  it('reads the balance a 402 states', () => {
    expect(
      balanceInRefusal(body('Not enough credits: gamma costs 30 credits and the balance is 5.')),
    ).toBe(5);
    expect(balanceInRefusal(body('Insufficient credits (balance: 120).'))).toBe(120);
  });

  it('learns nothing from a body that names no balance, or is not JSON', () => {
    expect(balanceInRefusal(body('Not enough credits.'))).toBeUndefined();
    expect(balanceInRefusal('<html>502</html>')).toBeUndefined();
    expect(balanceInRefusal(body(42))).toBeUndefined();
  });
});
