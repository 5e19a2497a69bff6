import { describe, expect, it } from 'vitest';
import type { Task } from '../contract/index.ts';
import {
  APIUserAbortError,
  DeadlineExceededError,
  InvalidRequestError,
  NotFoundError,
  createClient,
} from './index.ts';
import {
  completedTask,
  errorJson,
  failedTask,
  json,
  pendingTask,
  rejectionOf,
  scriptedClients,
  scriptedFetch,
} from '../testing/fetch-script.ts';

const BASE = 'https://upstream.example/v1';

const setup = scriptedClients({ baseURL: BASE, apiKey: 'tr_wait' });

describe('waitForTask', () => {
  it('polls until completed, reporting every task, with the default 2 s → 5 s easing', async () => {
    const { client, requests, delays } = setup([
      json(200, pendingTask('t1', 0)),
      json(200, pendingTask('t1', 20)),
      json(200, pendingTask('t1', 40)),
      json(200, completedTask('t1')),
    ]);
    const seen: Task[] = [];
    const task = await client.waitForTask('t1', { onProgress: (t) => seen.push(t) });
    expect(task.status).toBe('completed');
    expect(task.data?.model_url).toBe('https://cdn.example/t1.glb');
    expect(seen.map((t) => t.progress)).toEqual([0, 20, 40, 100]);
    expect(seen.at(-1)).toEqual(task);
    expect(requests).toHaveLength(4);
    expect(requests.every((r) => r.url === `${BASE}/tasks/t1` && r.method === 'GET')).toBe(true);
    expect(delays).toEqual([2000, 2500, 3000]);
  });

  it('returns a failed task instead of throwing', async () => {
    const { client } = setup([json(200, pendingTask('t', 0)), json(200, failedTask('t'))]);
    const task = await client.waitForTask('t');
    expect(task.status).toBe('failed');
    expect(task.error?.message).toBe('The image could not be downloaded.');
  });

  it('returns at once for a task that is already terminal', async () => {
    const { client, requests, delays } = setup([json(200, completedTask('t'))]);
    await client.waitForTask('t');
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('uses a configured interval as given, number or function', async () => {
    const fixed = setup([
      json(200, pendingTask('t', 0)),
      json(200, pendingTask('t', 20)),
      json(200, completedTask('t')),
    ]);
    await fixed.client.waitForTask('t', { intervalMs: 10 });
    expect(fixed.delays).toEqual([10, 10]);

    const calls: [number, number | null | undefined][] = [];
    const fn = setup([
      json(200, pendingTask('t', 0)),
      json(200, pendingTask('t', 40)),
      json(200, completedTask('t')),
    ]);
    await fn.client.waitForTask('t', {
      intervalMs: (attempt, task) => {
        calls.push([attempt, task.progress]);
        return 7000 + attempt;
      },
    });
    expect(calls).toEqual([
      [0, 0],
      [1, 40],
    ]);
    expect(fn.delays).toEqual([7000, 7001]);
  });

  it('rides out transient errors through getTask retries', async () => {
    const { client, requests, delays } = setup([
      json(200, pendingTask('t', 0)),
      errorJson(503, { message: 'busy' }),
      new TypeError('fetch failed'),
      json(200, completedTask('t')),
    ]);
    const task = await client.waitForTask('t');
    expect(task.status).toBe('completed');
    expect(requests).toHaveLength(4);
    expect(delays).toEqual([2000, 250, 500]);
  });

  it('throws the error when the task disappears', async () => {
    const { client } = setup([
      json(200, pendingTask('t', 0)),
      errorJson(404, { message: 'No task t.', type: 'not_found', code: 'task_not_found' }),
    ]);
    const error = await rejectionOf(client.waitForTask('t'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).code).toBe('task_not_found');
  });

  it('throws DeadlineExceededError with the last task when the next poll would be too late', async () => {
    const { client, requests, delays } = setup([
      json(200, pendingTask('t', 40)),
      json(200, completedTask('t')),
    ]);
    const error = await rejectionOf(client.waitForTask('t', { deadline: Date.now() + 1000 }));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as DeadlineExceededError).task?.progress).toBe(40);
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('applies the deadline across polls with real time', async () => {
    const scripted = scriptedFetch(
      Array.from({ length: 50 }, () => json(200, pendingTask('t', 20))),
    );
    const client = createClient({ baseURL: BASE, fetch: scripted.fetch });
    const error = await rejectionOf(
      client.waitForTask('t', { intervalMs: 15, deadline: Date.now() + 150 }),
    );
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as DeadlineExceededError).task?.id).toBe('t');
    // It polled, and stopped at the deadline long before the 50 pending answers ran out
    // (no bound in milliseconds: the machine may be busy).
    expect(scripted.requests.length).toBeGreaterThanOrEqual(1);
    expect(scripted.requests.length).toBeLessThan(50);
  });

  it('stops with APIUserAbortError when aborted during the poll sleep', async () => {
    const controller = new AbortController();
    const { client, requests, delays } = setup(
      [json(200, pendingTask('t', 0)), json(200, completedTask('t'))],
      {},
      () => controller.abort(),
    );
    const error = await rejectionOf(client.waitForTask('t', { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(delays).toEqual([2000]);
    expect(requests).toHaveLength(1);
  });

  it('stops promptly when aborted during a real poll sleep', async () => {
    const scripted = scriptedFetch([json(200, pendingTask('t', 0))]);
    const client = createClient({ baseURL: BASE, fetch: scripted.fetch });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    await expect(client.waitForTask('t', { signal: controller.signal })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(scripted.requests).toHaveLength(1);
  });
});

describe('generate', () => {
  const body = { model: 'beta', image_url: 'https://example.com/mug.jpg' } as const;

  it('continues by polling when a sync create answers pending', async () => {
    const { client, requests, delays } = setup([
      json(200, pendingTask('g1')),
      json(200, pendingTask('g1', 80)),
      json(200, completedTask('g1')),
    ]);
    const seen: string[] = [];
    const task = await client.generate(
      { ...body, mode: 'sync' },
      { onProgress: (t) => seen.push(`${t.status}:${t.progress ?? '-'}`) },
    );
    expect(task.status).toBe('completed');
    expect(seen).toEqual(['pending:-', 'pending:80', 'completed:100']);
    expect(requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${BASE}/3d/generations`,
      `GET ${BASE}/tasks/g1`,
      `GET ${BASE}/tasks/g1`,
    ]);
    expect(requests[0]?.body).toEqual({ ...body, mode: 'sync' });
    // The first poll waits one interval after the create instead of going out at once.
    expect(delays).toEqual([2000, 2500]);
  });

  it('does not poll when a sync create answers completed', async () => {
    const { client, requests, delays } = setup([json(200, completedTask('g2'))]);
    const seen: Task[] = [];
    const task = await client.generate(
      { ...body, mode: 'sync' },
      { onProgress: (t) => seen.push(t) },
    );
    expect(task.id).toBe('g2');
    expect(task.status).toBe('completed');
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
    expect(seen).toHaveLength(1);
  });

  it('keeps polling through other non-terminal statuses', async () => {
    const { client, requests } = setup([
      json(200, { id: 'g3', status: 'running', progress: 40 }),
      json(200, completedTask('g3')),
    ]);
    const task = await client.generate({ ...body, mode: 'sync' });
    expect(task.status).toBe('completed');
    expect(requests).toHaveLength(2);
  });

  it('polls after an async create; the idempotency key goes only on the create', async () => {
    const { client, requests } = setup([
      errorJson(502, { message: 'flaky' }),
      json(202, pendingTask('g4')),
      json(200, failedTask('g4')),
    ]);
    const task = await client.generate(body, { idempotencyKey: 'click-1', intervalMs: 0 });
    expect(task.status).toBe('failed');
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual([
      'click-1',
      'click-1',
      null,
    ]);
  });

  it('validates locally before anything is sent', async () => {
    const { client, requests } = setup([json(202, pendingTask('x'))]);
    const error = await rejectionOf(
      client.generate({ model: 'alpha-multiview', image_urls: ['https://example.com/1.png'] }),
    );
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).param).toBe('image_urls');
    expect(requests).toHaveLength(0);
  });

  it('applies one deadline to the create and the polls', async () => {
    const { client, requests } = setup([
      json(202, pendingTask('g5')),
      json(200, completedTask('g5')),
    ]);
    const error = await rejectionOf(client.generate(body, { deadline: Date.now() + 1500 }));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as DeadlineExceededError).task?.id).toBe('g5');
    expect(requests).toHaveLength(1);
  });
});
