import { useId, useState } from 'react';
import { LIBRARY_SORTS, type Collection, type LibrarySort } from '../../../contract/index.ts';
import { useProviders } from '../../api/providers.ts';
import type { ProviderName } from '../../api/library.ts';
import { GalleryFilterRow } from './gallery-filter-row.tsx';
import { SORT_LABELS, activeFilterCount, type LibraryFilters } from './gallery-filters.ts';
import { useSearchDraft } from './use-search-draft.ts';

/**
 * The gallery's search box, filters and order. `onChange` gets the new filters and whether the
 * change is a search being typed (which replaces the address's history entry instead of adding
 * one per pause).
 */
export function GalleryToolbar({
  filters,
  models,
  collections,
  onChange,
  onClear,
}: {
  filters: LibraryFilters;
  /** The model ids to offer (the current filter's is added when missing). */
  models: readonly string[];
  /** The owner's collections to offer. */
  collections: readonly Pick<Collection, 'id' | 'name'>[];
  onChange: (next: LibraryFilters, typing: boolean) => void;
  onClear: () => void;
}) {
  const id = useId();
  const active = activeFilterCount(filters);
  const [open, setOpen] = useState(false);
  // The box shows what is typed; the address gets it once typing rests.
  const search = useSearchDraft(filters, onChange);

  // Kiln's own upstream, and each provider this Kiln reaches.
  const reached = useProviders().data ?? [];
  const providers: ProviderName[] = ['spec', ...reached.map((p) => p.name)];
  const modelIds =
    filters.model && !models.includes(filters.model) ? [...models, filters.model] : models;
  const set = (patch: Partial<LibraryFilters>) =>
    onChange({ ...filters, q: search.draft, ...patch }, false);

  return (
    <div className="gallery-tools" role="search" aria-label="Search and filter the gallery">
      <div className="gallery-tools-row">
        <div className="gallery-search">
          <label htmlFor={`${id}-q`} className="visually-hidden">
            Search names, prompts and file names
          </label>
          <span className="gallery-search-icon" aria-hidden="true">
            ⌕
          </span>
          <input
            id={`${id}-q`}
            type="search"
            placeholder="Search names, prompts and file names"
            autoComplete="off"
            spellCheck={false}
            maxLength={200}
            value={search.draft}
            onChange={(e) => search.setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') search.sendNow();
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
      <GalleryFilterRow
        id={id}
        open={open}
        filters={filters}
        models={modelIds}
        providers={providers}
        collections={collections}
        active={active}
        onSet={set}
        onClear={() => {
          search.clear();
          onClear();
        }}
      />
    </div>
  );
}
