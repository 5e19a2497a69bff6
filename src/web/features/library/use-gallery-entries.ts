import { useCallback, useMemo, useState } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import { useLibrary } from '../../api/library.ts';
import type { LibraryFilters } from './gallery-filters.ts';
import { useLoadOnScroll } from './use-load-on-scroll.ts';

/** Tasks per page of the gallery (measured in bench/gallery.ts; decision 0068). */
const PAGE_SIZE = 24;
const NONE: ReadonlySet<string> = new Set();

/**
 * The gallery's data: the library's pages for these filters, loaded further as the list scrolls
 * (`sentinelRef` goes on an element below it), and the tasks to show, each once, in order,
 * without those hidden here since (`hide`, and `show` for Undo).
 */
export function useGalleryEntries(filters: LibraryFilters) {
  const library = useLibrary(filters, PAGE_SIZE);
  // The tasks that left this view here (hidden; in the Hidden view, shown again): kept per view,
  // so a task hidden from the gallery is in the Hidden view at once, and the other way round.
  const view = filters.hidden;
  const [left, setLeft] = useState<{ view: boolean; ids: ReadonlySet<string> }>(() => ({
    view,
    ids: new Set(),
  }));
  const hidden = left.view === view ? left.ids : NONE;
  const hide = useCallback(
    (ids: readonly string[]) =>
      setLeft((prev) => ({
        view,
        ids: new Set([...(prev.view === view ? prev.ids : []), ...ids]),
      })),
    [view],
  );
  const show = useCallback(
    (ids: readonly string[]) =>
      setLeft((prev) => ({
        view,
        ids: new Set([...(prev.view === view ? prev.ids : [])].filter((id) => !ids.includes(id))),
      })),
    [view],
  );

  // Every filter (the provider's too) is the server's: each page is full, and its cursor goes on.
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
