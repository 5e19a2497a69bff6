import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_TYPES } from '../../contract/index.ts';
import { failureOf } from './job-failures.ts';
import { OptimiseInputError } from './pipeline.ts';

const aborted = (reason: unknown) => {
  const controller = new AbortController();
  controller.abort(reason);
  return controller.signal;
};
const live = new AbortController().signal;

describe('failureOf', () => {
  it('says a time limit in minutes or seconds', () => {
    const timeout = aborted(new Error('timeout'));
    expect(failureOf(new Error('x'), timeout, 120_000, () => {})).toMatchObject({
      code: ERROR_CODES.optimiseTimeout,
      message: expect.stringMatching(/^Optimising took longer than 2 minutes and was stopped/),
    });
    expect(failureOf(new Error('x'), timeout, 30_000, () => {}).message).toMatch(/than 30 s/);
  });

  it('says Kiln stopped, the model’s own problem, or anything else (told for the log)', () => {
    const told: unknown[] = [];
    expect(
      failureOf(new Error('x'), aborted(new Error('stop')), 1000, told.push.bind(told)),
    ).toEqual({
      message:
        'The Kiln server optimising this model was restarted before it could finish. Nothing is wrong with the model or the options: run it again.',
      type: ERROR_TYPES.api,
      code: ERROR_CODES.optimiseInterrupted,
    });
    expect(failureOf(new OptimiseInputError('No mesh.'), live, 1000, told.push.bind(told))).toEqual(
      {
        message: 'No mesh.',
        type: ERROR_TYPES.invalidRequest,
        code: ERROR_CODES.optimiseFailed,
      },
    );
    expect(told).toEqual([]);
    const crash = new Error('out of memory');
    expect(failureOf(crash, live, 1000, told.push.bind(told)).message).toBe(
      'Optimising failed: out of memory',
    );
    expect(told).toEqual([crash]);
  });
});
