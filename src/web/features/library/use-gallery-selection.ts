import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import { NO_SELECTION, deselect, selectRange, toggle, type Selection } from './grid-selection.ts';

/**
 * The cards selected (a click on a checkbox or Space toggles one, with Shift the range from the
 * last one), cleared when another search or filter shows other tasks.
 */
export function useGallerySelection(
  search: string,
  entries: readonly LibraryEntry[],
  order: readonly string[],
) {
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  // Another search or filter: what was selected is no longer what is shown.
  const [selectionFor, setSelectionFor] = useState(search);
  if (selectionFor !== search) {
    setSelectionFor(search);
    setSelection(NO_SELECTION);
  }

  const orderRef = useRef(order);
  useEffect(() => {
    orderRef.current = order;
  }, [order]);
  const selected = useMemo(
    () => entries.filter((e) => selection.ids.has(e.id)),
    [entries, selection.ids],
  );

  const onSelect = useCallback((id: string, range: boolean) => {
    setSelection((prev) => (range ? selectRange(prev, orderRef.current, id) : toggle(prev, id)));
  }, []);
  const selectAll = () => setSelection({ ids: new Set(order), anchor: selection.anchor });
  const clearSelection = useCallback(() => setSelection(NO_SELECTION), []);
  const forget = useCallback(
    (gone: ReadonlySet<string>) => setSelection((prev) => deselect(prev, gone)),
    [],
  );

  return { selection, selected, onSelect, selectAll, clearSelection, forget };
}
