import { Link } from '../../ui/link.tsx';
import { describeFilters, type LibraryFilters } from './gallery-filters.ts';

/**
 * What an empty gallery says: no task matches these filters, the collection shown has nothing
 * in it yet, or none has been made yet.
 */
export function GalleryEmpty({
  filters,
  filtered,
  collection,
  onClear,
  onAllModels,
}: {
  filters: LibraryFilters;
  /** Some filter is on. */
  filtered: boolean;
  /** The name of the collection shown, if one is. */
  collection?: string | undefined;
  onClear: () => void;
  onAllModels: () => void;
}) {
  if (filtered)
    return (
      <>
        <p className="gallery-empty-title">
          No tasks {collection ? `in “${collection}” ` : ''}match these filters.
        </p>
        <p className="muted">{describeFilters(filters)}</p>
        <p>
          <button type="button" className="primary" onClick={onClear}>
            Clear filters
          </button>
        </p>
      </>
    );
  if (collection !== undefined)
    return (
      <>
        <p className="gallery-empty-title">Nothing in “{collection}” yet.</p>
        <p className="muted">
          Select models in the gallery and press “Add to collection…”, or press “Collections” on a
          model.
        </p>
        <p>
          <button type="button" className="primary" onClick={onAllModels}>
            Show all models
          </button>
        </p>
      </>
    );
  return (
    <>
      <p className="gallery-empty-title">Nothing here yet — make your first model in the Studio.</p>
      <p>
        <Link href="/" className="button primary">
          Go to the Studio
        </Link>
      </p>
    </>
  );
}
