import { describe, expect, it } from 'vitest';
import {
  APIConnectionError,
  APIError,
  APITimeoutError,
  APIUserAbortError,
  DeadlineExceededError,
  InvalidRequestError,
  InvalidResponseError,
  backoffDelay,
  defaultPollInterval,
  isRetryableError,
  isRetryableStatus,
  parseRetryAfter,
  retryDelay,
} from './index.ts';

describe('backoffDelay', () => {
  it('doubles from 500 ms with equal jitter and caps at 8 s', () => {
    expect(backoffDelay(0, () => 0)).toBe(250);
    expect(backoffDelay(0, () => 0.999999)).toBe(500);
    expect(backoffDelay(1, () => 0)).toBe(500);
    expect(backoffDelay(2, () => 0.5)).toBe(1500);
    expect(backoffDelay(4, () => 1)).toBe(8000);
    expect(backoffDelay(30, () => 1)).toBe(8000);
    expect(backoffDelay(30, () => 0)).toBe(4000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  it('reads seconds and HTTP-dates', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 2 ', now)).toBe(2000);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
  });
  it('ignores what it cannot read', () => {
    for (const bad of [null, undefined, '', '-1', 'soon', '1e3', '12abc'])
      expect(parseRetryAfter(bad, now)).toBeUndefined();
  });
});

describe('retry classification', () => {
  it('retries 408, 429 and transient 5xx; 409 only with an idempotency key', () => {
    for (const status of [408, 429, 500, 502, 503, 504, 520])
      expect(isRetryableStatus(status, false)).toBe(true);
    for (const status of [400, 401, 402, 403, 404, 409, 422, 501, 505])
      expect(isRetryableStatus(status, false)).toBe(false);
    expect(isRetryableStatus(409, true)).toBe(true);
  });

  it('retries connection errors and timeouts, not deadlines, aborts, bad bodies or local errors', () => {
    expect(isRetryableError(new APIConnectionError(), false)).toBe(true);
    expect(isRetryableError(new APITimeoutError(), false)).toBe(true);
    expect(isRetryableError(new DeadlineExceededError(), false)).toBe(false);
    expect(isRetryableError(new APIUserAbortError(), false)).toBe(false);
    expect(isRetryableError(new InvalidResponseError(200, '<html>'), false)).toBe(false);
    expect(isRetryableError(APIError.from(503, ''), false)).toBe(true);
    expect(
      isRetryableError(InvalidRequestError.local({ message: 'x', param: 'prompt' }), false),
    ).toBe(false);
    expect(isRetryableError(new Error('other'), false)).toBe(false);
  });

  it('uses Retry-After instead of backoff, and refuses waits over 60 s', () => {
    expect(retryDelay(APIError.from(429, '', { 'retry-after': '7' }), 0, () => 0)).toBe(7000);
    expect(retryDelay(APIError.from(503, '', { 'retry-after': '60' }), 3, () => 0)).toBe(60_000);
    expect(retryDelay(APIError.from(429, '', { 'retry-after': '61' }), 0, () => 0)).toBeUndefined();
    expect(retryDelay(APIError.from(500, ''), 1, () => 0)).toBe(500);
  });
});

describe('defaultPollInterval', () => {
  it('eases from 2 s to 5 s', () => {
    expect([0, 1, 2, 3, 6, 7, 50].map(defaultPollInterval)).toEqual([
      2000, 2500, 3000, 3500, 5000, 5000, 5000,
    ]);
  });
});
