import { describe, expect, it } from 'vitest';
import { cannotAfford } from './model-picker.tsx';

describe('cannotAfford', () => {
  it('says what a model needs when the known balance is short', () => {
    expect(cannotAfford({ credits: 30 }, 5)).toBe('Needs 30 credits; you have 5.');
  });
  it('says nothing when it can pay, or when the balance or price is unknown', () => {
    expect(cannotAfford({ credits: 10 }, 10)).toBeNull();
    expect(cannotAfford({ credits: 30 }, null)).toBeNull();
    expect(cannotAfford({ credits: null }, 0)).toBeNull();
  });
});
