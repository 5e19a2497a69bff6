import { useCallback, useEffect, useRef, type FocusEvent, type KeyboardEvent } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import { navigate } from '../../lib/router.ts';
import { isGridKey, nextIndex } from './grid-selection.ts';

/** How many columns the grid lays out now (its computed track list). */
function columnsOf(grid: HTMLElement): number {
  const tracks = getComputedStyle(grid).gridTemplateColumns.split(/\s+/).filter(Boolean);
  return Math.max(1, tracks.length);
}

/**
 * The grid's keyboard: one Tab stop among the cards (a roving tabindex, following focus), arrows
 * (and Home, End) move, Space selects (with Shift, the range from the last one), Enter opens,
 * Escape clears the selection. `listRef` goes on the list, `headingRef` on the page's heading
 * (where focus goes when no card is left to take it).
 */
export function useRovingGrid(
  entries: readonly LibraryEntry[],
  {
    hasSelection,
    onSelect,
    onClearSelection,
  }: {
    hasSelection: boolean;
    onSelect: (id: string, range: boolean) => void;
    onClearSelection: () => void;
  },
) {
  // The card the grid's one Tab stop is on (roving tabindex), kept in the DOM rather than in
  // state: moving between cards then re-renders nothing (measured in bench/gallery.ts).
  const activeRef = useRef<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

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

  /** Focus on a card (or its Open link), or on the heading when it is not shown. */
  const focusCard = useCallback((id: string | undefined, part: 'card' | 'open' = 'card') => {
    const card = id
      ? listRef.current?.querySelector<HTMLElement>(`[data-task-id="${CSS.escape(id)}"]`)
      : null;
    const target = part === 'open' ? card?.querySelector<HTMLElement>('.gallery-open') : card;
    (target ?? headingRef.current)?.focus();
  }, []);

  // The grid's keys, on a focused card.
  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
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
    } else if (e.key === 'Escape' && hasSelection) {
      e.preventDefault();
      onClearSelection();
    }
  };
  // Tab returns to the card last focused (the roving tab stop follows focus).
  const onFocus = (e: FocusEvent<HTMLUListElement>) => {
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

  return { listRef, headingRef, focusCard, onKeyDown, onFocus };
}
