import { useEffect, useRef } from 'react';
import type { LibraryEntry } from '../../../contract/index.ts';
import { ZIP_MAX_IDS, downloadModelsZip } from '../../api/library.ts';
import { formatBytes } from '../../../formats/index.ts';
import { useZipDownload } from '../../lib/use-zip-download.ts';
import { AddToCollectionButton, ShareSelectionButton, type Added } from '../collections/index.ts';
import { ShareButton, StillShared } from '../share/index.ts';

/**
 * What can be done with the selected tasks: favourite them, add them to a collection (or, while
 * the gallery shows one, remove them from it), hide them (Undo follows; those shared publicly are
 * named first, with Stop sharing…), or in the Hidden view unhide them, download their models as
 * one zip, share (one model by its own link, several as a new collection of them); and select
 * every task shown, or none.
 */
export function SelectionBar({
  selected,
  shown,
  busy,
  onSelectAll,
  onClear,
  hiddenView,
  onHide,
  onUnhide,
  onFavourite,
  collection,
  onAdded,
  onRemove,
}: {
  selected: readonly LibraryEntry[];
  /** How many tasks are shown (what "Select all" selects). */
  shown: number;
  /** A bulk action is on its way. */
  busy: boolean;
  onSelectAll: () => void;
  onClear: () => void;
  /** The gallery shows the hidden tasks: "Unhide N" instead of "Hide N". */
  hiddenView: boolean;
  onHide: () => void;
  onUnhide: () => void;
  onFavourite: (favourite: boolean) => void;
  /** The collection the gallery shows, if it shows one: "Remove from collection" is offered. */
  collection?: { name: string; removing: boolean } | undefined;
  onAdded: (added: Added) => void;
  onRemove: () => void;
}) {
  const count = selected.length;
  const allFavourite = count > 0 && selected.every((e) => e.favourite === true);
  const withModel = selected.filter((e) => e.status === 'completed' && e.model_url !== null);
  const { zip, download } = useZipDownload((options) =>
    downloadModelsZip(
      withModel.slice(0, ZIP_MAX_IDS).map((e) => e.id),
      options,
    ),
  );

  const barRef = useScrollRoomBelow();

  return (
    <div className="gallery-selection card" role="region" aria-label="Selected tasks" ref={barRef}>
      <p className="gallery-selection-count" aria-live="polite">
        <strong>{count}</strong> selected
      </p>
      <div className="gallery-selection-actions">
        {count < shown && (
          <button type="button" className="small" onClick={onSelectAll}>
            Select all {shown}
          </button>
        )}
        <button type="button" className="small" onClick={onClear}>
          Clear selection
        </button>
        <button
          type="button"
          className="small"
          onClick={() => onFavourite(!allFavourite)}
          disabled={busy}
        >
          <span aria-hidden="true">{allFavourite ? '☆' : '★'}</span>{' '}
          {allFavourite ? 'Unfavourite' : 'Favourite'}
        </button>
        <button
          type="button"
          className="small"
          onClick={() => void download()}
          disabled={withModel.length === 0 || zip.state === 'busy'}
          title={
            withModel.length === 0
              ? 'None of the selected tasks has a model yet'
              : withModel.length > ZIP_MAX_IDS
                ? `The first ${ZIP_MAX_IDS} models`
                : undefined
          }
        >
          {zip.state === 'busy'
            ? `Preparing zip…${zip.bytes > 0 ? ` ${formatBytes(zip.bytes)}` : ''}`
            : `Download ${Math.min(withModel.length, ZIP_MAX_IDS)} as zip`}
        </button>
        <AddToCollectionButton entries={selected} onAdded={onAdded} className="small" />
        {collection && (
          <button
            type="button"
            className="small"
            onClick={onRemove}
            disabled={collection.removing}
            title={`Take them out of “${collection.name}” (they stay in the gallery)`}
          >
            {collection.removing ? 'Removing…' : 'Remove from collection'}
          </button>
        )}
        {/* A public link is per model (the card has it too), or per collection: several models
            are shared as a new collection of them (decision 0103). Only finished models are. */}
        {selected.length === 1 && selected[0] && (
          <ShareButton entry={selected[0]} className="small" />
        )}
        {withModel.length > 1 && <ShareSelectionButton entries={withModel} className="small" />}
        {hiddenView ? (
          <button type="button" className="small" onClick={onUnhide} disabled={busy}>
            Unhide {count}
          </button>
        ) : (
          <button type="button" className="small danger" onClick={onHide} disabled={busy}>
            Hide {count}
          </button>
        )}
      </div>
      {/* Hiding leaves public pages up: said before the Hide, with Stop sharing… (decision 0095). */}
      {!hiddenView && (
        <StillShared key={selected.map((e) => e.id).join()} entries={selected} when="hiding" />
      )}
      {zip.state === 'failed' && (
        <p className="error small" role="alert">
          The zip could not be made: {zip.message}
        </p>
      )}
    </div>
  );
}

/**
 * The bar floats over the grid: the page keeps as much room below its last card as the bar is
 * tall (`--selection-bar-height` on `.gallery-page`), measured, so no card stays under it
 * whatever the bar holds (shared words, an error, a phone's wrapped buttons).
 */
function useScrollRoomBelow() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const bar = ref.current;
    const page = bar?.closest<HTMLElement>('.gallery-page');
    if (!bar || !page) return;
    const observer = new ResizeObserver(() =>
      page.style.setProperty('--selection-bar-height', `${bar.offsetHeight}px`),
    );
    observer.observe(bar);
    return () => {
      observer.disconnect();
      page.style.removeProperty('--selection-bar-height');
    };
  }, []);
  return ref;
}
