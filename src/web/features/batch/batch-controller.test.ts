import { describe, expect, it } from 'vitest';
import type { BatchApi } from '../../api/tasks.ts';
import type { CreateGenerationInput, Task, UploadResult } from '../../../contract/index.ts';
import { createBatchController } from './batch-controller.ts';
import { promptBatch, promptItem } from './batch-fixtures.ts';
import { loadBatch, saveBatch } from './batch-store.ts';
import { memoryPhotoStore } from './photo-store.ts';
import { memoryStorage } from '../../../testing/memory-storage.ts';

/**
 * An upstream that honours Idempotency-Key as the server does: the same key gets the task it
 * already made. `tasks` is every task it made.
 */
function fakeApi(scope = 'k1') {
  const byKey = new Map<string, string>();
  const tasks: { id: string; body: CreateGenerationInput }[] = [];
  const uploads: string[] = [];
  const api: BatchApi = {
    scope,
    async create(body, key) {
      let id = byKey.get(key);
      if (!id) {
        id = `task_${tasks.length + 1}`;
        byKey.set(key, id);
        tasks.push({ id, body });
      }
      return { id, object: 'task', status: 'pending', created: 1 } as Task;
    },
    async upload(file) {
      uploads.push((file as File).name);
      const sha256 = String(uploads.length).padStart(64, '0');
      return { url: `https://kiln.test/api/uploads/${sha256}.png`, sha256 } as UploadResult;
    },
    uploadPath: (r) => `/api/uploads/${r.sha256}.png`,
  };
  return { api, byKey, tasks, uploads };
}

let keys = 0;
const controllerOver = (storage: Storage, photos = memoryPhotoStore()) =>
  createBatchController({
    storage,
    photos,
    describe: (e) => (e instanceof Error ? e.message : String(e)),
    newKey: () => `kiln-key-${++keys}`,
  });

describe('the batch controller through a reload', () => {
  it('keeps a batch through a reload and resumes it without a second task for anything sent', async () => {
    const storage = memoryStorage();
    const upstream = fakeApi();
    // Before the reload: item 1 has its task; item 2's create went out but its answer was
    // lost (the upstream made task_2 under its key); item 3 had not been sent; item 4 failed.
    upstream.byKey.set('key-1', 'task_1');
    upstream.byKey.set('key-2', 'task_2');
    upstream.tasks.push(
      { id: 'task_1', body: { model: 'beta-text', prompt: 'one' } },
      { id: 'task_2', body: { model: 'beta-text', prompt: 'two' } },
    );
    const kept = promptBatch([
      promptItem(1, 'one', { state: 'created', taskId: 'task_1' }),
      promptItem(2, 'two', { state: 'creating' }),
      promptItem(3, 'three', { state: 'queued' }),
      promptItem(4, 'four', { state: 'failed', error: 'Prompt refused.' }),
    ]);
    saveBatch('k1', kept, storage);

    const controller = controllerOver(storage);
    controller.open('k1');
    expect(controller.view.get().batch?.items.map((i) => i.state)).toEqual([
      'created',
      'creating',
      'queued',
      'failed',
    ]);
    await controller.resume(upstream.api);

    expect(upstream.tasks.map((t) => t.id)).toEqual(['task_1', 'task_2', 'task_3']);
    const after = loadBatch('k1', storage)!;
    expect(after.items.map((i) => [i.state, i.taskId, i.idempotencyKey])).toEqual([
      ['created', 'task_1', 'key-1'],
      ['created', 'task_2', 'key-2'], // the server's replay: the task made before the reload
      ['created', 'task_3', 'key-3'],
      ['failed', null, 'key-4'], // failures wait for Retry, not for a reload
    ]);

    // Resuming again sends nothing.
    await controller.resume(upstream.api);
    expect(upstream.tasks).toHaveLength(3);
  });
});

describe('the batch controller with photos', () => {
  it('uploads photos kept for a reload, and retries a failed item alone with a new key', async () => {
    const storage = memoryStorage();
    const photos = memoryPhotoStore();
    const upstream = fakeApi();
    const file = (name: string) =>
      new File([new Uint8Array([1, 2, 3])], name, { type: 'image/png' });
    // As a start leaves things before its first upload: the batch kept, its photos in the store.
    const photoItem = (n: number, name: string) => ({
      id: `b3-${n}`,
      name,
      prompt: null,
      upload: null,
      idempotencyKey: `key-${n}`,
      state: 'queued' as const,
      taskId: null,
      error: null,
      earlierTaskIds: [],
    });
    saveBatch(
      'k1',
      {
        id: 'b3',
        kind: 'photos',
        model: 'beta',
        creditsPerItem: 15,
        createdMs: 1,
        items: [photoItem(1, 'chair.png'), photoItem(2, 'horse.png')],
      },
      storage,
    );
    await photos.put('b3-1', file('chair.png'));
    await photos.put('b3-2', new Blob([new Uint8Array([4, 5])], { type: 'image/png' }));

    // "Reload": a new controller, the same storage and photo store.
    const second = controllerOver(storage, photos);
    second.open('k1');
    await second.resume(upstream.api);
    const batch = second.view.get().batch!;
    expect(batch.items.map((i) => i.state)).toEqual(['created', 'created']);
    expect(upstream.uploads.sort()).toEqual(['chair.png', 'horse.png']);
    expect(photos.size).toBe(0); // uploaded photos are not kept

    const before = batch.items[1]!;
    await second.retry(before.id, upstream.api);
    const retried = second.view.get().batch!.items[1]!;
    expect(retried.idempotencyKey).not.toBe(before.idempotencyKey);
    expect(retried.taskId).not.toBe(before.taskId);
    expect(retried.earlierTaskIds).toEqual([before.taskId]);
    expect(retried.upload).toEqual(before.upload); // the photo is not uploaded again
    expect(upstream.uploads).toHaveLength(2);
    expect(upstream.tasks).toHaveLength(3);
  });
});

describe('the batch controller, per key and after a lost photo', () => {
  it('keeps each key’s batch apart, and forgets one that is cleared', async () => {
    const storage = memoryStorage();
    const upstream = fakeApi('k1');
    const controller = controllerOver(storage);
    controller.open('k1');
    await controller.start(
      { kind: 'prompts', model: 'beta-text', creditsPerItem: 10, prompts: ['a vase'] },
      upstream.api,
    );
    controller.open('k2');
    expect(controller.view.get().batch).toBeNull();
    controller.open('k1');
    expect(controller.view.get().batch?.items[0]?.taskId).toBe('task_1');
    controller.clear();
    expect(loadBatch('k1', storage)).toBeNull();
  });

  it('says when a photo was not kept through the reload', async () => {
    const storage = memoryStorage();
    const upstream = fakeApi();
    saveBatch(
      'k1',
      {
        id: 'b2',
        kind: 'photos',
        model: 'beta',
        creditsPerItem: 15,
        createdMs: 1,
        items: [
          {
            id: 'b2-1',
            name: 'robot.png',
            prompt: null,
            upload: null,
            idempotencyKey: 'k',
            state: 'uploading',
            taskId: null,
            error: null,
            earlierTaskIds: [],
          },
        ],
      },
      storage,
    );
    const controller = controllerOver(storage);
    controller.open('k1');
    await controller.resume(upstream.api);
    expect(controller.view.get().batch?.items[0]).toMatchObject({
      state: 'failed',
      error: '“robot.png” was not kept by this browser through the reload; add it to a new batch.',
    });
    expect(upstream.tasks).toHaveLength(0);
  });
});
