import { PromptVerdict } from '../../ui/prompt-verdict.tsx';
import { memo, useRef, useState, type MouseEvent } from 'react';
import { flushSync } from 'react-dom';
import { PROVIDER_LABELS, providerOfModel, type LibraryEntry } from '../../../contract/index.ts';
import {
  archiveNote,
  costLabelOf,
  formatDateTime,
  isoDateTime,
  madeFromOf,
  nameOf,
  taskLabel,
  titleOf,
} from '../../lib/entry-format.ts';
import { StatusBadge } from '../../ui/status-badge.tsx';
import { StillShared } from '../share/index.ts';
import { CardActions } from './gallery-card-actions.tsx';
import { Thumbnail } from './gallery-thumbnail.tsx';
import { RenameForm } from '../../ui/rename-form.tsx';

export interface GalleryCardProps {
  entry: LibraryEntry;
  selected: boolean;
  /** The id of the element that says how to use the grid's keys. */
  hintId: string;
  onSelect: (id: string, range: boolean) => void;
  onFavourite: (id: string, favourite: boolean) => void;
  onHidden: (id: string) => void;
  /** A hidden card (the Hidden view) was shown again. */
  onUnhidden: (id: string) => void;
}

/**
 * One task as a card: its picture, its name (or model), status and date; a checkbox to select it
 * (shift-click selects a range), a star, and Open, Download, Rename (the title becomes a field)
 * and Hide (asked inline). The card itself takes
 * focus for the grid's keys (arrows move, Space selects, Enter opens).
 */
export const GalleryCard = memo(function GalleryCard({
  entry,
  selected,
  hintId,
  onSelect,
  onFavourite,
  onHidden,
  onUnhidden,
}: GalleryCardProps) {
  const createdMs = entry.created * 1000;
  const when = formatDateTime(createdMs);
  const label = taskLabel(entry, when);
  const favourite = entry.favourite === true;
  const name = nameOf(entry);
  // Renaming turns the title into a field; closing it puts focus back on Rename.
  const [renaming, setRenaming] = useState(false);
  const renameRef = useRef<HTMLButtonElement>(null);
  const closeRename = () => {
    flushSync(() => setRenaming(false));
    renameRef.current?.focus();
  };

  // A click on the checkbox (or Space on it) toggles; with Shift, the range from the last one.
  const onCheckboxClick = (e: MouseEvent<HTMLInputElement>) => onSelect(entry.id, e.shiftKey);

  return (
    <li className="gallery-item">
      <article
        className={`card gallery-card${selected ? ' is-selected' : ''}`}
        data-task-id={entry.id}
        data-card=""
        // One card is the grid's Tab stop (0); the page moves it as focus moves.
        tabIndex={-1}
        aria-label={`${label}${selected ? ', selected' : ''}${favourite ? ', favourite' : ''}`}
        aria-describedby={hintId}
      >
        <div className="gallery-picture">
          <Thumbnail entry={entry} when={when} />
          <label className="gallery-select" title="Select (Shift-click: a range)">
            <input
              type="checkbox"
              checked={selected}
              onChange={() => {
                /* onClick does it: it knows about Shift */
              }}
              onClick={onCheckboxClick}
              aria-label={`Select ${label}`}
            />
          </label>
          <button
            type="button"
            className={`gallery-star${favourite ? ' is-on' : ''}`}
            aria-pressed={favourite}
            aria-label={`Favourite ${label}`}
            title={favourite ? 'Remove from favourites' : 'Add to favourites'}
            onClick={() => onFavourite(entry.id, !favourite)}
          >
            <span aria-hidden="true">{favourite ? '★' : '☆'}</span>
          </button>
        </div>
        <div className="gallery-body">
          <div className="gallery-title">
            {renaming ? (
              <RenameForm entry={entry} onClose={closeRename} />
            ) : name ? (
              // Named: the name first, the model and what it was made from beside it, smaller.
              <h2>
                {titleOf(entry)}
                <span className="gallery-photo-name name-subject">
                  {' · '}
                  {entry.model} · {madeFromOf(entry)}
                </span>
              </h2>
            ) : (
              // Unnamed: the model, and its title (the prompt, or the photo's name) beside it.
              <h2>
                {entry.model}
                <span className="gallery-photo-name"> · {titleOf(entry)}</span>
              </h2>
            )}
            <StatusBadge entry={entry} />
          </div>
          <span
            className={`badge provider-badge provider-badge--${providerOfModel(entry.model)}`}
            data-testid="provider-badge"
          >
            {PROVIDER_LABELS[providerOfModel(entry.model)]}
          </span>
          <p className="muted small gallery-date">
            <time dateTime={isoDateTime(createdMs)}>{when}</time>
            <CostNote entry={entry} />
          </p>
          {archiveNote(entry) && (
            <p className="small gallery-archive-note" role="note">
              {archiveNote(entry)}
            </p>
          )}
          {entry.hidden && (
            // The Hidden view: hidden from the gallery, and still public if it is shared.
            <div className="gallery-hidden-note">
              <p className="small muted">Hidden from your gallery.</p>
              <StillShared entries={[entry]} when="hidden" label={label} />
            </div>
          )}
          {entry.status === 'completed' && entry.prompt && (
            <PromptVerdict prompt={entry.prompt} compact />
          )}
          {entry.status === 'failed' && entry.error && (
            <p className="small gallery-error" title={entry.error.message}>
              {entry.error.message}
            </p>
          )}

          <CardActions
            entry={entry}
            label={label}
            onHidden={onHidden}
            onUnhidden={onUnhidden}
            renameRef={renameRef}
            onRename={renaming ? undefined : () => setRenaming(true)}
          />
        </div>
      </article>
    </li>
  );
});

/** " · 30 credits", " · $0.02": what the task cost, in its provider's own unit (or nothing). */
function CostNote({ entry }: { entry: LibraryEntry }) {
  const cost = costLabelOf(entry);
  return cost ? (
    <span className="gallery-credits" data-testid="gallery-cost">
      {` · ${cost}`}
    </span>
  ) : null;
}
