import { queryOptions, useQuery } from '@tanstack/react-query';
import { LibraryEntrySchema } from '../../contract/index.ts';
import { NO_KEY, useKeyScope } from './api-client.ts';
import { kilnFetch } from './kiln-fetch.ts';
import { queryKeys } from './query-keys.ts';

/** One library entry (GET /api/library/{id}): inputs, archived model URL, credits. */
export function entryQuery(scope: string, id: string) {
  return queryOptions({
    // Under queryKeys.library(scope) so that refreshing the library refreshes entries too.
    queryKey: queryKeys.libraryEntry(scope, id),
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
