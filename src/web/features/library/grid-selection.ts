// Pure helpers for the gallery's grid: which card a key moves to, and what a click, a
// shift-click or Space does to the selection.

/** The keys that move focus between cards. */
export type GridKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

export function isGridKey(key: string): key is GridKey {
  return ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(key);
}

/**
 * The card a key moves focus to, in a grid of `count` cards laid out `columns` to a row:
 * left and right step along the reading order (wrapping to the row above or below), up and down
 * move a whole row and stay put at the edge, Home and End go to the first and the last card.
 */
export function nextIndex(current: number, key: GridKey, columns: number, count: number): number {
  if (count <= 0) return -1;
  const cols = Math.max(1, Math.floor(columns));
  const at = Math.min(Math.max(current, 0), count - 1);
  switch (key) {
    case 'ArrowLeft':
      return Math.max(0, at - 1);
    case 'ArrowRight':
      return Math.min(count - 1, at + 1);
    case 'ArrowUp':
      return at - cols >= 0 ? at - cols : at;
    case 'ArrowDown':
      // Onto the last row's last card when the row below is shorter than this column.
      return at + cols < count
        ? at + cols
        : Math.floor(at / cols) < Math.floor((count - 1) / cols)
          ? count - 1
          : at;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
  }
}

export interface Selection {
  ids: ReadonlySet<string>;
  /** The card a shift-click extends from: the last one clicked or toggled. */
  anchor: string | null;
}

export const NO_SELECTION: Selection = { ids: new Set(), anchor: null };

/** One card toggled (a click on its checkbox, or Space): it becomes the anchor. */
export function toggle(selection: Selection, id: string): Selection {
  const ids = new Set(selection.ids);
  if (ids.has(id)) ids.delete(id);
  else ids.add(id);
  return { ids, anchor: id };
}

/**
 * A shift-click: every card from the anchor to this one, in the order shown, takes the state
 * the clicked card gets (selected when it was not). Without an anchor still shown, a toggle.
 */
export function selectRange(selection: Selection, order: readonly string[], id: string): Selection {
  const from = selection.anchor === null ? -1 : order.indexOf(selection.anchor);
  const to = order.indexOf(id);
  if (from < 0 || to < 0) return toggle(selection, id);
  const select = !selection.ids.has(id);
  const ids = new Set(selection.ids);
  for (const other of order.slice(Math.min(from, to), Math.max(from, to) + 1)) {
    if (select) ids.add(other);
    else ids.delete(other);
  }
  return { ids, anchor: id };
}

/** Cards gone from the grid (hidden): out of the selection, and no longer its anchor. */
export function deselect(selection: Selection, gone: ReadonlySet<string>): Selection {
  return {
    ids: new Set([...selection.ids].filter((id) => !gone.has(id))),
    anchor: selection.anchor && gone.has(selection.anchor) ? null : selection.anchor,
  };
}

/**
 * Where focus goes when the cards `gone` leave the grid: the first card after the first of them
 * that stays, else the nearest one before it that stays; undefined when none stays.
 */
export function neighbourOf(
  order: readonly string[],
  gone: ReadonlySet<string>,
): string | undefined {
  const first = order.findIndex((id) => gone.has(id));
  return (
    order.slice(first + 1).find((id) => !gone.has(id)) ??
    order
      .slice(0, Math.max(first, 0))
      .reverse()
      .find((id) => !gone.has(id))
  );
}
