import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../contract/index.ts';
import { MAX_BATCH, blockedReason, checkPrice, modelsFor, parsePromptList } from './batch-plan.ts';

describe('parsePromptList', () => {
  it('takes one prompt a line, trimmed, skipping empty lines', () => {
    expect(parsePromptList('  a red vase \n\n\t\r\na wooden chair\r\n   \na lamp')).toEqual({
      prompts: ['a red vase', 'a wooden chair', 'a lamp'],
      problems: [],
    });
    expect(parsePromptList('')).toEqual({ prompts: [], problems: [] });
  });

  it('refuses more than 20 prompts, saying how many to remove', () => {
    const text = Array.from({ length: MAX_BATCH + 3 }, (_, i) => `thing ${i}`).join('\n');
    const list = parsePromptList(text);
    expect(list.prompts).toHaveLength(23);
    expect(list.problems).toEqual(['A batch takes at most 20 prompts; there are 23. Remove 3.']);
    expect(parsePromptList(text.split('\n').slice(0, 20).join('\n')).problems).toEqual([]);
  });

  it('names the lines longer than the API takes', () => {
    const long = 'x'.repeat(LIMITS.maxPromptLength + 1);
    const exact = 'y'.repeat(LIMITS.maxPromptLength);
    expect(parsePromptList(`a vase\n\n${long}\n${exact}`).problems).toEqual([
      'Line 3 is longer than 2,000 characters, the most a prompt may be.',
    ]);
    expect(parsePromptList(`${long}\n${long}`).problems).toEqual([
      'Lines 1, 2 are longer than 2,000 characters, the most a prompt may be.',
    ]);
  });
});

describe('checkPrice', () => {
  it('covers a batch the balance pays for, to the credit', () => {
    expect(checkPrice({ items: 3, creditsPerItem: 15, balance: 45 })).toMatchObject({
      verdict: 'covered',
      total: 45,
      after: 0,
    });
  });

  it('refuses a batch the known balance cannot cover, saying how many items to drop', () => {
    const short = checkPrice({ items: 3, creditsPerItem: 10, balance: 5 });
    expect(short).toMatchObject({ verdict: 'short', total: 30, after: -25 });
    expect(short.message).toBe(
      'This batch costs 30 credits and your balance is 5: 25 short. It does not cover one task at 10 credits.',
    );
    expect(checkPrice({ items: 20, creditsPerItem: 30, balance: 580, cheaper: true }).message).toBe(
      'This batch costs 600 credits and your balance is 580: 20 short. It covers 19 of the 20: remove 1 or pick a cheaper model.',
    );
    expect(checkPrice({ items: 2, creditsPerItem: 30, balance: 5, cheaper: true }).message).toMatch(
      /It does not cover one task at 30 credits; pick a cheaper model\.$/,
    );
  });

  it('says when the balance or the price is not known, without refusing', () => {
    expect(checkPrice({ items: 2, creditsPerItem: 10, balance: null })).toMatchObject({
      verdict: 'balance-unknown',
      total: 20,
    });
    expect(checkPrice({ items: 2, creditsPerItem: null, balance: 100 })).toMatchObject({
      verdict: 'price-unknown',
      total: null,
    });
  });
});

describe('modelsFor', () => {
  const models = [
    { id: 'alpha', input: 'image' as const },
    { id: 'beta-multiview', input: 'multiview' as const },
    { id: 'beta-text', input: 'text' as const },
    { id: 'gamma', input: 'image' as const },
  ];
  it('offers single-image models for photos and text models for prompts', () => {
    expect(modelsFor('photos', models).map((m) => m.id)).toEqual(['alpha', 'gamma']);
    expect(modelsFor('prompts', models).map((m) => m.id)).toEqual(['beta-text']);
  });
});

describe('blockedReason', () => {
  const base = {
    kind: 'photos' as const,
    items: 3,
    checking: 0,
    problems: [],
    model: 'beta',
    price: checkPrice({ items: 3, creditsPerItem: 15, balance: 1000 }),
    busy: false,
  };
  it('lets a covered, checked batch go', () => {
    expect(blockedReason(base)).toBeNull();
    expect(
      blockedReason({
        ...base,
        price: checkPrice({ items: 3, creditsPerItem: 15, balance: null }),
      }),
    ).toBeNull();
  });
  it('says the first thing in the way', () => {
    expect(blockedReason({ ...base, items: 0 })).toBe('Add photos first.');
    expect(blockedReason({ ...base, kind: 'prompts', items: 0 })).toBe(
      'Write one prompt a line first.',
    );
    expect(blockedReason({ ...base, checking: 1 })).toBe('Checking the photos…');
    expect(blockedReason({ ...base, problems: ['“a.txt” is plain text.'] })).toBe(
      '“a.txt” is plain text.',
    );
    expect(blockedReason({ ...base, model: null })).toBe('Pick a model.');
    expect(blockedReason({ ...base, busy: true })).toBe('The current batch is still being sent.');
    expect(
      blockedReason({ ...base, price: checkPrice({ items: 3, creditsPerItem: 15, balance: 5 }) }),
    ).toMatch(/^This batch costs 45 credits and your balance is 5/);
  });
});
