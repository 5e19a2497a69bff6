import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { LibraryEntry } from '../../../contract/index.ts';
import { useBulkAction, useSetFavourite } from '../../api/library.ts';
import { neighbourOf } from './grid-selection.ts';
import type { useGalleryEntries } from './use-gallery-entries.ts';
import type { useGallerySelection } from './use-gallery-selection.ts';
import type { useRovingGrid } from './use-roving-grid.ts';

/** The task ids a message names: "Task hidden." or "3 tasks hidden." */
const tasks = (n: number, what: string) => (n === 1 ? `Task ${what}.` : `${n} tasks ${what}.`);

/** "Task added to favourites." or "3 tasks removed from favourites." */
const favourited = (count: number, on: boolean) =>
  `${count === 1 ? 'Task' : `${count} tasks`} ${on ? 'added to' : 'removed from'} favourites.`;

/** One card's star: `onFavourite(id, on)` sets it. */
function useFavouriteOne() {
  const favourite = useSetFavourite();
  const { mutate: setFavourite } = favourite;
  const onFavourite = useCallback(
    (id: string, on: boolean) => setFavourite({ id, favourite: on }),
    [setFavourite],
  );
  return { favourite, onFavourite };
}

/** A live announcement: `say` sets it (the same message twice is announced twice). */
function useAnnouncement() {
  const [announcement, setAnnouncement] = useState('');
  const say = useCallback((message: string) => {
    // A trailing no-break space alternates so that the same message is announced again.
    setAnnouncement((prev) => (prev === message ? `${message}\u00a0` : message));
  }, []);
  return { announcement, say };
}

/** The tasks hidden last, for Undo, and their entries (are they still shared publicly?). */
interface LastHidden {
  ids: readonly string[];
  entries: readonly LibraryEntry[];
}
const NONE_HIDDEN: LastHidden = { ids: [], entries: [] };

/**
 * The selection bar's actions on the `selected` tasks: hide them (or, in the Hidden view, unhide
 * them), and star or unstar them; what leaves the grid goes through `onLeft`.
 */
function useSelectionActions({
  bulk,
  selected,
  onLeft,
  onFavourited,
}: {
  bulk: ReturnType<typeof useBulkAction>;
  selected: readonly LibraryEntry[];
  onLeft: (ids: readonly string[], how: 'hidden' | 'unhidden') => void;
  onFavourited: (count: number, on: boolean) => void;
}) {
  const ids = selected.map((e) => e.id);
  const leave = (action: 'hide' | 'unhide') => {
    if (ids.length === 0) return;
    bulk.mutate(
      { ids, action },
      {
        onSuccess: (result) =>
          onLeft(
            [...result.updated, ...result.not_found],
            action === 'hide' ? 'hidden' : 'unhidden',
          ),
      },
    );
  };
  return {
    hideSelected: () => leave('hide'),
    /** The Hidden view's "Unhide N": the selected tasks go back to the gallery. */
    unhideSelected: () => leave('unhide'),
    favouriteSelected: (on: boolean) =>
      bulk.mutate(
        { ids, action: on ? 'favourite' : 'unfavourite' },
        { onSuccess: (result) => onFavourited(result.updated.length, on) },
      ),
  };
}

/**
 * What is done to tasks from the grid: star one, hide one (its own Hide), star or hide the
 * selected ones; hidden ones can come back (Undo), and those still shared publicly are named
 * (from `lastHiddenEntries`, decision 0095). In the Hidden view, unhide one or the selected ones. Each
 * outcome is announced, and focus goes to a neighbour rather than being lost. It takes from the
 * grid the tasks shown, in order, and how tasks leave it and come back; from the selection, the
 * tasks selected and how hidden ones leave it; and the roving grid's focusCard.
 */
export function useGalleryActions(
  {
    entries,
    order,
    hide,
    show,
  }: Pick<ReturnType<typeof useGalleryEntries>, 'entries' | 'order' | 'hide' | 'show'>,
  { selected, forget }: Pick<ReturnType<typeof useGallerySelection>, 'selected' | 'forget'>,
  focusCard: ReturnType<typeof useRovingGrid>['focusCard'],
) {
  const { favourite, onFavourite } = useFavouriteOne();
  const bulk = useBulkAction();
  const { announcement, say } = useAnnouncement();
  const [lastHidden, setLastHidden] = useState<LastHidden>(NONE_HIDDEN);

  /**
   * Cards are gone (hidden, or in the Hidden view shown again): say so, offer Undo after a hide
   * (naming those still shared), and put focus on a neighbour rather than losing it.
   */
  const onLeftMany = (
    ids: readonly string[],
    part: 'card' | 'open',
    how: 'hidden' | 'unhidden' = 'hidden',
  ) => {
    const gone = new Set(ids);
    const neighbour = neighbourOf(order, gone);
    flushSync(() => {
      hide(ids);
      setLastHidden(
        how === 'hidden' ? { ids, entries: entries.filter((e) => gone.has(e.id)) } : NONE_HIDDEN,
      );
      forget(gone);
      bulk.reset();
      say(tasks(ids.length, how === 'hidden' ? 'hidden' : 'shown in the gallery again'));
    });
    focusCard(neighbour, part);
  };
  const onLeftManyRef = useRef(onLeftMany);
  useEffect(() => {
    onLeftManyRef.current = onLeftMany;
  });
  // One card hid itself (its own Hide, confirmed): focus goes to the neighbour's Open.
  const onHidden = useCallback((id: string) => onLeftManyRef.current([id], 'open'), []);
  // One hidden card was shown again (its Unhide, in the Hidden view).
  const onUnhidden = useCallback(
    (id: string) => onLeftManyRef.current([id], 'open', 'unhidden'),
    [],
  );

  /** Undo: the tasks come back where they were, and focus goes to the first. */
  const undo = () => {
    const { ids } = lastHidden;
    if (ids.length === 0) return;
    bulk.mutate(
      { ids: [...ids], action: 'unhide' },
      {
        onSuccess: () => {
          flushSync(() => {
            show(ids);
            setLastHidden(NONE_HIDDEN);
            say(ids.length === 1 ? 'Task shown again.' : `${ids.length} tasks shown again.`);
          });
          focusCard(ids[0], 'open');
        },
      },
    );
  };

  const selection = useSelectionActions({
    bulk,
    selected,
    onLeft: (ids, how) => onLeftMany(ids, 'card', how),
    onFavourited: (count, on) => {
      setLastHidden(NONE_HIDDEN);
      say(favourited(count, on));
    },
  });

  return {
    bulk,
    favourite,
    announcement,
    lastHidden: lastHidden.ids,
    lastHiddenEntries: lastHidden.entries,
    onHidden,
    onUnhidden,
    onFavourite,
    undo,
    ...selection,
  };
}
