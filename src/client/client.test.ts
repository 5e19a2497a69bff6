import { describe, expect, it } from 'vitest';
import { FALLBACK_MODELS } from '../contract/index.ts';
import {
  APIConnectionError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  ConflictError,
  DeadlineExceededError,
  InsufficientCreditsError,
  InvalidRequestError,
  InvalidResponseError,
  NotFoundError,
  RateLimitError,
  ServerError,
  createClient,
} from './index.ts';
import {
  completedTask,
  errorJson,
  fakeSleep,
  json,
  pendingTask,
  rejectionOf,
  scriptedClients,
  scriptedFetch,
  text,
} from '../testing/fetch-script.ts';

const BASE = 'http://localhost:8080/api/v1';
const KEY = 'tr_test_secret_key';
const imageBody = { model: 'alpha', image_url: 'https://example.com/cat.png' } as const;

const setup = scriptedClients({ baseURL: BASE, apiKey: KEY });

describe('requests', () => {
  it('creates a task: POST JSON with the key only in Authorization', async () => {
    const { client, requests } = setup([json(202, pendingTask('task_1'))]);
    const task = await client.createGeneration(imageBody);
    expect(task).toMatchObject({ id: 'task_1', status: 'pending', data: null });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe(`${BASE}/3d/generations`);
    expect(request?.url).not.toContain(KEY);
    expect(request?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.headers.get('idempotency-key')).toBeNull();
    expect(request?.body).toEqual(imageBody);
    for (const [name, value] of request?.headers ?? [])
      if (name !== 'authorization') expect(value).not.toContain(KEY);
  });

  it('sends default headers, and no Authorization without a key', async () => {
    const { client, requests } = setup([json(200, completedTask('t'))], {
      apiKey: undefined,
      defaultHeaders: { 'X-Client': 'kiln-test' },
    });
    await client.getTask('t');
    expect(requests[0]?.headers.get('authorization')).toBeNull();
    expect(requests[0]?.headers.get('x-client')).toBe('kiln-test');
    expect(requests[0]?.method).toBe('GET');
    expect(requests[0]?.body).toBeUndefined();
  });

  it('encodes task ids into the path', async () => {
    const { client, requests } = setup([
      json(200, completedTask('a/b c?d#e')),
      json(200, completedTask('%2F')),
    ]);
    await client.getTask('a/b c?d#e');
    await client.getTask('%2F');
    expect(requests[0]?.url).toBe(`${BASE}/tasks/a%2Fb%20c%3Fd%23e`);
    expect(requests[1]?.url).toBe(`${BASE}/tasks/%252F`);
  });

  it('rejects empty and dot-segment task ids locally', async () => {
    const { client, requests } = setup([]);
    for (const id of ['', '.', '..']) {
      const error = await rejectionOf(client.getTask(id));
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).param).toBe('taskId');
      expect((error as InvalidRequestError).local).toBe(true);
    }
    expect(requests).toHaveLength(0);
  });

  it('joins the base URL with or without a trailing slash', async () => {
    const { client, requests } = setup([json(200, completedTask('x'))], { baseURL: `${BASE}/` });
    await client.getTask('x');
    expect(requests[0]?.url).toBe(`${BASE}/tasks/x`);
    expect(client.baseURL).toBe(`${BASE}/`);
  });

  it('refuses a base URL that is not a URL or that carries the key', () => {
    expect(() => createClient({ baseURL: 'not a url' })).toThrow(TypeError);
    expect(() => createClient({ baseURL: `${BASE}?key=${KEY}`, apiKey: KEY })).toThrow(TypeError);
  });

  it('refuses a key that cannot travel in a header, without a request', async () => {
    const { client, requests } = setup([], { apiKey: 'tr_bad key' });
    const error = await rejectionOf(client.getTask('t'));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).local).toBe(true);
    expect(requests).toHaveLength(0);
  });

  it('trims a pasted key', async () => {
    const { client, requests } = setup([json(200, completedTask('t'))], { apiKey: `  ${KEY}\n` });
    await client.getTask('t');
    expect(requests[0]?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
  });

  it('uses globalThis.fetch bound to globalThis by default', async () => {
    const original = globalThis.fetch;
    const receivers: unknown[] = [];
    globalThis.fetch = function (this: unknown) {
      receivers.push(this);
      return Promise.resolve(json(200, completedTask('t')));
    } as typeof fetch;
    try {
      await createClient({ baseURL: BASE }).getTask('t');
    } finally {
      globalThis.fetch = original;
    }
    expect(receivers).toEqual([globalThis]);
  });
});

describe('local validation of creates', () => {
  it.each([
    [
      'five images',
      {
        model: 'alpha-multiview',
        image_urls: [1, 2, 3, 4, 5].map((n) => `https://example.com/${n}.png`),
      },
      'image_urls',
      'invalid_image_count',
    ],
    [
      'a 2001-character prompt',
      { model: 'beta-text', prompt: 'x'.repeat(2001) },
      'prompt',
      'prompt_too_long',
    ],
    ['a missing model', { image_url: 'https://example.com/a.png' }, 'model', 'missing_field'],
    ['a bad URL', { model: 'alpha', image_url: 'nope' }, 'image_url', 'invalid_value'],
  ])('rejects %s with param and makes no request', async (_, body, param, code) => {
    const { client, requests } = setup([json(202, pendingTask('t'))]);
    const error = await rejectionOf(client.createGeneration(body as never));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).param).toBe(param);
    expect((error as InvalidRequestError).code).toBe(code);
    expect((error as InvalidRequestError).local).toBe(true);
    expect(requests).toHaveLength(0);
  });

  it('rejects an unusable idempotency key', async () => {
    const { client, requests } = setup([]);
    for (const key of ['', 'has space', 'x'.repeat(256)]) {
      const error = await rejectionOf(client.createGeneration(imageBody, { idempotencyKey: key }));
      expect((error as InvalidRequestError).param).toBe('idempotencyKey');
    }
    expect(requests).toHaveLength(0);
  });
});

describe('error responses', () => {
  it.each([
    [400, InvalidRequestError, 'invalid_request_error', 'invalid_value', 'image_url'],
    [401, AuthenticationError, 'authentication_error', 'invalid_api_key', undefined],
    [402, InsufficientCreditsError, 'insufficient_credits', 'insufficient_credits', undefined],
    [404, NotFoundError, 'not_found', 'task_not_found', undefined],
    [409, ConflictError, 'conflict', 'idempotency_key_in_use', undefined],
  ])('%i → %s, not retried', async (status, Class, type, code, param) => {
    const { client, requests, delays } = setup([
      errorJson(
        status,
        { message: `upstream says ${status}`, type, code, ...(param ? { param } : {}) },
        { 'x-request-id': `req_${status}` },
      ),
    ]);
    const error = await rejectionOf(client.getTask('t'));
    expect(error).toBeInstanceOf(Class);
    expect(error).toMatchObject({
      status,
      type,
      code,
      param,
      message: `upstream says ${status}`,
      requestId: `req_${status}`,
    });
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('turns a non-JSON 502 into a ServerError with a sentence, after retries', async () => {
    const html = () =>
      text(502, '<html><h1>502 Bad Gateway</h1></html>', { 'content-type': 'text/html' });
    const { client, requests } = setup([html(), html(), html()]);
    const error = await rejectionOf(client.getTask('t'));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).message).toBe(
      'The upstream answered 502 Bad Gateway with a non-JSON body.',
    );
    expect((error as ServerError).body).toContain('<h1>');
    expect(requests).toHaveLength(3);
  });

  it('handles an empty error body', async () => {
    const { client } = setup([text(401, null)]);
    const error = await rejectionOf(client.getTask('t'));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).message).toBe(
      'The upstream answered 401 Unauthorized with an empty body.',
    );
  });

  it('turns an unparseable 2xx into InvalidResponseError, not a crash', async () => {
    const { client, requests } = setup([
      text(200, '<html>hello</html>'),
      json(200, { id: 42 }),
      text(200, ''),
    ]);
    const nonJson = await rejectionOf(client.getTask('t'));
    expect(nonJson).toBeInstanceOf(InvalidResponseError);
    expect((nonJson as InvalidResponseError).message).toMatch(/non-JSON body where a task/);
    const wrongShape = await rejectionOf(client.getTask('t'));
    expect(wrongShape).toBeInstanceOf(InvalidResponseError);
    expect((wrongShape as InvalidResponseError).body).toEqual({ id: 42 });
    expect((wrongShape as InvalidResponseError).status).toBe(200);
    const empty = await rejectionOf(client.getTask('t'));
    expect((empty as InvalidResponseError).message).toMatch(/empty body/);
    expect(requests).toHaveLength(3);
  });

  it('accepts null for optional task fields', async () => {
    const { client } = setup([
      json(200, {
        id: 't',
        object: 'task',
        status: 'pending',
        created: 1,
        progress: null,
        progress_stage: null,
        data: null,
        usage: null,
        error: null,
        completed_at: null,
      }),
    ]);
    const task = await client.getTask('t');
    expect(task).toMatchObject({ id: 't', status: 'pending', data: null });
    expect(task.usage).toBeNull();
    expect(task.error).toBeNull();
  });

  it('accepts tasks with unknown fields and statuses', async () => {
    const { client } = setup([json(200, { id: 't', status: 'running', extra: { a: 1 } })]);
    const task = await client.getTask('t');
    expect(task.status).toBe('running');
    expect(task).toHaveProperty('extra');
  });
});

describe('retries', () => {
  it('honours Retry-After on 429, then succeeds', async () => {
    const { client, requests, delays } = setup([
      errorJson(429, { message: 'slow down', type: 'rate_limit_error' }, { 'retry-after': '3' }),
      json(200, completedTask('t')),
    ]);
    const task = await client.getTask('t');
    expect(task.status).toBe('completed');
    expect(delays).toEqual([3000]);
    expect(requests).toHaveLength(2);
  });

  it('honours an HTTP-date Retry-After', async () => {
    const at = new Date(Date.now() + 5_000).toUTCString();
    const { client, delays } = setup([
      errorJson(429, { message: 'slow down' }, { 'retry-after': at }),
      json(200, completedTask('t')),
    ]);
    await client.getTask('t');
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(3_000);
    expect(delays[0]).toBeLessThanOrEqual(5_000);
  });

  it('does not wait out a Retry-After over 60 s; the RateLimitError carries it', async () => {
    const { client, requests, delays } = setup([
      errorJson(429, { message: 'slow down' }, { 'retry-after': '120' }),
    ]);
    const error = await rejectionOf(client.getTask('t'));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(120_000);
    expect(delays).toEqual([]);
    expect(requests).toHaveLength(1);
  });

  it('retries 5xx on GET with exponential backoff, up to maxRetries', async () => {
    const { client, requests, delays } = setup(
      [
        errorJson(500, { message: 'a' }),
        errorJson(503, { message: 'b' }),
        text(504, 'gateway'),
        errorJson(502, { message: 'd' }),
      ],
      { maxRetries: 3, random: () => 1 },
    );
    const error = await rejectionOf(client.getTask('t'));
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(502);
    expect(requests).toHaveLength(4);
    expect(delays).toEqual([500, 1000, 2000]);
  });

  it('jitters the backoff with the injected random', async () => {
    const { client, delays } = setup(
      [
        errorJson(500, { message: 'a' }),
        errorJson(500, { message: 'b' }),
        json(200, completedTask('t')),
      ],
      { random: () => 0.5 },
    );
    await client.getTask('t');
    expect(delays).toEqual([375, 750]);
  });

  it('retries connection errors on GET, then succeeds', async () => {
    const { client, requests } = setup([
      new TypeError('fetch failed'),
      json(200, completedTask('t')),
    ]);
    expect((await client.getTask('t')).status).toBe('completed');
    expect(requests).toHaveLength(2);
  });

  it('throws APIConnectionError when the network keeps failing', async () => {
    const { client, requests } = setup(
      [new TypeError('fetch failed'), new TypeError('fetch failed')],
      { maxRetries: 1 },
    );
    const error = await rejectionOf(client.getTask('t'));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as APIConnectionError).cause).toBeInstanceOf(TypeError);
    expect(requests).toHaveLength(2);
  });

  it('respects a per-call maxRetries', async () => {
    const { client, requests } = setup([errorJson(500, { message: 'a' })]);
    await expect(client.getTask('t', { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(requests).toHaveLength(1);
  });

  it('does not retry a POST without an idempotency key', async () => {
    const { client, requests, delays } = setup([
      errorJson(503, { message: 'busy' }),
      json(202, pendingTask('t')),
    ]);
    await expect(client.createGeneration(imageBody)).rejects.toBeInstanceOf(ServerError);
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('does not retry a POST without a key on a network error or 429 either', async () => {
    const { client, requests } = setup([
      new TypeError('fetch failed'),
      errorJson(429, { message: 'slow' }, { 'retry-after': '1' }),
    ]);
    await expect(client.createGeneration(imageBody)).rejects.toBeInstanceOf(APIConnectionError);
    await expect(client.createGeneration(imageBody)).rejects.toBeInstanceOf(RateLimitError);
    expect(requests).toHaveLength(2);
  });

  it('retries a POST with an idempotency key, sending the same key each time', async () => {
    const { client, requests, delays } = setup([
      errorJson(500, { message: 'oops' }),
      new TypeError('fetch failed'),
      json(202, pendingTask('t')),
    ]);
    const task = await client.createGeneration(imageBody, { idempotencyKey: 'idem-123' });
    expect(task.id).toBe('t');
    expect(requests).toHaveLength(3);
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual([
      'idem-123',
      'idem-123',
      'idem-123',
    ]);
    expect(requests.every((r) => JSON.stringify(r.body) === JSON.stringify(imageBody))).toBe(true);
    expect(delays).toEqual([250, 500]);
  });

  it('retries 409 only for a request with an idempotency key', async () => {
    const { client, requests } = setup([
      errorJson(409, { message: 'in progress' }),
      json(202, pendingTask('t')),
      errorJson(409, { message: 'conflict' }),
    ]);
    await client.createGeneration(imageBody, { idempotencyKey: 'k' });
    expect(requests).toHaveLength(2);
    await expect(client.getTask('t')).rejects.toBeInstanceOf(ConflictError);
    expect(requests).toHaveLength(3);
  });
});

describe('timeouts and deadlines', () => {
  it('throws APITimeoutError when one attempt exceeds timeoutMs (and retries GETs)', async () => {
    const { client, requests } = setup(['hang', 'hang'], { timeoutMs: 20, maxRetries: 1 });
    const started = Date.now();
    const error = await rejectionOf(client.getTask('t'));
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).not.toBeInstanceOf(DeadlineExceededError);
    expect(requests).toHaveLength(2);
    expect(requests[0]?.signal?.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('times out even when fetch ignores the signal', async () => {
    const { client } = setup(['deaf'], { timeoutMs: 20, maxRetries: 0 });
    await expect(client.getTask('t')).rejects.toBeInstanceOf(APITimeoutError);
  });

  it('times out a slow body read', async () => {
    const slowBody = new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"id":'));
        },
      }),
      { status: 200 },
    );
    const { client } = setup([slowBody], { timeoutMs: 30, maxRetries: 0 });
    await expect(client.getTask('t')).rejects.toBeInstanceOf(APITimeoutError);
  });

  it('a per-call timeoutMs overrides the client default', async () => {
    const { client } = setup(['hang'], { timeoutMs: 60_000 });
    await expect(client.getTask('t', { timeoutMs: 20, maxRetries: 0 })).rejects.toBeInstanceOf(
      APITimeoutError,
    );
  });

  it('does not retry a timed-out POST without an idempotency key', async () => {
    const { client, requests } = setup(['hang', json(202, pendingTask('t'))], { timeoutMs: 20 });
    await expect(client.createGeneration(imageBody)).rejects.toBeInstanceOf(APITimeoutError);
    expect(requests).toHaveLength(1);
  });

  it('gives sync creates the longer syncTimeoutMs', async () => {
    const { client } = setup(
      [
        async () => {
          await new Promise((resolve) => setTimeout(resolve, 60));
          return json(200, completedTask('t'));
        },
        'hang',
      ],
      { timeoutMs: 20, syncTimeoutMs: 1000 },
    );
    const task = await client.createGeneration({ ...imageBody, mode: 'sync' });
    expect(task.status).toBe('completed');
    await expect(client.createGeneration(imageBody)).rejects.toBeInstanceOf(APITimeoutError);
  });

  it('cuts an attempt at the deadline with DeadlineExceededError', async () => {
    const { client, requests } = setup(['hang'], { timeoutMs: 10_000 });
    const started = Date.now();
    const error = await rejectionOf(client.getTask('t', { deadline: Date.now() + 40 }));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('stops retrying when the next backoff would cross the deadline', async () => {
    const { client, requests, delays } = setup(['hang', 'hang', 'hang'], {
      timeoutMs: 20,
      maxRetries: 5,
    });
    const error = await rejectionOf(client.getTask('t', { deadline: Date.now() + 200 }));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as DeadlineExceededError).cause).toBeInstanceOf(APITimeoutError);
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('never waits a Retry-After past the deadline', async () => {
    const { client, requests, delays } = setup([
      errorJson(429, { message: 'slow' }, { 'retry-after': '10' }),
    ]);
    const error = await rejectionOf(client.getTask('t', { deadline: Date.now() + 5_000 }));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as DeadlineExceededError).cause).toBeInstanceOf(RateLimitError);
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('fails at once when the deadline has already passed', async () => {
    const { client, requests } = setup([json(200, completedTask('t'))]);
    await expect(client.getTask('t', { deadline: Date.now() - 1 })).rejects.toBeInstanceOf(
      DeadlineExceededError,
    );
    expect(requests).toHaveLength(0);
  });

  it('spends one deadline across several retries', async () => {
    // Each answer takes 30 ms and asks for an immediate retry; the 100 ms deadline cuts the 4th.
    const slow503 = async () => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return errorJson(503, { message: 'busy' }, { 'retry-after': '0' });
    };
    const { client, requests, delays } = setup(
      Array.from({ length: 10 }, () => slow503),
      {
        maxRetries: 10,
      },
    );
    const started = Date.now();
    const error = await rejectionOf(client.getTask('t', { deadline: Date.now() + 100 }));
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect(requests.length).toBeGreaterThanOrEqual(3);
    expect(requests.length).toBeLessThanOrEqual(4);
    expect(delays.every((d) => d === 0)).toBe(true);
    expect(Date.now() - started).toBeLessThan(500);
  });
});

describe('abort', () => {
  it('rejects with APIUserAbortError when the signal aborts mid-request, without retrying', async () => {
    const { client, requests } = setup(['hang', json(200, completedTask('t'))]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await rejectionOf(client.getTask('t', { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(requests).toHaveLength(1);
  });

  it('rejects promptly even when fetch ignores the signal', async () => {
    const { client } = setup(['deaf']);
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 20);
    const error = await rejectionOf(client.getTask('t', { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as APIUserAbortError).cause).toEqual(new Error('user left'));
  });

  it('rejects without a request when already aborted', async () => {
    const { client, requests } = setup([json(200, completedTask('t'))]);
    await expect(client.getTask('t', { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(requests).toHaveLength(0);
  });

  it('rejects when aborted during a retry sleep, and makes no further request', async () => {
    const controller = new AbortController();
    const scripted = scriptedFetch([
      errorJson(503, { message: 'busy' }),
      json(200, completedTask('t')),
    ]);
    const sleeper = fakeSleep(() => controller.abort());
    const client = createClient({ baseURL: BASE, fetch: scripted.fetch, sleep: sleeper.sleep });
    const error = await rejectionOf(client.getTask('t', { signal: controller.signal }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(sleeper.delays).toHaveLength(1);
    expect(scripted.requests).toHaveLength(1);
  });

  it('interrupts the default (real) sleep promptly', async () => {
    const scripted = scriptedFetch([errorJson(429, { message: 'slow' }, { 'retry-after': '30' })]);
    const client = createClient({ baseURL: BASE, fetch: scripted.fetch });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    await expect(client.getTask('t', { signal: controller.signal })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('interrupts a sleep that ignores the signal', async () => {
    const scripted = scriptedFetch([errorJson(503, { message: 'busy' })]);
    const client = createClient({
      baseURL: BASE,
      fetch: scripted.fetch,
      sleep: () => new Promise(() => {}),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(client.getTask('t', { signal: controller.signal })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
  });
});

describe('listModels', () => {
  const listing = {
    object: 'list',
    data: [
      { id: 'alpha', object: 'model', input: 'image', credits_per_task: 10, description: 'A' },
      { id: 'beta-text', object: 'model', input: 'text', credits_per_task: 20, description: 'T' },
    ],
  };

  it('returns the listing', async () => {
    const { client, requests } = setup([json(200, listing)]);
    const result = await client.listModels();
    expect(result).toEqual({ models: listing.data, fallback: false });
    expect(requests[0]?.url).toBe(`${BASE}/models`);
  });

  it('tolerates other reasonable listing shapes', async () => {
    const { client } = setup([
      json(200, { models: [{ id: 'alpha' }, { nope: true }] }),
      json(200, ['alpha', 'gamma']),
    ]);
    expect(await client.listModels()).toEqual({ models: [{ id: 'alpha' }], fallback: false });
    expect((await client.listModels()).models.map((m) => m.id)).toEqual(['alpha', 'gamma']);
  });

  it('falls back to the spec aliases on 500 (after retries)', async () => {
    const { client, requests } = setup([
      errorJson(500, { message: 'a' }),
      errorJson(500, { message: 'b' }),
      errorJson(500, { message: 'c' }),
    ]);
    const result = await client.listModels();
    expect(result.fallback).toBe(true);
    expect(result.models).toEqual(FALLBACK_MODELS.data);
    expect(result.error).toBeInstanceOf(ServerError);
    expect(requests).toHaveLength(3);
  });

  it.each([
    ['garbage shape', json(200, { hello: 'world' })],
    ['empty list', json(200, { object: 'list', data: [] })],
    ['HTML', text(200, '<html></html>')],
    ['404', errorJson(404, { message: 'no route' })],
    ['network error', new TypeError('fetch failed')],
  ])('falls back on %s', async (_, step) => {
    const { client } = setup([step], { maxRetries: 0 });
    const result = await client.listModels();
    expect(result.fallback).toBe(true);
    expect(result.models.map((m) => m.id)).toEqual(FALLBACK_MODELS.data.map((m) => m.id));
  });

  it('returns a copy of the fallback', async () => {
    const { client } = setup([json(200, {})]);
    const result = await client.listModels({ maxRetries: 0 });
    result.models[0]!.id = 'mutated';
    expect(FALLBACK_MODELS.data[0]?.id).toBe('alpha');
  });

  it('throws on authentication errors and aborts', async () => {
    const { client } = setup([errorJson(401, { message: 'bad key' })]);
    await expect(client.listModels()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(client.listModels({ signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      APIUserAbortError,
    );
  });
});
