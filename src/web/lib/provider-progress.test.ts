import { describe, expect, it } from 'vitest';
import type { Task } from '../../contract/index.ts';
import { vendorProgress } from './provider-progress.ts';

const task = (t: Partial<Task> & Record<string, unknown>): Task =>
  ({ id: 'fal_abc', status: 'pending', progress: null, ...t }) as Task;

describe('a vendor task’s progress', () => {
  it('says Meshy’s step, fal’s queue position, and never a percentage the vendor did not state', () => {
    expect(
      vendorProgress(
        task({ id: 'meshy_1', progress: 40, step: { index: 1, of: 2, name: 'preview' } }),
      ),
    ).toEqual({ words: 'Step 1 of 2: preview', percent: 40 });
    expect(vendorProgress(task({ queue_position: 3 }))).toEqual({
      words: 'In queue, position 3',
      percent: null,
    });
    expect(vendorProgress(task({ queue_position: 0 }))?.words).toBe('In queue, next');
    expect(vendorProgress(task({}))).toEqual({ words: 'Running', percent: null });
    expect(vendorProgress(task({ id: 'task_1', progress: 10 }))).toBeUndefined();
  });
});
