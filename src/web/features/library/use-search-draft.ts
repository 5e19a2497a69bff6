import { useEffect, useState } from 'react';
import type { LibraryFilters } from './gallery-filters.ts';

/** Two searches that find the same (white space at the ends and between words aside). */
const sameSearch = (a: string, b: string) =>
  a.trim().replace(/\s+/g, ' ') === b.trim().replace(/\s+/g, ' ');

/** How long typing rests before the search is sent (and put in the address). */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * The search box's text: what is typed shows at once, and goes to `onChange` (as typing) once
 * typing rests, or at once with `sendNow` (Enter). An address changed from elsewhere (back,
 * forward, Clear filters) puts its search back in the box; `clear` empties it.
 */
export function useSearchDraft(
  filters: LibraryFilters,
  onChange: (next: LibraryFilters, typing: boolean) => void,
) {
  const [draft, setDraft] = useState(filters.q);
  const [shownQ, setShownQ] = useState(filters.q);
  const [sent, setSent] = useState(filters.q);
  if (shownQ !== filters.q) {
    setShownQ(filters.q);
    if (filters.q !== sent) {
      setDraft(filters.q);
      setSent(filters.q);
    }
  }
  useEffect(() => {
    if (sameSearch(draft, filters.q)) return;
    const timer = setTimeout(() => {
      setSent(draft);
      onChange({ ...filters, q: draft }, true);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, filters, onChange]);
  const sendNow = () => {
    if (sameSearch(draft, filters.q)) return;
    setSent(draft);
    onChange({ ...filters, q: draft }, true);
  };
  const clear = () => {
    setDraft('');
    setSent('');
  };
  return { draft, setDraft, sendNow, clear };
}
