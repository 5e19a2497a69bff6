import { useCallback, useEffect, useMemo, useRef } from 'react';
import { setSearch, useSearch } from '../../lib/router.ts';
import {
  clearedFilters,
  filtersFromSearch,
  searchOfFilters,
  type LibraryFilters,
} from './gallery-filters.ts';

/**
 * The gallery's search, filters and sort, kept in the address: read from it, written back in one
 * form (unknown values dropped, parameters in one order), and changed by the toolbar (a search
 * being typed replaces its own last entry in the history rather than adding one a keystroke).
 */
export function useGalleryAddress() {
  const search = useSearch();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  // Whether the last change of the address was a search being typed (the next one replaces it).
  const typingRef = useRef(false);

  // The address in one form: unknown values dropped, parameters in one order.
  useEffect(() => {
    const normal = searchOfFilters(filters);
    if (normal !== location.search) setSearch(normal, { replace: true });
  }, [filters]);

  const changeFilters = useCallback((next: LibraryFilters, typing: boolean) => {
    setSearch(searchOfFilters(next), { replace: typing && typingRef.current });
    typingRef.current = typing;
  }, []);
  const clearFilters = useCallback(() => {
    changeFilters(clearedFilters(filtersFromSearch(location.search)), false);
  }, [changeFilters]);

  return { search, filters, changeFilters, clearFilters };
}
