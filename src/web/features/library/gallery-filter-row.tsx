import {
  LIBRARY_KINDS,
  LIBRARY_STATUSES,
  PROVIDER_LABELS,
  type Collection,
} from '../../../contract/index.ts';
import type { ProviderName } from '../../api/library.ts';
import { KIND_LABELS, STATUS_LABELS, type LibraryFilters } from './gallery-filters.ts';

/**
 * The gallery's filters: its collection (decision 0087), what a task was made from, its status,
 * its model, favourites only, the hidden ones instead of the shown, and Clear filters while any
 * is on. On phones the row folds away
 * unless `open`.
 */
export function GalleryFilterRow({
  id,
  open,
  filters,
  models,
  providers,
  collections,
  active,
  onSet,
  onClear,
}: {
  /** The toolbar's id, which the row's own ids start with. */
  id: string;
  open: boolean;
  filters: LibraryFilters;
  /** The model ids to offer. */
  models: readonly string[];
  /** The providers to offer (one or none: no provider field). */
  providers: readonly ProviderName[];
  /** The owner's collections to offer (none: no collection field). */
  collections: readonly Pick<Collection, 'id' | 'name'>[];
  /** How many filters are on. */
  active: number;
  onSet: (patch: Partial<LibraryFilters>) => void;
  onClear: () => void;
}) {
  return (
    <div
      id={`${id}-filters`}
      className={`gallery-tools-row gallery-filters${open ? ' is-open' : ''}`}
    >
      {(collections.length > 0 || filters.collection) && (
        <div className="gallery-inline-field">
          <label htmlFor={`${id}-collection`}>Collection</label>
          <select
            id={`${id}-collection`}
            value={filters.collection}
            onChange={(e) => onSet({ collection: e.target.value })}
          >
            <option value="">All models</option>
            {filters.collection && !collections.some((c) => c.id === filters.collection) && (
              <option value={filters.collection}>This collection</option>
            )}
            {collections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <ChipGroup
        legend="Made from"
        name={`${id}-kind`}
        value={filters.kind}
        options={LIBRARY_KINDS}
        labels={KIND_LABELS}
        onPick={(kind) => onSet({ kind })}
      />
      <ChipGroup
        legend="Status"
        name={`${id}-status`}
        value={filters.status}
        options={LIBRARY_STATUSES}
        labels={STATUS_LABELS}
        onPick={(status) => onSet({ status })}
      />
      <div className="gallery-inline-field">
        <label htmlFor={`${id}-model`}>Model</label>
        <select
          id={`${id}-model`}
          value={filters.model}
          onChange={(e) => onSet({ model: e.target.value })}
        >
          <option value="">All models</option>
          {models.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </div>
      {providers.length > 1 && (
        <div className="gallery-inline-field">
          <label htmlFor={`${id}-provider`}>Provider</label>
          <select
            id={`${id}-provider`}
            value={filters.provider}
            onChange={(e) => onSet({ provider: e.target.value as LibraryFilters['provider'] })}
          >
            <option value="">All providers</option>
            {providers.map((p) => (
              <option key={p} value={p}>
                {PROVIDER_LABELS[p]}
              </option>
            ))}
          </select>
        </div>
      )}
      <button
        type="button"
        className={`small gallery-fav-filter${filters.favourite ? ' is-on' : ''}`}
        aria-pressed={filters.favourite}
        onClick={() => onSet({ favourite: !filters.favourite })}
      >
        <span aria-hidden="true">{filters.favourite ? '★' : '☆'}</span> Favourites
      </button>
      {/* The tasks hidden from the gallery, to show again or to stop sharing (decision 0095). */}
      <button
        type="button"
        className={`small gallery-fav-filter gallery-hidden-filter${filters.hidden ? ' is-on' : ''}`}
        aria-pressed={filters.hidden}
        onClick={() => onSet({ hidden: !filters.hidden })}
      >
        Hidden
      </button>
      {active > 0 && (
        <button type="button" className="small gallery-clear" onClick={onClear}>
          Clear filters ({active})
        </button>
      )}
    </div>
  );
}

/** One filter's choices as chips: All (`''`), then each option. */
function ChipGroup<T extends string>({
  legend,
  name,
  value,
  options,
  labels,
  onPick,
}: {
  legend: string;
  name: string;
  value: T | '';
  options: readonly T[];
  labels: Record<T, string>;
  onPick: (value: T | '') => void;
}) {
  return (
    <fieldset className="gallery-chips">
      <legend>{legend}</legend>
      <div>
        <Chip name={name} label="All" checked={value === ''} onPick={() => onPick('')} />
        {options.map((o) => (
          <Chip
            key={o}
            name={name}
            label={labels[o]}
            checked={value === o}
            onPick={() => onPick(o)}
          />
        ))}
      </div>
    </fieldset>
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
