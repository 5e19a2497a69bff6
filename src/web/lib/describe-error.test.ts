import { describe, expect, it } from 'vitest';
import { APIError } from '../../client/index.ts';
import { describeError, fieldMessage } from './describe-error.ts';

const apiError = (status: number, error: Record<string, unknown>) =>
  APIError.from(status, { error: { type: 'invalid_request_error', ...error } });

describe('describeError', () => {
  it('says "Not enough credits" once, with the balance the upstream gave', () => {
    const err = apiError(402, {
      type: 'insufficient_credits',
      code: 'insufficient_credits',
      message: 'Not enough credits: gamma costs 30 credits and the balance is 5.',
    });
    const shown = describeError(err, { price: 30, balance: 5 });
    expect(shown.message).toBe('Not enough credits: gamma costs 30 credits and the balance is 5.');
    expect(shown.message.match(/not enough credits/gi)).toHaveLength(1);
  });

  it('adds the price and balance it knows when the upstream did not say them', () => {
    const err = apiError(402, { type: 'insufficient_credits', message: 'Payment required.' });
    expect(describeError(err, { price: 30, balance: 5 }).message).toBe(
      'Not enough credits. Payment required. This model costs 30 credits and your balance is 5.',
    );
  });

  it('puts a field error at its field, in the studio’s words', () => {
    const err = apiError(400, {
      code: 'invalid_image_count',
      param: 'image_urls',
      message: 'image_urls needs 2 to 4 images; got 1.',
    });
    expect(describeError(err)).toEqual({
      at: 'image_urls',
      message: 'Add 2 to 4 views of the object.',
    });
  });
});

describe('fieldMessage', () => {
  it('never shows the API’s field names', () => {
    expect(
      fieldMessage({
        param: 'image_urls[1]',
        code: 'invalid_value',
        message: 'image_urls[1] must be a valid http, https or data: URL.',
      }),
    ).toBe('View 2 must be a valid http, https or data: URL.');
    expect(
      fieldMessage({
        param: 'image_url',
        code: 'invalid_value',
        message: 'image_url must not be empty.',
      }),
    ).toBe('The photo must not be empty.');
  });

  it('says how many views there are against the 2–4 rule', () => {
    expect(
      fieldMessage(
        {
          param: 'image_urls',
          code: 'invalid_image_count',
          message: 'image_urls needs 2 to 4 images; got 1.',
        },
        { count: 1 },
      ),
    ).toBe('Add 2 to 4 views of the object. There is 1 now.');
  });

  it('asks for what is missing', () => {
    expect(fieldMessage({ param: 'image_url', code: 'missing_field', message: 'x' })).toBe(
      'Add a photo first.',
    );
    expect(fieldMessage({ param: 'image_urls', code: 'missing_field', message: 'x' })).toBe(
      'Add 2 to 4 views of the object.',
    );
    expect(fieldMessage({ param: 'prompt', code: 'missing_field', message: 'x' })).toBe(
      'Describe the object you want.',
    );
  });
});

describe('fieldMessage on a failed task', () => {
  it('drops the bracketed field the mock appends: the form marks the field itself', () => {
    expect(
      fieldMessage({
        param: 'image_url',
        code: 'image_download_failed',
        message: 'The image at http://x/y.png could not be fetched. (image_url)',
      }),
    ).toBe('The image at http://x/y.png could not be fetched.');
  });
});
