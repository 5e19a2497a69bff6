import { describe, expect, it } from 'vitest';
import { makeBatch } from './new-batch.ts';

describe('makeBatch', () => {
  it('makes one queued item per prompt, each with its own key', () => {
    let n = 0;
    const { batch, photos } = makeBatch(
      { kind: 'prompts', model: 'beta-text', creditsPerItem: 10, prompts: ['a vase', 'a mug'] },
      { nowMs: 36 ** 3, newKey: () => `key-${++n}` },
    );
    expect(batch).toMatchObject({
      id: 'b1000',
      kind: 'prompts',
      model: 'beta-text',
      creditsPerItem: 10,
      createdMs: 36 ** 3,
    });
    expect(batch.items.map((i) => [i.id, i.name, i.prompt, i.idempotencyKey, i.state])).toEqual([
      ['b1000-1', 'a vase', 'a vase', 'key-1', 'queued'],
      ['b1000-2', 'a mug', 'a mug', 'key-2', 'queued'],
    ]);
    expect(photos).toEqual([]);
  });

  it('names a photo item by its file, and hands back each photo by item id', () => {
    const chair = new File([new Uint8Array([1])], 'chair.png', { type: 'image/png' });
    const unnamed = new File([new Uint8Array([2])], '', { type: 'image/png' });
    const { batch, photos } = makeBatch(
      { kind: 'photos', model: 'beta', creditsPerItem: null, photos: [chair, unnamed] },
      { nowMs: 1, newKey: () => 'k' },
    );
    expect(batch.items.map((i) => [i.name, i.prompt, i.upload])).toEqual([
      ['chair.png', null, null],
      ['photo', null, null],
    ]);
    expect(photos).toEqual([
      ['b1-1', chair],
      ['b1-2', unnamed],
    ]);
  });
});
