import { queryOptions, useQuery } from '@tanstack/react-query';
import { LibraryEntrySchema } from '../../../contract/index.ts';
import { kilnFetch, useKeyScope } from '../../lib/api.ts';
import { useApiKey } from '../key/key-store.ts';

/** One library entry (GET /api/library/{id}): inputs, archived model URL, credits. */
export function entryQuery(apiKey: string | null, scope: string, id: string) {
  return queryOptions({
    // Under ['library', scope] so that refreshing the library refreshes entries too.
    queryKey: ['library', scope, 'entry', id],
    queryFn: ({ signal }) =>
      kilnFetch(`/api/library/${encodeURIComponent(id)}`, {
        apiKey,
        signal,
        parse: (b) => LibraryEntrySchema.parse(b),
      }),
    enabled: apiKey !== null,
  });
}

export function useLibraryEntry(id: string) {
  const apiKey = useApiKey();
  return useQuery(entryQuery(apiKey, useKeyScope(), id));
}
