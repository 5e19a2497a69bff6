import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import type { LibraryEntry } from '../../../contract/index.ts';
import { useBulkAction, useSetFavourite } from '../../api/library.ts';
import type { useGalleryEntries } from './use-gallery-entries.ts';
import type { useGallerySelection } from './use-gallery-selection.ts';
import type { useRovingGrid } from './use-roving-grid.ts';

/** The task ids a message names: "Task hidden." or "3 tasks hidden." */
const tasks = (n: number, what: string) => (n === 1 ? `Task ${what}.` : `${n} tasks ${what}.`);

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
  const favourite = useSetFavourite();
  const bulk = useBulkAction();
  const [announcement, setAnnouncement] = useState('');
  // The tasks hidden last, for Undo, and their entries (are they still shared publicly?).
  const [lastHidden, setLastHidden] = useState<readonly string[]>([]);
  const [lastHiddenEntries, setLastHiddenEntries] = useState<readonly LibraryEntry[]>([]);

  const say = useCallback((message: string) => {
    // A trailing no-break space alternates so that the same message is announced again.
    setAnnouncement((prev) => (prev === message ? `${message}\u00a0` : message));
  }, []);

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
    const first = order.findIndex((id) => gone.has(id));
    const neighbour =
      order.slice(first + 1).find((id) => !gone.has(id)) ??
      order
        .slice(0, Math.max(first, 0))
        .reverse()
        .find((id) => !gone.has(id));
    flushSync(() => {
      hide(ids);
      setLastHidden(how === 'hidden' ? ids : []);
      setLastHiddenEntries(how === 'hidden' ? entries.filter((e) => gone.has(e.id)) : []);
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
    const ids = lastHidden;
    if (ids.length === 0) return;
    bulk.mutate(
      { ids: [...ids], action: 'unhide' },
      {
        onSuccess: () => {
          flushSync(() => {
            show(ids);
            setLastHidden([]);
            setLastHiddenEntries([]);
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
      { onSuccess: (result) => onLeftMany([...result.updated, ...result.not_found], 'card') },
    );
  };
  /** The Hidden view's "Unhide N": the selected tasks go back to the gallery. */
  const unhideSelected = () => {
    const ids = selected.map((e) => e.id);
    if (ids.length === 0) return;
    bulk.mutate(
      { ids, action: 'unhide' },
      {
        onSuccess: (result) =>
          onLeftMany([...result.updated, ...result.not_found], 'card', 'unhidden'),
      },
    );
  };
  const favouriteSelected = (on: boolean) => {
    const ids = selected.map((e) => e.id);
    bulk.mutate(
      { ids, action: on ? 'favourite' : 'unfavourite' },
      {
        onSuccess: (result) => {
          setLastHidden([]);
          setLastHiddenEntries([]);
          say(
            `${result.updated.length === 1 ? 'Task' : `${result.updated.length} tasks`} ${on ? 'added to' : 'removed from'} favourites.`,
          );
        },
      },
    );
  };

  const { mutate: setFavourite } = favourite;
  const onFavourite = useCallback(
    (id: string, on: boolean) => setFavourite({ id, favourite: on }),
    [setFavourite],
  );

  return {
    bulk,
    favourite,
    announcement,
    lastHidden,
    lastHiddenEntries,
    onHidden,
    onUnhidden,
    onFavourite,
    undo,
    hideSelected,
    unhideSelected,
    favouriteSelected,
  };
}
