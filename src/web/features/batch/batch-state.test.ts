import { describe, expect, it } from 'vitest';
import { createBatchState } from './batch-state.ts';
import { promptBatch, promptItem } from './batch-fixtures.ts';
import { loadBatch, saveBatch, type Batch } from './batch-store.ts';
import { memoryStorage } from '../../../testing/memory-storage.ts';

const batch: Batch = promptBatch([promptItem(1, 'a vase')]);

describe('the batch state', () => {
  it('opens the batch kept for a key without telling anyone (the render reads it next)', () => {
    const storage = memoryStorage();
    saveBatch('k1', batch, storage);
    const state = createBatchState(storage);
    let told = 0;
    state.view.subscribe(() => told++);
    state.open('k1');
    expect(state.scope()).toBe('k1');
    expect(state.batch()).toEqual(batch);
    expect(state.view.get()).toMatchObject({ sending: 0, pausedUntil: null, kept: true });
    state.open('k2');
    expect(state.batch()).toBeNull();
    expect(told).toBe(0);
  });

  it('keeps what changes for the open key, and tells the page', () => {
    const storage = memoryStorage();
    const state = createBatchState(storage);
    let told = 0;
    state.view.subscribe(() => told++);
    state.open('k1');
    state.keep(batch);
    state.updateItem('b1-1', { state: 'created', taskId: 'task_1' });
    expect(loadBatch('k1', storage)?.items[0]).toMatchObject({
      state: 'created',
      taskId: 'task_1',
    });
    state.show({ sending: 2 });
    expect(state.view.get().sending).toBe(2);
    expect(told).toBe(3);
    state.keep(null);
    expect(loadBatch('k1', storage)).toBeNull();
  });

  it('says when storage refused the batch', () => {
    const storage = memoryStorage();
    storage.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    const state = createBatchState(storage);
    state.open('k1');
    state.keep(batch);
    expect(state.view.get()).toMatchObject({ batch, kept: false });
  });
});
