import { describe, expect, it } from 'vitest';
import {
  NO_FILTERS,
  activeFilterCount,
  clearedFilters,
  describeFilters,
  describeList,
  filtersFromSearch,
  searchOfFilters,
  withoutCollection,
  type LibraryFilters,
} from './gallery-filters.ts';

const all: LibraryFilters = {
  q: 'red chair',
  model: 'alpha',
  kind: 'photo',
  status: 'failed',
  favourite: true,
  hidden: false,
  sort: 'credits',
  collection: '',
  provider: '',
};

const CHAIRS = 'col_AbCdEfGhIjKlMnOpQr_-';

describe('the gallery’s address ⇄ its filters', () => {
  it('reads every filter from the address', () => {
    expect(
      filtersFromSearch(
        '?q=red+chair&model=alpha&kind=photo&status=failed&favourite=1&sort=credits',
      ),
    ).toEqual(all);
    expect(filtersFromSearch('?q=red%20chair&favourite=true')).toMatchObject({
      q: 'red chair',
      favourite: true,
    });
  });

  it('reads and writes the Hidden view, a filter like the others', () => {
    const hidden = filtersFromSearch('?hidden=1&q=boat');
    expect(hidden).toEqual({ ...NO_FILTERS, q: 'boat', hidden: true });
    expect(searchOfFilters(hidden)).toBe('?q=boat&hidden=1');
    expect(filtersFromSearch('?hidden=yes').hidden).toBe(false);
    expect(activeFilterCount(hidden)).toBe(2);
    expect(clearedFilters(hidden).hidden).toBe(false);
    expect(describeList(hidden, 2, false)).toBe('2 tasks, matching “boat”, hidden; newest first.');
  });

  it('reads an empty address as no filters, newest first', () => {
    expect(filtersFromSearch('')).toEqual(NO_FILTERS);
    expect(filtersFromSearch('?')).toEqual(NO_FILTERS);
    expect(activeFilterCount(NO_FILTERS)).toBe(0);
    expect(NO_FILTERS.sort).toBe('newest');
  });

  it('drops values it does not know instead of failing', () => {
    expect(
      filtersFromSearch('?kind=video&status=done&sort=price&favourite=yes&model=a%20b&page=2'),
    ).toEqual(NO_FILTERS);
    expect(filtersFromSearch(`?q=${'x'.repeat(300)}`).q).toHaveLength(200);
  });

  it('writes filters in one order, leaving defaults out', () => {
    expect(searchOfFilters(NO_FILTERS)).toBe('');
    expect(searchOfFilters({ ...NO_FILTERS, sort: 'newest' })).toBe('');
    expect(searchOfFilters(all)).toBe(
      '?q=red+chair&model=alpha&kind=photo&status=failed&favourite=1&sort=credits',
    );
    expect(searchOfFilters({ ...NO_FILTERS, sort: 'oldest', q: '  a   b ' })).toBe(
      '?q=a+b&sort=oldest',
    );
    // Characters that mean something in an address are escaped.
    expect(searchOfFilters({ ...NO_FILTERS, q: 'a&b=c #1 100%' })).toBe('?q=a%26b%3Dc+%231+100%25');
  });

  it('round-trips: address → filters → address, and filters → address → filters', () => {
    const addresses = [
      '',
      '?q=vase',
      '?model=beta-multiview&kind=views',
      '?status=pending&sort=oldest',
      '?favourite=1',
      '?q=a%26b%3Dc+%231+100%25&sort=credits',
    ];
    for (const a of addresses) expect(searchOfFilters(filtersFromSearch(a))).toBe(a);
    const shuffled = '?sort=credits&favourite=1&q=chair';
    expect(searchOfFilters(filtersFromSearch(shuffled))).toBe('?q=chair&favourite=1&sort=credits');
    expect(filtersFromSearch(searchOfFilters(all))).toEqual(all);
  });

  it('counts the filters that narrow the list, and clears them keeping the order', () => {
    expect(activeFilterCount(NO_FILTERS)).toBe(0);
    expect(activeFilterCount({ ...NO_FILTERS, sort: 'credits' })).toBe(0);
    expect(activeFilterCount({ ...NO_FILTERS, q: '   ' })).toBe(0);
    expect(activeFilterCount(all)).toBe(5);
    expect(clearedFilters(all)).toEqual({ ...NO_FILTERS, sort: 'credits' });
  });

  it('says what the list shows', () => {
    expect(describeList(NO_FILTERS, 24, true)).toBe('24 tasks shown so far; newest first.');
    expect(describeList(NO_FILTERS, 1, false)).toBe('1 task; newest first.');
    expect(describeList(all, 2, false)).toBe(
      '2 tasks, matching “red chair”, made with alpha, from one photo, failed, favourites; most credits first.',
    );
    expect(describeFilters({ ...NO_FILTERS, q: 'unicorn', status: 'pending' })).toBe(
      'Tasks matching “unicorn”, in progress.',
    );
  });
});

describe('the gallery shown by collection (?collection=, decision 0087)', () => {
  it('reads a collection id from the address, and drops what is not one', () => {
    expect(filtersFromSearch(`?collection=${CHAIRS}`)).toEqual({
      ...NO_FILTERS,
      collection: CHAIRS,
    });
    for (const bad of ['col_short', 'chairs', `${CHAIRS}x`, 'col_AbCdEfGhIjKlMnOp%20r_-', ''])
      expect(filtersFromSearch(`?collection=${bad}`).collection, bad).toBe('');
  });

  it('writes it first, with the other filters after it, and round-trips', () => {
    const inChairs = { ...all, collection: CHAIRS };
    const address = `?collection=${CHAIRS}&q=red+chair&model=alpha&kind=photo&status=failed&favourite=1&sort=credits`;
    expect(searchOfFilters(inChairs)).toBe(address);
    expect(filtersFromSearch(address)).toEqual(inChairs);
    expect(searchOfFilters(filtersFromSearch(`?sort=oldest&collection=${CHAIRS}`))).toBe(
      `?collection=${CHAIRS}&sort=oldest`,
    );
  });

  it('is where the gallery is, not a filter: not counted, and kept by Clear filters', () => {
    const inChairs = { ...all, collection: CHAIRS };
    expect(activeFilterCount({ ...NO_FILTERS, collection: CHAIRS })).toBe(0);
    expect(activeFilterCount(inChairs)).toBe(activeFilterCount(all));
    expect(clearedFilters(inChairs)).toEqual({
      ...NO_FILTERS,
      sort: 'credits',
      collection: CHAIRS,
    });
  });

  it('"All models" leaves the collection and keeps the rest', () => {
    expect(withoutCollection({ ...all, collection: CHAIRS })).toEqual(all);
    expect(searchOfFilters(withoutCollection({ ...NO_FILTERS, collection: CHAIRS }))).toBe('');
  });
});

describe('the provider filter', () => {
  it('is kept in the address, read back, counted, said, and an unknown one dropped', () => {
    const f: LibraryFilters = { ...NO_FILTERS, provider: 'meshy' };
    expect(searchOfFilters(f)).toBe('?provider=meshy');
    expect(filtersFromSearch('?provider=meshy')).toEqual(f);
    expect(filtersFromSearch('?provider=spec').provider).toBe('spec');
    expect(filtersFromSearch('?provider=acme').provider).toBe('');
    expect(activeFilterCount(f)).toBe(1);
    expect(describeFilters(f)).toBe('Tasks from Meshy.');
  });
});
