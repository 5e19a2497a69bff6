import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, it } from 'vitest';
import { ApiError, onApiError } from './api-error.ts';

describe('ApiError and onApiError', () => {
  const logged: string[] = [];
  const app = new Hono()
    .onError(onApiError((m) => logged.push(m)))
    .get('/teapot', () => {
      throw new ApiError(
        413,
        { code: 'body_too_large', message: 'Too big.', param: 'file' },
        { headers: { 'x-why': 'size' } },
      );
    })
    .get('/plain', () => {
      throw new HTTPException(400, { message: 'Bad thing.' });
    })
    .get('/bug', () => {
      throw new Error('secret internal detail');
    });

  it('renders the spec’s error body, with the type the status implies and its headers', async () => {
    const res = await app.request('/teapot');
    expect(res.status).toBe(413);
    expect(res.headers.get('x-why')).toBe('size');
    expect(await res.json()).toEqual({
      error: {
        message: 'Too big.',
        type: 'invalid_request_error',
        code: 'body_too_large',
        param: 'file',
      },
    });
  });

  it('leaves param out when there is no field to name', () => {
    const e = new ApiError(404, { code: 'route_not_found', message: 'No route.' });
    expect(e.error).toEqual({ message: 'No route.', type: 'not_found', code: 'route_not_found' });
  });

  it('shapes other HTTP exceptions alike, and hides a bug behind a 500', async () => {
    expect(await (await app.request('/plain')).json()).toMatchObject({
      error: { message: 'Bad thing.', type: 'invalid_request_error' },
    });
    const bug = await app.request('/bug');
    expect(bug.status).toBe(500);
    const body = await bug.text();
    expect(body).not.toContain('secret');
    expect(JSON.parse(body)).toMatchObject({
      error: { type: 'api_error', code: 'internal_error' },
    });
    expect(logged.join()).toContain('secret internal detail');
  });
});

describe('onApiError with a store that cannot be reached', () => {
  const logged: string[] = [];
  const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
    code: 'ECONNREFUSED',
  });
  const app = new Hono()
    .onError(onApiError((m) => logged.push(m), { unavailable: (e) => e === down }))
    .get('/down', () => {
      throw down;
    })
    .get('/bug', () => {
      throw new Error('a bug');
    });

  it('answers 503 service_unavailable with Retry-After, saying nothing of the address', async () => {
    const res = await app.request('/down');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    const body = (await res.json()) as { error: { code: string; type: string; message: string } };
    expect(body.error).toMatchObject({ code: 'service_unavailable', type: 'api_error' });
    expect(body.error.message).not.toContain('5432');
    expect(logged.join()).toContain('ECONNREFUSED');
  });

  it('still answers 500 for anything else', async () => {
    expect((await app.request('/bug')).status).toBe(500);
  });
});

describe('onApiError as the mock uses it', () => {
  const logged: string[] = [];
  const app = new Hono()
    .onError(
      onApiError((m) => logged.push(m), {
        internalMessage: 'The server had an internal error. Try again.',
        logPrefix: 'mock: unhandled ',
      }),
    )
    .get('/bug', () => {
      throw new Error('boom');
    });

  it('says its own words for a bug, and logs it with its prefix', async () => {
    const res = await app.request('/bug');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      error: {
        message: 'The server had an internal error. Try again.',
        type: 'api_error',
        code: 'internal_error',
      },
    });
    expect(logged).toEqual(['mock: unhandled error on GET /bug: Error: boom']);
  });
});
