import { afterEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, APIError, APITimeoutError } from '../../client/errors.ts';
import { outage, outageOf, reportError } from './connectivity.ts';

const apiError = (status: number, code?: string, message = 'x') =>
  APIError.from(
    status,
    code ? { error: { message, type: 'api_error', code } } : '<html>502</html>',
    new Headers(),
    '',
  );

describe('what a failed request says about reachability', () => {
  it('says Kiln is unreachable when nothing answers, or a proxy answers for it', () => {
    expect(outageOf(new APIConnectionError())).toEqual({ kind: 'kiln' });
    expect(outageOf(new APITimeoutError())).toEqual({ kind: 'kiln' });
    expect(outageOf(apiError(502))).toEqual({ kind: 'kiln' });
    expect(outageOf(apiError(504))).toEqual({ kind: 'kiln' });
  });

  it('tells the upstream from Kiln’s own storage', () => {
    expect(outageOf(apiError(502, 'upstream_unreachable'))).toEqual({ kind: 'upstream' });
    expect(outageOf(apiError(504, 'upstream_timeout'))).toEqual({ kind: 'upstream' });
    expect(
      outageOf(apiError(503, 'service_unavailable', 'Kiln cannot reach its database just now.')),
    ).toEqual({ kind: 'storage', message: 'Kiln cannot reach its database just now.' });
  });

  it('says nothing of answers that are about the request', () => {
    for (const status of [400, 401, 402, 404, 409, 429, 500])
      expect(outageOf(apiError(status, 'invalid_value')), String(status)).toBeNull();
    expect(outageOf(new Error('boom'))).toBeNull();
    expect(outageOf(undefined)).toBeNull();
  });
});

describe('the outage store (lib/store.ts)', () => {
  afterEach(() => {
    outage.set(null);
    vi.useRealTimers();
  });

  it('holds what a failed request said, and tells its listeners once per change', () => {
    // Fake timers: the probe a report schedules never runs (no request leaves the test).
    vi.useFakeTimers();
    const heard = vi.fn();
    const stop = outage.subscribe(heard);
    reportError(apiError(400, 'invalid_value'));
    expect(outage.get()).toBeNull();
    expect(heard).not.toHaveBeenCalled();

    reportError(new APIConnectionError());
    const first = outage.get();
    expect(first).toEqual({ kind: 'kiln' });
    reportError(new APITimeoutError());
    // The same outage again keeps the same value: nobody renders again for it.
    expect(outage.get()).toBe(first);
    expect(heard).toHaveBeenCalledTimes(1);

    reportError(apiError(503, 'service_unavailable', 'Kiln cannot reach its database just now.'));
    reportError(apiError(503, 'service_unavailable', 'Kiln cannot reach its file store just now.'));
    expect(outage.get()).toEqual({
      kind: 'storage',
      message: 'Kiln cannot reach its file store just now.',
    });
    expect(heard).toHaveBeenCalledTimes(3);
    stop();
  });
});
