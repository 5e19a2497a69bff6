import { LazyBackgroundPictures } from '../viewer/index.ts';
import {
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
} from 'react';
import { flushSync } from 'react-dom';
import type { LibraryEntry } from '../../../contract/index.ts';
import { useBulkAction } from '../../api/library-bulk.ts';
import { useSetFavourite } from '../../api/library-favourite.ts';
import { useLibrary } from '../../api/library-query.ts';
import { useModels } from '../../api/models-query.ts';
import { describeError } from '../../lib/describe-error.ts';
import { navigate, setSearch, useSearch } from '../../lib/router.ts';
import { Link } from '../../ui/link.tsx';
import { LoadMore } from '../../ui/load-more.tsx';
import { QueryState } from '../../ui/query-state.tsx';
import { GalleryCard } from './gallery-card.tsx';
import {
  activeFilterCount,
  clearedFilters,
  describeFilters,
  describeList,
  filtersFromSearch,
  searchOfFilters,
  type LibraryFilters,
} from './gallery-filters.ts';
import { GalleryToolbar } from './gallery-toolbar.tsx';
import {
  NO_SELECTION,
  isGridKey,
  nextIndex,
  selectRange,
  toggle,
  type Selection,
} from './grid-selection.ts';
import { SelectionBar } from './selection-bar.tsx';
import { useLoadOnScroll } from './use-load-on-scroll.ts';
import './gallery.css';

/** Tasks per page of the gallery (measured in bench/gallery.ts; decision 0068). */
const PAGE_SIZE = 24;

/** How many columns the grid lays out now (its computed track list). */
function columnsOf(grid: HTMLElement): number {
  const tracks = getComputedStyle(grid).gridTemplateColumns.split(/\s+/).filter(Boolean);
  return Math.max(1, tracks.length);
}

/** The task ids a message names: "Task hidden." or "3 tasks hidden." */
const tasks = (n: number, what: string) => (n === 1 ? `Task ${what}.` : `${n} tasks ${what}.`);

/**
 * Every task this key made through Kiln, as cards: search, filter, sort (all in the address),
 * look, open, download, star, select several to hide, download or share; keys move between
 * cards. Pages load as the list scrolls (Load more stays as the fallback).
 */
export default function GalleryPage() {
  const search = useSearch();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const library = useLibrary(filters, PAGE_SIZE);
  const models = useModels();
  const favourite = useSetFavourite();
  const bulk = useBulkAction();

  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [announcement, setAnnouncement] = useState('');
  // The tasks hidden last, for Undo.
  const [lastHidden, setLastHidden] = useState<readonly string[]>([]);
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  // The card the grid's one Tab stop is on (roving tabindex), kept in the DOM rather than in
  // state: moving between cards then re-renders nothing (measured in bench/gallery.ts).
  const activeRef = useRef<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const hintId = useId();
  // Whether the last change of the address was a search being typed (the next one replaces it).
  const typingRef = useRef(false);

  useEffect(() => {
    document.title = 'Gallery · Kiln';
  }, []);

  // The address in one form: unknown values dropped, parameters in one order.
  useEffect(() => {
    const normal = searchOfFilters(filters);
    if (normal !== location.search) setSearch(normal, { replace: true });
  }, [filters]);

  // Another search or filter: what was selected is no longer what is shown.
  const [selectionFor, setSelectionFor] = useState(search);
  if (selectionFor !== search) {
    setSelectionFor(search);
    setSelection(NO_SELECTION);
  }

  const say = useCallback((message: string) => {
    // A trailing no-break space alternates so that the same message is announced again.
    setAnnouncement((prev) => (prev === message ? `${message}\u00a0` : message));
  }, []);

  const changeFilters = useCallback((next: LibraryFilters, typing: boolean) => {
    setSearch(searchOfFilters(next), { replace: typing && typingRef.current });
    typingRef.current = typing;
  }, []);
  const clearFilters = useCallback(() => {
    changeFilters(clearedFilters(filtersFromSearch(location.search)), false);
  }, [changeFilters]);

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
  const orderRef = useRef(order);
  useEffect(() => {
    orderRef.current = order;
  }, [order]);
  const selected = useMemo(
    () => entries.filter((e) => selection.ids.has(e.id)),
    [entries, selection.ids],
  );
  // Exactly one card is the Tab stop: the one last focused while it is shown, else the first.
  useEffect(() => {
    const grid = listRef.current;
    if (!grid) return;
    const id = activeRef.current;
    const stop =
      (id
        ? grid.querySelector<HTMLElement>(`[data-card][data-task-id="${CSS.escape(id)}"]`)
        : null) ?? grid.querySelector<HTMLElement>('[data-card]');
    for (const card of grid.querySelectorAll<HTMLElement>('[data-card][tabindex="0"]'))
      if (card !== stop) card.tabIndex = -1;
    if (stop) stop.tabIndex = 0;
  }, [entries]);

  const focusCard = (id: string | undefined, part: 'card' | 'open' = 'card') => {
    const card = id
      ? listRef.current?.querySelector<HTMLElement>(`[data-task-id="${CSS.escape(id)}"]`)
      : null;
    const target = part === 'open' ? card?.querySelector<HTMLElement>('.gallery-open') : card;
    (target ?? headingRef.current)?.focus();
  };

  /** Cards are gone: say so, offer Undo, and put focus on a neighbour rather than losing it. */
  const onHiddenMany = (ids: readonly string[], part: 'card' | 'open') => {
    const gone = new Set(ids);
    const first = order.findIndex((id) => gone.has(id));
    const neighbour =
      order.slice(first + 1).find((id) => !gone.has(id)) ??
      order
        .slice(0, Math.max(first, 0))
        .reverse()
        .find((id) => !gone.has(id));
    flushSync(() => {
      setHidden((prev) => new Set([...prev, ...ids]));
      setLastHidden(ids);
      setSelection((prev) => ({
        ids: new Set([...prev.ids].filter((id) => !gone.has(id))),
        anchor: prev.anchor && gone.has(prev.anchor) ? null : prev.anchor,
      }));
      bulk.reset();
      say(tasks(ids.length, 'hidden'));
    });
    focusCard(neighbour, part);
  };
  const onHiddenManyRef = useRef(onHiddenMany);
  useEffect(() => {
    onHiddenManyRef.current = onHiddenMany;
  });
  // One card hid itself (its own Hide, confirmed): focus goes to the neighbour's Open.
  const onHidden = useCallback((id: string) => onHiddenManyRef.current([id], 'open'), []);

  /** Undo: the tasks come back where they were, and focus goes to the first. */
  const undo = () => {
    const ids = lastHidden;
    if (ids.length === 0) return;
    bulk.mutate(
      { ids: [...ids], action: 'unhide' },
      {
        onSuccess: () => {
          flushSync(() => {
            setHidden((prev) => new Set([...prev].filter((id) => !ids.includes(id))));
            setLastHidden([]);
            say(ids.length === 1 ? 'Task shown again.' : `${ids.length} tasks shown again.`);
          });
          focusCard(ids[0], 'open');
        },
      },
    );
  };

  const hideSelected = () => {
    const ids = selected.map((e) => e.id);
    if (ids.length === 0) return;
    bulk.mutate(
      { ids, action: 'hide' },
      { onSuccess: (result) => onHiddenMany([...result.updated, ...result.not_found], 'card') },
    );
  };
  const favouriteSelected = (on: boolean) => {
    const ids = selected.map((e) => e.id);
    bulk.mutate(
      { ids, action: on ? 'favourite' : 'unfavourite' },
      {
        onSuccess: (result) => {
          setLastHidden([]);
          say(
            `${result.updated.length === 1 ? 'Task' : `${result.updated.length} tasks`} ${on ? 'added to' : 'removed from'} favourites.`,
          );
        },
      },
    );
  };

  const onSelect = useCallback((id: string, range: boolean) => {
    setSelection((prev) => (range ? selectRange(prev, orderRef.current, id) : toggle(prev, id)));
  }, []);
  const { mutate: setFavourite } = favourite;
  const onFavourite = useCallback(
    (id: string, on: boolean) => setFavourite({ id, favourite: on }),
    [setFavourite],
  );

  // The grid's keys, on a focused card: arrows (and Home, End) move, Space selects (with
  // Shift, the range from the last one), Enter opens, Escape clears the selection.
  const onGridKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const card = e.target as HTMLElement;
    const grid = listRef.current;
    if (!grid || !card.hasAttribute('data-card') || e.altKey || e.ctrlKey || e.metaKey) return;
    const id = card.dataset.taskId ?? '';
    if (isGridKey(e.key)) {
      e.preventDefault();
      const cards = [...grid.querySelectorAll<HTMLElement>('[data-card]')];
      const next = cards[nextIndex(cards.indexOf(card), e.key, columnsOf(grid), cards.length)];
      next?.focus();
      next?.scrollIntoView({ block: 'nearest' });
    } else if (e.key === ' ') {
      e.preventDefault();
      onSelect(id, e.shiftKey);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      navigate(`/tasks/${encodeURIComponent(id)}`);
    } else if (e.key === 'Escape' && selection.ids.size > 0) {
      e.preventDefault();
      setSelection(NO_SELECTION);
    }
  };
  // Tab returns to the card last focused (the roving tab stop follows focus).
  const onGridFocus = (e: FocusEvent<HTMLUListElement>) => {
    const card = (e.target as HTMLElement).closest<HTMLElement>('[data-card]');
    const id = card?.dataset.taskId;
    if (!card || !id || id === activeRef.current) return;
    for (const other of listRef.current?.querySelectorAll<HTMLElement>(
      '[data-card][tabindex="0"]',
    ) ?? [])
      other.tabIndex = -1;
    card.tabIndex = 0;
    activeRef.current = id;
  };

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

  const filtered = activeFilterCount(filters) > 0;
  const updating =
    library.isPlaceholderData ||
    (library.isFetching && !isFetchingNextPage && entries.length === 0);
  const modelIds = useMemo(() => (models.data?.models ?? []).map((m) => m.id), [models.data]);
  const actionError = bulk.isError ? describeError(bulk.error).message : null;

  return (
    <main className={`page gallery-page${selected.length > 0 ? ' has-selection' : ''}`}>
      <div className="gallery-head">
        <h1 ref={headingRef} tabIndex={-1}>
          Gallery
        </h1>
      </div>
      <GalleryToolbar
        filters={filters}
        models={modelIds}
        onChange={changeFilters}
        onClear={clearFilters}
      />

      <div
        role="status"
        className={lastHidden.length > 0 ? 'gallery-undo card' : 'visually-hidden'}
      >
        <span>{announcement}</span>
        {lastHidden.length > 0 && (
          <button type="button" className="small" onClick={undo} disabled={bulk.isPending}>
            {bulk.isPending ? 'Undoing…' : 'Undo'}
          </button>
        )}
      </div>
      {actionError && (
        <p className="error small" role="alert">
          That did not work: {actionError}
        </p>
      )}
      {favourite.isError && (
        <p className="error small" role="alert">
          The star could not be kept: {describeError(favourite.error).message}
        </p>
      )}
      {selected.length > 0 && (
        <SelectionBar
          selected={selected}
          shown={entries.length}
          busy={bulk.isPending}
          onSelectAll={() => setSelection({ ids: new Set(order), anchor: selection.anchor })}
          onClear={() => setSelection(NO_SELECTION)}
          onHide={hideSelected}
          onFavourite={favouriteSelected}
        />
      )}

      <Suspense fallback={null}>
        <LazyBackgroundPictures entries={entries} />
      </Suspense>
      <QueryState
        query={library}
        loading="Loading your gallery…"
        failed="The gallery could not be loaded"
        className={entries.length === 0 ? 'gallery-message gallery-empty' : 'gallery-message'}
        empty={
          entries.length === 0 &&
          !library.isPlaceholderData &&
          (filtered ? (
            <>
              <p className="gallery-empty-title">No tasks match these filters.</p>
              <p className="muted">{describeFilters(filters)}</p>
              <p>
                <button type="button" className="primary" onClick={clearFilters}>
                  Clear filters
                </button>
              </p>
            </>
          ) : (
            <>
              <p className="gallery-empty-title">
                Nothing here yet — make your first model in the Studio.
              </p>
              <p>
                <Link href="/" className="button primary">
                  Go to the Studio
                </Link>
              </p>
            </>
          ))
        }
      >
        {() => (
          <div className="gallery-results">
            <div className="gallery-status-row">
              <p className="muted small gallery-count" aria-live="polite">
                {describeList(filters, entries.length, Boolean(hasNextPage))}
                {updating && <span className="gallery-updating"> Updating…</span>}
              </p>
              <p id={hintId} className="muted small gallery-keys-hint">
                Arrow keys move between tasks, Space selects (Shift for a range), Enter opens.
              </p>
            </div>
            <ul
              className={`gallery-grid${updating ? ' is-updating' : ''}`}
              ref={listRef}
              aria-busy={updating}
              aria-label="Tasks"
              onKeyDown={onGridKeyDown}
              onFocus={onGridFocus}
            >
              {entries.map((entry) => (
                <GalleryCard
                  key={entry.id}
                  entry={entry}
                  selected={selection.ids.has(entry.id)}
                  hintId={hintId}
                  onSelect={onSelect}
                  onFavourite={onFavourite}
                  onHidden={onHidden}
                />
              ))}
            </ul>
          </div>
        )}
      </QueryState>

      <div ref={sentinelRef} className="gallery-sentinel" aria-hidden="true" />
      <LoadMore library={library} className="gallery-more" />
    </main>
  );
}
