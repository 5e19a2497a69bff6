import { describe, expect, it } from 'vitest';
import type { Task } from '../../../contract/index.ts';
import { itemStatus } from './batch-status.ts';
import type { BatchItem } from './batch-store.ts';

const item = (change: Partial<BatchItem>): BatchItem => ({
  id: 'b-1',
  name: 'chair.png',
  prompt: null,
  upload: null,
  idempotencyKey: 'k',
  state: 'queued',
  taskId: null,
  error: null,
  earlierTaskIds: [],
  ...change,
});
const task = (change: Partial<Task>): Task => ({ id: 't', status: 'pending', ...change }) as Task;

describe('itemStatus', () => {
  it('says where an item stands before its task exists', () => {
    expect(itemStatus(item({}), undefined).line).toBe('Waiting to be sent');
    expect(itemStatus(item({ state: 'uploading' }), undefined, 0.42)).toEqual({
      tone: 'running',
      line: 'Uploading the photo 42%',
      progress: 42,
    });
    expect(itemStatus(item({ state: 'uploading' }), undefined, 1).line).toBe(
      'Preparing the photo…',
    );
    expect(itemStatus(item({ state: 'creating' }), undefined).line).toBe('Sending…');
    expect(itemStatus(item({ state: 'failed', error: 'Not sent: no.' }), undefined)).toEqual({
      tone: 'failed',
      line: 'Not sent: no.',
      progress: null,
    });
  });

  it('follows its task: the stage and progress, the end, a failure in the studio’s words', () => {
    const sent = item({ state: 'created', taskId: 't' });
    expect(itemStatus(sent, task({ progress: 40, progress_stage: 'Generating 3D mesh' }))).toEqual({
      tone: 'running',
      line: 'Generating 3D mesh · 40%',
      progress: 40,
    });
    expect(itemStatus(sent, task({ status: 'completed', progress: 100 })).tone).toBe('ok');
    expect(
      itemStatus(
        sent,
        task({
          status: 'failed',
          error: { message: 'No object found in image_url (image_url)', param: 'image_url' },
        }),
      ).line,
    ).toBe('No object found in the photo');
  });
});
