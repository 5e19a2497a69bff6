// The client against the real mock app (in-process, no port): every error class the mock can
// produce, retries, Retry-After, timeout, abort, sync fallback and waitForTask.
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { isCompleted, type Task } from '../contract/index.ts';
import { evenSpeed, photoDataUri, startTestMock, type TestMock } from '../testing/mock.ts';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  InsufficientCreditsError,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  ServerError,
  createClient,
  type ClientOptions,
} from './index.ts';

let mock: TestMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

/** A client whose fetch goes straight into the mock app mounted at http://mock.test/v1. */
function clientFor(m: TestMock, options: Partial<ClientOptions> & { calls?: string[] } = {}) {
  const root = new Hono().route('/v1', m.app);
  const calls = options.calls ?? [];
  const fetchToMock: typeof fetch = async (input, init) => {
    const req = new Request(input, init);
    calls.push(`${req.method} ${new URL(req.url).pathname}`);
    return root.fetch(req);
  };
  return createClient({
    baseURL: 'http://mock.test/v1',
    apiKey: 'tr_test_key',
    fetch: fetchToMock,
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        const t = setTimeout(resolve, Math.min(ms, 5));
        signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(signal.reason as Error);
        });
      }),
    ...options,
  });
}

const CHAIR = photoDataUri('chair.png');

describe('client against the mock', () => {
  it('creates, waits with progress, and ends completed with usage', async () => {
    mock = await startTestMock({ speed: evenSpeed(30) });
    const client = clientFor(mock);
    const seen: Task[] = [];
    const task = await client.generate(
      { model: 'alpha', image_url: CHAIR },
      { intervalMs: 10, onProgress: (t) => seen.push(t) },
    );
    expect(isCompleted(task)).toBe(true);
    expect(task.usage).toEqual({ credits_consumed: 10, credits_remaining: 990 });
    const progress = seen.map((t) => t.progress ?? 0);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(new Set(progress).size).toBeGreaterThan(2);
  });

  it('lists the mock’s models without falling back', async () => {
    mock = await startTestMock();
    const listing = await clientFor(mock).listModels();
    expect(listing.fallback).toBe(false);
    expect(listing.models.find((m) => m.id === 'gamma')?.credits_per_task).toBe(30);
  });

  it('sync create returns the completed result without polling', async () => {
    mock = await startTestMock();
    const calls: string[] = [];
    const task = await clientFor(mock, { calls }).generate({
      model: 'beta-text',
      prompt: 'vase',
      mode: 'sync',
    });
    expect(task.status).toBe('completed');
    expect(calls).toEqual(['POST /v1/3d/generations']);
  });

  it('sync create that comes back pending continues by polling', async () => {
    mock = await startTestMock({
      syncWaitMs: 20,
      speed: { initializing: 0, downloading: 0, generating: 150, processing: 0, uploading: 0 },
    });
    const calls: string[] = [];
    const task = await clientFor(mock, { calls }).generate(
      { model: 'beta-text', prompt: 'vase', mode: 'sync' },
      { intervalMs: 20 },
    );
    expect(task.status).toBe('completed');
    expect(calls.filter((c) => c.startsWith('GET /v1/tasks/')).length).toBeGreaterThan(0);
  });

  it('returns a failed task (with its message) rather than throwing', async () => {
    mock = await startTestMock();
    const task = await clientFor(mock).generate(
      { model: 'alpha', image_url: 'http://127.0.0.1:9/missing.png' },
      { intervalMs: 5 },
    );
    expect(task.status).toBe('failed');
    expect(task.error?.message).toContain('127.0.0.1:9');
  });

  it('throws AuthenticationError for an unknown key', async () => {
    mock = await startTestMock();
    await expect(
      clientFor(mock, { apiKey: 'tr_wrong_key' }).getTask('task_x'),
    ).rejects.toBeInstanceOf(AuthenticationError);
  });

  it('throws InsufficientCreditsError when the balance is short', async () => {
    mock = await startTestMock({ keys: [{ key: 'tr_test_key', balance: 5 }] });
    const err = await clientFor(mock)
      .createGeneration({ model: 'alpha', image_url: CHAIR })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InsufficientCreditsError);
    expect((err as InsufficientCreditsError).status).toBe(402);
  });

  it('throws NotFoundError for an unknown task', async () => {
    mock = await startTestMock();
    const err = await clientFor(mock)
      .getTask('task_nope')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).code).toBe('task_not_found');
  });

  it('throws InvalidRequestError naming the field, before sending anything', async () => {
    mock = await startTestMock();
    const calls: string[] = [];
    const err = await clientFor(mock, { calls })
      .createGeneration({ model: 'alpha-multiview', image_urls: [CHAIR] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect((err as InvalidRequestError).param).toBe('image_urls');
    expect(calls).toEqual([]);
  });

  it('honours the mock’s 429 Retry-After and then succeeds', async () => {
    let clock = 1_000_000;
    mock = await startTestMock({ now: () => clock, rateLimit: { limit: 1, windowMs: 3000 } });
    const delays: number[] = [];
    const client = clientFor(mock, {
      sleep: (ms) => {
        delays.push(ms);
        clock += ms;
        return Promise.resolve();
      },
    });
    await client.listModels();
    const listing = await client.listModels();
    expect(listing.fallback).toBe(false);
    expect(delays).toEqual([3000]);
  });

  it('surfaces RateLimitError with retryAfterMs when retries are off', async () => {
    mock = await startTestMock({ rateLimit: { limit: 1, windowMs: 60_000 } });
    const client = clientFor(mock, { maxRetries: 0 });
    await client.getTask('task_a').catch(() => {});
    const err = await client.getTask('task_a').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).retryAfterMs).toBeGreaterThan(0);
  });

  it('retries a GET across a dropped connection and a 503, then reaches the mock', async () => {
    mock = await startTestMock();
    const root = new Hono().route('/v1', mock.app);
    let n = 0;
    let script: ('drop' | '503' | 'pass')[] = ['drop', '503'];
    const flaky: typeof fetch = async (input, init) => {
      const step = script[n++] ?? 'pass';
      if (step === 'drop') throw new TypeError('fetch failed', { cause: { code: 'ECONNRESET' } });
      if (step === '503') return new Response('<html>Service Unavailable</html>', { status: 503 });
      return root.fetch(new Request(input, init));
    };
    const err = await clientFor(mock, { fetch: flaky })
      .getTask('task_nope')
      .catch((e: unknown) => e);
    expect(n).toBe(3);
    expect(err).toBeInstanceOf(NotFoundError);

    // When every attempt fails, the error classes come through.
    n = 0;
    script = ['drop', 'drop'];
    const down = await clientFor(mock, { fetch: flaky, maxRetries: 1 })
      .getTask('t')
      .catch((e: unknown) => e);
    expect(down).toBeInstanceOf(APIConnectionError);
    n = 0;
    script = ['503'];
    const html = await clientFor(mock, { fetch: flaky, maxRetries: 0 })
      .getTask('t')
      .catch((e: unknown) => e);
    expect(html).toBeInstanceOf(ServerError);
    expect((html as ServerError).message).toMatch(/503/);
  });

  it('times out a sync create that blocks longer than the per-request timeout', async () => {
    mock = await startTestMock({
      speed: { initializing: 0, downloading: 0, generating: 2000, processing: 0, uploading: 0 },
    });
    const err = await clientFor(mock, { syncTimeoutMs: 50 })
      .createGeneration({ model: 'beta-text', prompt: 'slow', mode: 'sync' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APITimeoutError);
  });

  it('stops waiting at once when the caller aborts', async () => {
    mock = await startTestMock({
      speed: { initializing: 0, downloading: 0, generating: 5000, processing: 0, uploading: 0 },
    });
    const client = clientFor(mock, {
      sleep: (ms, signal) =>
        new Promise((resolve, reject) => {
          const t = setTimeout(resolve, ms);
          signal?.addEventListener('abort', () => {
            clearTimeout(t);
            reject(signal.reason as Error);
          });
        }),
    });
    const created = await client.createGeneration({ model: 'beta-text', prompt: 'slow' });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 50);
    const started = Date.now();
    const err = await client
      .waitForTask(created.id, { signal: ac.signal, intervalMs: 2000 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIUserAbortError);
    expect(Date.now() - started).toBeLessThan(1500);
  });
});
