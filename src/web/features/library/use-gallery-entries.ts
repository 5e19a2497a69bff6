import { useCallback, useMemo, useState } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import { useLibrary } from '../../api/library.ts';
import type { LibraryFilters } from './gallery-filters.ts';
import { useLoadOnScroll } from './use-load-on-scroll.ts';

/** Tasks per page of the gallery (measured in bench/gallery.ts; decision 0068). */
const PAGE_SIZE = 24;

/**
 * The gallery's data: the library's pages for these filters, loaded further as the list scrolls
 * (`sentinelRef` goes on an element below it), and the tasks to show, each once, in order,
 * without those hidden here since (`hide`, and `show` for Undo).
 */
export function useGalleryEntries(filters: LibraryFilters) {
  const library = useLibrary(filters, PAGE_SIZE);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const hide = useCallback(
    (ids: readonly string[]) => setHidden((prev) => new Set([...prev, ...ids])),
    [],
  );
  const show = useCallback(
    (ids: readonly string[]) =>
      setHidden((prev) => new Set([...prev].filter((id) => !ids.includes(id)))),
    [],
  );

  const entries = useMemo(() => {
    const seen = new Set<string>();
    const out: LibraryEntry[] = [];
    for (const page of library.data?.pages ?? []) {
      for (const entry of page.data) {
        if (seen.has(entry.id) || hidden.has(entry.id)) continue;
        seen.add(entry.id);
        out.push(entry);
      }
    }
    return out;
  }, [library.data, hidden]);
  const order = useMemo(() => entries.map((e) => e.id), [entries]);

  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = library;
  const sentinelRef = useLoadOnScroll<HTMLDivElement>(
    () => {
      if (hasNextPage && !isFetchingNextPage && !isFetchNextPageError) void fetchNextPage();
    },
    {
      enabled: Boolean(hasNextPage) && !isFetchingNextPage && !isFetchNextPageError,
      generation: library.data?.pages.length,
    },
  );

  return { library, entries, order, hide, show, sentinelRef };
}
