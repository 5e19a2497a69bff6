import { describe, expect, it } from 'vitest';
import { isStorageUnavailable } from './database.ts';

const err = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isStorageUnavailable', () => {
  it.each([
    ['a refused connection', err('ECONNREFUSED')],
    ['a reset connection', err('ECONNRESET')],
    ['PostgreSQL shutting down (57P01)', err('57P01', 'terminating connection')],
    ['PostgreSQL starting up (57P03)', err('57P03', 'the database system is starting up')],
    ['a connection exception class (08006)', err('08006')],
    ['too many connections (53300)', err('53300')],
    ['a busy SQLite file', err('SQLITE_BUSY')],
    ['a dropped pg connection', new Error('Connection terminated unexpectedly')],
    ['a pool that waited too long', new Error('timeout exceeded when trying to connect')],
    ['a cause two levels down', new Error('query failed', { cause: err('ECONNREFUSED') })],
  ])('is true for %s', (_label, e) => {
    expect(isStorageUnavailable(e)).toBe(true);
  });

  it.each([
    ['a unique violation (23505)', err('23505')],
    ['a syntax error (42601)', err('42601')],
    ['a plain bug', new TypeError('undefined is not a function')],
    ['a string', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('is false for %s', (_label, e) => {
    expect(isStorageUnavailable(e)).toBe(false);
  });
});
