import type { FocusEvent, KeyboardEvent, RefObject } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import { GalleryCard } from './gallery-card.tsx';
import { describeList, type LibraryFilters } from './gallery-filters.ts';

/** The tasks shown, as a grid of cards, under a line saying what the list is. */
export function GalleryGrid({
  entries,
  filters,
  hasMore,
  updating,
  hintId,
  selectedIds,
  listRef,
  onKeyDown,
  onFocus,
  onSelect,
  onFavourite,
  onHidden,
  onUnhidden,
}: {
  entries: readonly LibraryEntry[];
  filters: LibraryFilters;
  /** More pages can be loaded. */
  hasMore: boolean;
  /** Other filters' results are on their way (these are the previous ones). */
  updating: boolean;
  /** The id of the keys hint, which each card refers to. */
  hintId: string;
  selectedIds: ReadonlySet<string>;
  listRef: RefObject<HTMLUListElement | null>;
  onKeyDown: (e: KeyboardEvent<HTMLUListElement>) => void;
  onFocus: (e: FocusEvent<HTMLUListElement>) => void;
  onSelect: (id: string, range: boolean) => void;
  onFavourite: (id: string, favourite: boolean) => void;
  onHidden: (id: string) => void;
  onUnhidden: (id: string) => void;
}) {
  return (
    <div className="gallery-results">
      <div className="gallery-status-row">
        <p className="muted small gallery-count" aria-live="polite">
          {describeList(filters, entries.length, hasMore)}
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
        onKeyDown={onKeyDown}
        onFocus={onFocus}
      >
        {entries.map((entry) => (
          <GalleryCard
            key={entry.id}
            entry={entry}
            selected={selectedIds.has(entry.id)}
            hintId={hintId}
            onSelect={onSelect}
            onFavourite={onFavourite}
            onHidden={onHidden}
            onUnhidden={onUnhidden}
          />
        ))}
      </ul>
    </div>
  );
}
