import { describe, expect, it } from 'vitest';
import {
  NO_SELECTION,
  deselect,
  neighbourOf,
  nextIndex,
  selectRange,
  toggle,
} from './grid-selection.ts';

describe('moving between cards with the keys', () => {
  // 10 cards, 4 to a row:  0 1 2 3 / 4 5 6 7 / 8 9
  it('steps left and right along the reading order, stopping at the ends', () => {
    expect(nextIndex(0, 'ArrowLeft', 4, 10)).toBe(0);
    expect(nextIndex(3, 'ArrowRight', 4, 10)).toBe(4);
    expect(nextIndex(4, 'ArrowLeft', 4, 10)).toBe(3);
    expect(nextIndex(9, 'ArrowRight', 4, 10)).toBe(9);
  });

  it('moves up and down a row, onto the last card under a short last row', () => {
    expect(nextIndex(1, 'ArrowDown', 4, 10)).toBe(5);
    expect(nextIndex(5, 'ArrowDown', 4, 10)).toBe(9);
    expect(nextIndex(6, 'ArrowDown', 4, 10)).toBe(9);
    expect(nextIndex(9, 'ArrowDown', 4, 10)).toBe(9);
    expect(nextIndex(9, 'ArrowUp', 4, 10)).toBe(5);
    expect(nextIndex(2, 'ArrowUp', 4, 10)).toBe(2);
  });

  it('goes to the first and last with Home and End; one column is a list', () => {
    expect(nextIndex(5, 'Home', 4, 10)).toBe(0);
    expect(nextIndex(5, 'End', 4, 10)).toBe(9);
    expect(nextIndex(2, 'ArrowDown', 1, 3)).toBe(2);
    expect(nextIndex(1, 'ArrowDown', 1, 3)).toBe(2);
    expect(nextIndex(1, 'ArrowUp', 1, 3)).toBe(0);
    expect(nextIndex(0, 'ArrowDown', 0, 3)).toBe(1);
    expect(nextIndex(0, 'End', 4, 0)).toBe(-1);
  });
});

describe('selecting cards', () => {
  const order = ['a', 'b', 'c', 'd', 'e'];
  it('toggles one card and makes it the anchor', () => {
    const s = toggle(NO_SELECTION, 'b');
    expect([...s.ids]).toEqual(['b']);
    expect(s.anchor).toBe('b');
    expect([...toggle(s, 'b').ids]).toEqual([]);
  });

  it('selects the range from the anchor with a shift-click, either way', () => {
    const s = selectRange(toggle(NO_SELECTION, 'b'), order, 'd');
    expect([...s.ids].sort()).toEqual(['b', 'c', 'd']);
    expect(s.anchor).toBe('d');
    const back = selectRange(toggle(NO_SELECTION, 'd'), order, 'a');
    expect([...back.ids].sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('clears a range when the shift-clicked card was selected', () => {
    const all = { ids: new Set(order), anchor: 'a' };
    const s = selectRange(all, order, 'c');
    expect([...s.ids].sort()).toEqual(['d', 'e']);
  });

  it('toggles when there is no anchor shown', () => {
    expect([...selectRange(NO_SELECTION, order, 'c').ids]).toEqual(['c']);
    const gone = selectRange({ ids: new Set(['z']), anchor: 'z' }, order, 'c');
    expect([...gone.ids].sort()).toEqual(['c', 'z']);
  });
});

describe('cards leaving the grid', () => {
  it('drops them from the selection and forgets an anchor among them', () => {
    const s = deselect({ ids: new Set(['a', 'b', 'c']), anchor: 'b' }, new Set(['b', 'x']));
    expect([...s.ids].sort()).toEqual(['a', 'c']);
    expect(s.anchor).toBeNull();
  });

  it('keeps an anchor that stays', () => {
    const s = deselect({ ids: new Set(['a', 'b']), anchor: 'a' }, new Set(['b']));
    expect([...s.ids]).toEqual(['a']);
    expect(s.anchor).toBe('a');
  });
});

describe('where focus goes when cards leave', () => {
  const order = ['a', 'b', 'c', 'd', 'e'];
  it('goes to the next card that stays', () => {
    expect(neighbourOf(order, new Set(['b', 'c']))).toBe('d');
  });
  it('goes back to the nearest card before when none after stays', () => {
    expect(neighbourOf(order, new Set(['d', 'e']))).toBe('c');
  });
  it('goes nowhere when every card leaves', () => {
    expect(neighbourOf(order, new Set(order))).toBeUndefined();
  });
});
