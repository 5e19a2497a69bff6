import { LazyBackgroundPictures } from '../viewer/index.ts';
import { CollectionHead } from '../collections/index.ts';
import { Suspense, useEffect, useId, useMemo, type RefObject } from 'react';
import { useModels } from '../../api/tasks.ts';
import { describeError } from '../../lib/describe-error.ts';
import { LoadMore } from '../../ui/load-more.tsx';
import { QueryState } from '../../ui/query-state.tsx';
import { GalleryEmpty } from './gallery-empty.tsx';
import { activeFilterCount } from './gallery-filters.ts';
import { GalleryGrid } from './gallery-grid.tsx';
import { GalleryNotices } from './gallery-notices.tsx';
import { GalleryToolbar } from './gallery-toolbar.tsx';
import { SelectionBar } from './selection-bar.tsx';
import { useGalleryActions } from './use-gallery-actions.ts';
import { useGalleryAddress } from './use-gallery-address.ts';
import { useGalleryCollection } from './use-gallery-collection.ts';
import { useGalleryEntries } from './use-gallery-entries.ts';
import { useGallerySelection } from './use-gallery-selection.ts';
import { useRovingGrid } from './use-roving-grid.ts';
import './gallery.css';

/**
 * The page's heading: the collection shown (its own, with what can be done to it), that it is
 * missing, or the gallery's; and what was last done to the collection's models.
 */
function GalleryHeading({
  shelf,
  headingRef,
}: {
  shelf: ReturnType<typeof useGalleryCollection>;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const { collection, missing, notice } = shelf;
  return (
    <>
      <div className="gallery-head">
        {collection ? (
          <CollectionHead
            collection={collection}
            headingRef={headingRef}
            onAllModels={shelf.allModels}
            onDeleted={shelf.onDeleted}
          />
        ) : missing ? (
          <div className="collection-missing">
            <h1 ref={headingRef} tabIndex={-1}>
              Collection not found
            </h1>
            <p>It was deleted, or the address is not quite right.</p>
            <button type="button" className="primary" onClick={shelf.allModels}>
              All models
            </button>
          </div>
        ) : (
          <h1 ref={headingRef} tabIndex={-1}>
            Gallery
          </h1>
        )}
      </div>
      {notice && (
        <div role="status" className="gallery-undo card">
          <span>{notice.message}</span>
          {notice.show && (
            <button
              type="button"
              className="small"
              onClick={() => notice.show && shelf.showCollection(notice.show.id)}
            >
              Show “{notice.show.name}”
            </button>
          )}
        </div>
      )}
      {shelf.removeError && (
        <p className="error small" role="alert">
          Could not remove them from the collection: {shelf.removeError}
        </p>
      )}
    </>
  );
}

/**
 * Every task this key made through Kiln, as cards: search, filter, sort (all in the address),
 * look, open, download, star, select several to hide, download, share or put in a collection;
 * keys move between cards. Shown by collection (`?collection=`), the heading is the collection's,
 * with what can be done to it. Pages load as the list scrolls (Load more stays as the fallback).
 */
export default function GalleryPage() {
  const { search, filters, changeFilters, clearFilters } = useGalleryAddress();
  const grid = useGalleryEntries(filters);
  const { library, entries, order, sentinelRef } = grid;
  const models = useModels();
  const selecting = useGallerySelection(search, entries, order);
  const { selection, selected, onSelect, selectAll, clearSelection } = selecting;
  const { listRef, headingRef, focusCard, onKeyDown, onFocus } = useRovingGrid(entries, {
    hasSelection: selection.ids.size > 0,
    onSelect,
    onClearSelection: clearSelection,
  });
  const actions = useGalleryActions(grid, selecting, focusCard);
  const { bulk, favourite } = actions;
  const hintId = useId();
  const shelf = useGalleryCollection(filters, changeFilters, headingRef);
  const { collection, missing } = shelf;
  const collectionName = collection?.name;

  useEffect(() => {
    document.title = collectionName ? `${collectionName} · Gallery · Kiln` : 'Gallery · Kiln';
  }, [collectionName]);

  const filtered = activeFilterCount(filters) > 0;
  const updating =
    library.isPlaceholderData ||
    (library.isFetching && !library.isFetchingNextPage && entries.length === 0);
  const modelIds = useMemo(() => (models.data?.models ?? []).map((m) => m.id), [models.data]);

  return (
    <main className={`page gallery-page${selected.length > 0 ? ' has-selection' : ''}`}>
      <GalleryHeading shelf={shelf} headingRef={headingRef} />
      {!missing && (
        <GalleryToolbar
          filters={filters}
          models={modelIds}
          collections={shelf.collections.data ?? []}
          onChange={changeFilters}
          onClear={clearFilters}
        />
      )}

      <GalleryNotices
        announcement={actions.announcement}
        canUndo={actions.lastHidden.length > 0}
        hidden={actions.lastHiddenEntries}
        busy={bulk.isPending}
        onUndo={actions.undo}
        actionError={bulk.isError ? describeError(bulk.error).message : null}
        favouriteError={favourite.isError ? describeError(favourite.error).message : null}
      />
      {selected.length > 0 && (
        <SelectionBar
          selected={selected}
          shown={entries.length}
          busy={bulk.isPending}
          onSelectAll={selectAll}
          onClear={clearSelection}
          hiddenView={filters.hidden}
          onHide={actions.hideSelected}
          onUnhide={actions.unhideSelected}
          onFavourite={actions.favouriteSelected}
          collection={collection ? { name: collection.name, removing: shelf.removing } : undefined}
          onAdded={shelf.onAdded}
          onRemove={() => shelf.removeSelected(selected, clearSelection)}
        />
      )}

      <Suspense fallback={null}>
        <LazyBackgroundPictures entries={entries} />
      </Suspense>
      {!missing && (
        <QueryState
          query={library}
          loading="Loading your gallery…"
          failed="The gallery could not be loaded"
          className={entries.length === 0 ? 'gallery-message gallery-empty' : 'gallery-message'}
          empty={
            entries.length === 0 &&
            !library.isPlaceholderData && (
              <GalleryEmpty
                filters={filters}
                filtered={filtered}
                collection={collectionName}
                onClear={clearFilters}
                onAllModels={shelf.allModels}
              />
            )
          }
        >
          {() => (
            <GalleryGrid
              entries={entries}
              filters={filters}
              hasMore={Boolean(library.hasNextPage)}
              updating={updating}
              hintId={hintId}
              selectedIds={selection.ids}
              listRef={listRef}
              onKeyDown={onKeyDown}
              onFocus={onFocus}
              onSelect={onSelect}
              onFavourite={actions.onFavourite}
              onHidden={actions.onHidden}
              onUnhidden={actions.onUnhidden}
            />
          )}
        </QueryState>
      )}

      <div ref={sentinelRef} className="gallery-sentinel" aria-hidden="true" />
      <LoadMore library={library} className="gallery-more" />
    </main>
  );
}
