import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_TYPES, errorObjectFor, errorTypeFor } from './errors.ts';

const SRC = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name)
        ? [join(dir, e.name)]
        : [],
  );
}

describe('error codes', () => {
  it('are all listed in the contract: the server and the mock write none of their own', () => {
    const literal = /\bcode:\s*'([a-z_]+)'/g;
    const strays: string[] = [];
    const dirs = ['server', 'mock', 'http'].map((d) => join(SRC, d));
    for (const file of dirs.flatMap(sources))
      for (const m of readFileSync(file, 'utf8').matchAll(literal))
        if (m[1] !== 'custom') strays.push(`${file.slice(SRC.length)}: ${m[1]}`);
    expect(strays).toEqual([]);
  });

  it('are distinct snake_case words', () => {
    const codes = Object.values(ERROR_CODES);
    expect(new Set(codes).size).toBe(codes.length);
    for (const c of codes) expect(c).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
  });
});

describe('the error object of an answer', () => {
  it('takes its type from the status, in one place', () => {
    expect([400, 401, 402, 404, 409, 413, 429, 500, 503].map(errorTypeFor)).toEqual([
      ERROR_TYPES.invalidRequest,
      ERROR_TYPES.authentication,
      ERROR_TYPES.insufficientCredits,
      ERROR_TYPES.notFound,
      ERROR_TYPES.invalidRequest,
      ERROR_TYPES.invalidRequest,
      ERROR_TYPES.rateLimit,
      ERROR_TYPES.api,
      ERROR_TYPES.api,
    ]);
  });

  it('is message, type, code and param, in that order, param only when there is a field', () => {
    const withField = errorObjectFor(400, {
      code: ERROR_CODES.missingField,
      message: 'prompt is required.',
      param: 'prompt',
    });
    expect(JSON.stringify(withField)).toBe(
      '{"message":"prompt is required.","type":"invalid_request_error","code":"missing_field","param":"prompt"}',
    );
    expect(errorObjectFor(404, { code: ERROR_CODES.routeNotFound, message: 'No route.' })).toEqual({
      message: 'No route.',
      type: 'not_found',
      code: 'route_not_found',
    });
    expect(
      errorObjectFor(400, { code: ERROR_CODES.invalidValue, message: 'x', type: ERROR_TYPES.api }),
    ).toMatchObject({ type: 'api_error' });
  });
});
