// Every Meshy status as Kiln's task, including those the mock does not produce (CANCELED, a
// SUCCEEDED task without a GLB): the mapping itself, on task objects shaped as the docs show.
import { describe, expect, it } from 'vitest';
import { MeshyTaskSchema, type MeshyTask } from './schemas.ts';
import { decodeRef, encodeRef, toProviderTask, type MeshyRef } from './task-map.ts';

const image: MeshyRef = {
  stage: 'image',
  model: 'meshy-6',
  id: '018a210d-8ba4-705c-b111-1f1776f7f578',
};
const preview: MeshyRef = { ...image, stage: 'preview' };
const refine: MeshyRef = { ...image, stage: 'refine' };

const task = (over: Partial<MeshyTask>): MeshyTask =>
  MeshyTaskSchema.parse({
    id: image.id,
    status: 'PENDING',
    progress: 0,
    created_at: 1692771650657,
    started_at: 0,
    finished_at: 0,
    task_error: { message: '' },
    ...over,
  });

describe('Meshy statuses as Kiln task statuses', () => {
  it('PENDING is queued, with the place in the queue', () => {
    expect(toProviderTask(image, task({ preceding_tasks: 3 }))).toMatchObject({
      status: 'queued',
      progress: 0,
      queuePosition: 3,
      createdMs: 1692771650657,
      cost: { amount: 30, unit: 'credits' },
    });
  });

  it("IN_PROGRESS is running with Meshy's own progress; text stages are halves of one bar", () => {
    expect(toProviderTask(image, task({ status: 'IN_PROGRESS', progress: 42 }))).toMatchObject({
      status: 'running',
      progress: 42,
    });
    expect(toProviderTask(preview, task({ status: 'IN_PROGRESS', progress: 42 }))).toMatchObject({
      progress: 21,
      step: { index: 1, of: 2 },
    });
    expect(toProviderTask(refine, task({ status: 'IN_PROGRESS', progress: 42 }))).toMatchObject({
      progress: 71,
      step: { index: 2, of: 2 },
    });
  });

  it('SUCCEEDED is succeeded with the GLB, its thumbnail and when its address expires', () => {
    const glb = 'https://assets.meshy.ai/abc/model.glb?Expires=1692800000&Signature=x';
    const done = toProviderTask(
      image,
      task({
        status: 'SUCCEEDED',
        progress: 100,
        model_urls: { glb },
        thumbnail_url: 'https://assets.meshy.ai/abc/preview.png',
        consumed_credits: 30,
      }),
    );
    expect(done).toMatchObject({
      status: 'succeeded',
      progress: 100,
      result: {
        glbUrl: glb,
        thumbnailUrl: 'https://assets.meshy.ai/abc/preview.png',
        expiresMs: 1692800000_000,
      },
    });
    // A preview that succeeded waits for `continue`; it is not the result.
    expect(
      toProviderTask(preview, task({ status: 'SUCCEEDED', progress: 100, model_urls: { glb } })),
    ).toMatchObject({
      status: 'running',
      awaitingContinue: true,
      progress: 50,
    });
    // Succeeded without a GLB is a failure Kiln can name.
    expect(
      toProviderTask(image, task({ status: 'SUCCEEDED', progress: 100, model_urls: {} })).error
        ?.code,
    ).toBe('no_model');
  });

  it("FAILED is failed, refunded, with Meshy's reason in a sentence", () => {
    const failed = toProviderTask(
      image,
      task({ status: 'FAILED', task_error: { message: 'Internal server error.' } }),
    );
    expect(failed).toMatchObject({ status: 'failed', progress: null, refunded: true });
    expect(failed.error?.message).toMatch(
      /^Meshy could not make this model\. Meshy had an error of its own/,
    );
    const odd = toProviderTask(
      image,
      task({ status: 'FAILED', task_error: { message: 'Image too dark' } }),
    );
    expect(odd.error?.message).toContain('Meshy said: Image too dark');
  });

  it('CANCELED is failed; refunded only when it had not started', () => {
    const early = toProviderTask(image, task({ status: 'CANCELED' }));
    expect(early).toMatchObject({ status: 'failed', refunded: true, error: { code: 'canceled' } });
    expect(early.error?.message).toMatch(/had not started, so Meshy refunded/);
    const late = toProviderTask(image, task({ status: 'CANCELED', started_at: 1692771667037 }));
    expect(late).toMatchObject({ status: 'failed', refunded: false });
    expect(late.error?.message).toMatch(/kept its credits/);
  });

  it('a ref round-trips, is URL-safe, and a foreign one is refused', () => {
    const ref = encodeRef(refine);
    expect(ref).toMatch(/^[A-Za-z0-9._-]+$/);
    expect(decodeRef(ref)).toEqual(refine);
    expect(decodeRef('tripo.abc')).toBeUndefined();
    expect(decodeRef('image.meshy-6.a/b')).toBeUndefined();
  });
});
