import { useEffect, useId, useState } from 'react';
import {
  LIBRARY_KINDS,
  LIBRARY_SORTS,
  LIBRARY_STATUSES,
  type LibrarySort,
} from '../../../contract/index.ts';
import {
  KIND_LABELS,
  SORT_LABELS,
  STATUS_LABELS,
  activeFilterCount,
  type LibraryFilters,
} from './gallery-filters.ts';

/** Two searches that find the same (white space at the ends and between words aside). */
const sameSearch = (a: string, b: string) =>
  a.trim().replace(/\s+/g, ' ') === b.trim().replace(/\s+/g, ' ');

/** How long typing rests before the search is sent (and put in the address). */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The gallery's search box, filters and order. `onChange` gets the new filters and whether the
 * change is a search being typed (which replaces the address's history entry instead of adding
 * one per pause).
 */
export function GalleryToolbar({
  filters,
  models,
  onChange,
  onClear,
}: {
  filters: LibraryFilters;
  /** The model ids to offer (the current filter's is added when missing). */
  models: readonly string[];
  onChange: (next: LibraryFilters, typing: boolean) => void;
  onClear: () => void;
}) {
  const id = useId();
  const active = activeFilterCount(filters);
  const [open, setOpen] = useState(false);

  // The box shows what is typed; the address gets it once typing rests. An address changed
  // from elsewhere (back, forward, Clear filters) puts its search back in the box.
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

  const modelIds =
    filters.model && !models.includes(filters.model) ? [...models, filters.model] : models;
  const set = (patch: Partial<LibraryFilters>) =>
    onChange({ ...filters, q: draft, ...patch }, false);

  return (
    <div className="gallery-tools" role="search" aria-label="Search and filter the gallery">
      <div className="gallery-tools-row">
        <div className="gallery-search">
          <label htmlFor={`${id}-q`} className="visually-hidden">
            Search prompts and file names
          </label>
          <span className="gallery-search-icon" aria-hidden="true">
            ⌕
          </span>
          <input
            id={`${id}-q`}
            type="search"
            placeholder="Search prompts and file names"
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') sendNow();
            }}
          />
        </div>
        {/* Phones: the filters fold away behind this (wider screens always show them). */}
        <button
          type="button"
          className="small gallery-filters-toggle"
          aria-expanded={open}
          aria-controls={`${id}-filters`}
          onClick={() => setOpen((o) => !o)}
        >
          Filters{active > 0 ? ` (${active})` : ''}{' '}
          <span aria-hidden="true">{open ? '▴' : '▾'}</span>
        </button>
        <div className="gallery-inline-field gallery-sort">
          <label htmlFor={`${id}-sort`}>Sort</label>
          <select
            id={`${id}-sort`}
            value={filters.sort}
            onChange={(e) => set({ sort: e.target.value as LibrarySort })}
          >
            {LIBRARY_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div
        id={`${id}-filters`}
        className={`gallery-tools-row gallery-filters${open ? ' is-open' : ''}`}
      >
        <fieldset className="gallery-chips">
          <legend>Made from</legend>
          <div>
            <Chip
              name={`${id}-kind`}
              label="All"
              checked={filters.kind === ''}
              onPick={() => set({ kind: '' })}
            />
            {LIBRARY_KINDS.map((k) => (
              <Chip
                key={k}
                name={`${id}-kind`}
                label={KIND_LABELS[k]}
                checked={filters.kind === k}
                onPick={() => set({ kind: k })}
              />
            ))}
          </div>
        </fieldset>
        <fieldset className="gallery-chips">
          <legend>Status</legend>
          <div>
            <Chip
              name={`${id}-status`}
              label="All"
              checked={filters.status === ''}
              onPick={() => set({ status: '' })}
            />
            {LIBRARY_STATUSES.map((s) => (
              <Chip
                key={s}
                name={`${id}-status`}
                label={STATUS_LABELS[s]}
                checked={filters.status === s}
                onPick={() => set({ status: s })}
              />
            ))}
          </div>
        </fieldset>
        <div className="gallery-inline-field">
          <label htmlFor={`${id}-model`}>Model</label>
          <select
            id={`${id}-model`}
            value={filters.model}
            onChange={(e) => set({ model: e.target.value })}
          >
            <option value="">All models</option>
            {modelIds.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        </div>
        <button
          type="button"
          className={`small gallery-fav-filter${filters.favourite ? ' is-on' : ''}`}
          aria-pressed={filters.favourite}
          onClick={() => set({ favourite: !filters.favourite })}
        >
          <span aria-hidden="true">{filters.favourite ? '★' : '☆'}</span> Favourites
        </button>
        {active > 0 && (
          <button
            type="button"
            className="small gallery-clear"
            onClick={() => {
              setDraft('');
              setSent('');
              onClear();
            }}
          >
            Clear filters ({active})
          </button>
        )}
      </div>
    </div>
  );
}

/** One choice of a filter, as a chip (a radio button underneath: arrow keys move within the group). */
function Chip({
  name,
  label,
  checked,
  onPick,
}: {
  name: string;
  label: string;
  checked: boolean;
  onPick: () => void;
}) {
  return (
    <label className={`gallery-chip${checked ? ' is-on' : ''}`}>
      <input type="radio" name={name} checked={checked} onChange={onPick} />
      <span>{label}</span>
    </label>
  );
}
