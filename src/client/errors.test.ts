import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  AuthenticationError,
  ConflictError,
  DeadlineExceededError,
  InsufficientCreditsError,
  InvalidRequestError,
  InvalidResponseError,
  KilnError,
  NotFoundError,
  RateLimitError,
  ServerError,
} from './index.ts';

const specBody = (type: string, code: string, param?: string) => ({
  error: { message: `a ${type}`, type, code, ...(param ? { param } : {}) },
});

describe('APIError.from', () => {
  it.each([
    [400, InvalidRequestError, 'InvalidRequestError'],
    [422, InvalidRequestError, 'InvalidRequestError'],
    [401, AuthenticationError, 'AuthenticationError'],
    [403, AuthenticationError, 'AuthenticationError'],
    [402, InsufficientCreditsError, 'InsufficientCreditsError'],
    [404, NotFoundError, 'NotFoundError'],
    [409, ConflictError, 'ConflictError'],
    [429, RateLimitError, 'RateLimitError'],
    [500, ServerError, 'ServerError'],
    [502, ServerError, 'ServerError'],
    [503, ServerError, 'ServerError'],
    [504, ServerError, 'ServerError'],
    [599, ServerError, 'ServerError'],
  ])('maps %i to %s', (status, Class, name) => {
    const error = APIError.from(status, specBody('t', 'c'), {});
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(KilnError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.status).toBe(status);
    expect(error.local).toBe(false);
  });

  it('uses the generic APIError for other statuses', () => {
    for (const status of [405, 408, 410, 418, 302]) {
      const error = APIError.from(status, specBody('t', 'c'), {});
      expect(error.constructor).toBe(APIError);
      expect(error.name).toBe('APIError');
    }
  });

  it('reads the spec error object, param and request id', () => {
    const error = APIError.from(
      400,
      specBody('invalid_request_error', 'invalid_image_count', 'image_urls'),
      { 'x-request-id': 'req_123', 'content-type': 'application/json' },
    );
    expect(error.message).toBe('a invalid_request_error');
    expect(error.type).toBe('invalid_request_error');
    expect(error.code).toBe('invalid_image_count');
    expect(error.param).toBe('image_urls');
    expect(error.error).toEqual({
      message: 'a invalid_request_error',
      type: 'invalid_request_error',
      code: 'invalid_image_count',
      param: 'image_urls',
    });
    expect(error.requestId).toBe('req_123');
    expect(error.headers.get('content-type')).toBe('application/json');
  });

  it('tolerates an error object with only a message, and null code/param', () => {
    const error = APIError.from(500, { error: { message: 'boom', code: null, param: null } }, {});
    expect(error.message).toBe('boom');
    expect(error.code).toBeUndefined();
    expect(error.param).toBeUndefined();
    expect(error.type).toBeUndefined();
    expect(error.requestId).toBeUndefined();
  });

  it('tolerates a null type in the error object', () => {
    const error = APIError.from(401, { error: { message: 'bad key', type: null, code: 'x' } });
    expect(error.message).toBe('bad key');
    expect(error.type).toBeUndefined();
    expect(error.code).toBe('x');
  });

  it('turns an HTML error page into a sentence and keeps the text as body', () => {
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    const error = APIError.from(502, html, { 'content-type': 'text/html' });
    expect(error).toBeInstanceOf(ServerError);
    expect(error.message).toBe('The upstream answered 502 Bad Gateway with a non-JSON body.');
    expect(error.body).toBe(html);
    expect(error.error).toBeUndefined();
  });

  it('describes empty bodies', () => {
    expect(APIError.from(503, '', {}).message).toBe(
      'The upstream answered 503 Service Unavailable with an empty body.',
    );
    expect(APIError.from(500, undefined, {}).message).toBe(
      'The upstream answered 500 Internal Server Error with an empty body.',
    );
    expect(APIError.from(599, '  ', {}).message).toBe(
      'The upstream answered 599 with an empty body.',
    );
  });

  it('prefers the response statusText when given', () => {
    expect(APIError.from(502, 'oops', {}, 'Proxy Error').message).toBe(
      'The upstream answered 502 Proxy Error with a non-JSON body.',
    );
  });

  it('parses a JSON string body and accepts loose shapes', () => {
    const parsed = APIError.from(404, JSON.stringify(specBody('not_found', 'task_not_found')), {});
    expect(parsed.code).toBe('task_not_found');
    expect(parsed.body).toEqual(specBody('not_found', 'task_not_found'));
    expect(APIError.from(400, { message: 'flat message' }, {}).message).toBe('flat message');
    expect(APIError.from(400, { error: 'string error' }, {}).message).toBe('string error');
    expect(APIError.from(418, { detail: 1 }, {}).message).toBe(
      'The upstream answered 418 without an error message.',
    );
  });

  it('reads Retry-After as seconds, HTTP-date or retry-after-ms', () => {
    expect(APIError.from(429, {}, { 'retry-after': '3' }).retryAfterMs).toBe(3000);
    const date = new Date(Date.now() + 10_000).toUTCString();
    const fromDate = APIError.from(429, {}, { 'retry-after': date }).retryAfterMs;
    expect(fromDate).toBeGreaterThan(8_000);
    expect(fromDate).toBeLessThanOrEqual(10_000);
    expect(APIError.from(429, {}, { 'retry-after-ms': '1500' }).retryAfterMs).toBe(1500);
    expect(APIError.from(429, {}, { 'retry-after': 'soon' }).retryAfterMs).toBeUndefined();
    expect(APIError.from(429, {}, {}).retryAfterMs).toBeUndefined();
  });

  it('builds local validation errors', () => {
    const error = InvalidRequestError.local({
      message: 'prompt is too long',
      type: 'invalid_request_error',
      code: 'prompt_too_long',
      param: 'prompt',
    });
    expect(error.local).toBe(true);
    expect(error.status).toBe(400);
    expect(error.param).toBe('prompt');
    expect(error.message).toBe('prompt is too long');
  });
});

describe('non-HTTP errors', () => {
  it('have names and a sensible hierarchy', () => {
    const connection = new APIConnectionError();
    const timeout = new APITimeoutError();
    const deadline = new DeadlineExceededError();
    const abort = new APIUserAbortError();
    expect([connection.name, timeout.name, deadline.name, abort.name]).toEqual([
      'APIConnectionError',
      'APITimeoutError',
      'DeadlineExceededError',
      'APIUserAbortError',
    ]);
    for (const e of [connection, timeout, deadline, abort]) {
      expect(e).toBeInstanceOf(KilnError);
      expect(e).not.toBeInstanceOf(APIError);
    }
    expect(deadline).toBeInstanceOf(APITimeoutError);
    expect(timeout).not.toBeInstanceOf(APIConnectionError);
    expect(new InvalidResponseError(200, 'x').name).toBe('InvalidResponseError');
  });
});
