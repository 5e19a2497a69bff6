import { queryOptions, useQuery } from '@tanstack/react-query';
import { LibraryEntrySchema } from '../../../contract/index.ts';
import { kilnFetch, NO_KEY, useKeyScope } from '../../lib/api.ts';

/** One library entry (GET /api/library/{id}): inputs, archived model URL, credits. */
export function entryQuery(scope: string, id: string) {
  return queryOptions({
    // Under ['library', scope] so that refreshing the library refreshes entries too.
    queryKey: ['library', scope, 'entry', id],
    queryFn: ({ signal }) =>
      kilnFetch(`/api/library/${encodeURIComponent(id)}`, {
        signal,
        parse: (b) => LibraryEntrySchema.parse(b),
      }),
    enabled: scope !== NO_KEY,
  });
}

export function useLibraryEntry(id: string) {
  return useQuery(entryQuery(useKeyScope(), id));
}
