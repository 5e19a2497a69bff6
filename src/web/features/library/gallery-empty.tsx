import { Link } from '../../ui/link.tsx';
import { describeFilters, type LibraryFilters } from './gallery-filters.ts';

/** What an empty gallery says: no task matches these filters, or none has been made yet. */
export function GalleryEmpty({
  filters,
  filtered,
  onClear,
}: {
  filters: LibraryFilters;
  /** Some filter is on. */
  filtered: boolean;
  onClear: () => void;
}) {
  return filtered ? (
    <>
      <p className="gallery-empty-title">No tasks match these filters.</p>
      <p className="muted">{describeFilters(filters)}</p>
      <p>
        <button type="button" className="primary" onClick={onClear}>
          Clear filters
        </button>
      </p>
    </>
  ) : (
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
