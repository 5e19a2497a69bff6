import { describe, expect, it } from 'vitest';
import { queryKeys } from './query-keys.ts';

describe('queryKeys', () => {
  it('scopes every key-dependent query by the key scope', () => {
    for (const make of [queryKeys.models, queryKeys.library, queryKeys.credits])
      expect(make('k1')).not.toEqual(make('k2'));
    expect(queryKeys.task('k1', 't')).not.toEqual(queryKeys.task('k2', 't'));
  });

  it('puts library entries under the library, so one invalidation refreshes both', () => {
    const library = queryKeys.library('k1');
    expect(queryKeys.libraryEntry('k1', 'task_1').slice(0, library.length)).toEqual(library);
  });
});
