import { PromptVerdict } from '../../ui/prompt-verdict.tsx';
import { memo, useId, useRef, useState, type MouseEvent } from 'react';
import { flushSync } from 'react-dom';
import { NotFoundError } from '../../../client/index.ts';
import type { LibraryEntry } from '../../../contract/index.ts';
import { useHideTask } from '../../api/library.ts';
import {
  archiveNote,
  formatDateTime,
  isoDateTime,
  promptExcerpt,
  photoNameOf,
  taskLabel,
} from '../../lib/entry-format.ts';
import { glbFileName } from '../../lib/file-name.ts';
import { Link } from '../../ui/link.tsx';
import { ShareButton } from '../share/index.ts';
import { StatusBadge } from '../../ui/status-badge.tsx';

export interface GalleryCardProps {
  entry: LibraryEntry;
  selected: boolean;
  /** The id of the element that says how to use the grid's keys. */
  hintId: string;
  onSelect: (id: string, range: boolean) => void;
  onFavourite: (id: string, favourite: boolean) => void;
  onHidden: (id: string) => void;
}

/** The words a card is known by: "alpha task “a red chair” from 24 Nov 2026, 15:32". */
export function cardLabel(entry: LibraryEntry): string {
  return taskLabel(entry, formatDateTime(entry.created * 1000));
}

/**
 * One task as a card: its picture, model, status and date; a checkbox to select it (shift-click
 * selects a range), a star, and Open, Download and Hide (asked inline). The card itself takes
 * focus for the grid's keys (arrows move, Space selects, Enter opens).
 */
export const GalleryCard = memo(function GalleryCard({
  entry,
  selected,
  hintId,
  onSelect,
  onFavourite,
  onHidden,
}: GalleryCardProps) {
  const hide = useHideTask();
  const [confirming, setConfirming] = useState(false);
  const hideRef = useRef<HTMLButtonElement>(null);
  const noRef = useRef<HTMLButtonElement>(null);
  const questionId = useId();

  const createdMs = entry.created * 1000;
  const when = formatDateTime(createdMs);
  const label = taskLabel(entry, when);
  const canDownload = entry.status === 'completed' && entry.model_url !== null;
  const favourite = entry.favourite === true;

  const ask = () => {
    hide.reset();
    flushSync(() => setConfirming(true));
    noRef.current?.focus();
  };
  const cancel = () => {
    flushSync(() => setConfirming(false));
    hideRef.current?.focus();
  };
  const confirm = () => {
    hide.mutate(entry.id, {
      onSuccess: () => onHidden(entry.id),
      onError: (err) => {
        // Already gone on the server: as good as hidden.
        if (err instanceof NotFoundError) onHidden(entry.id);
      },
    });
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
            <h2>
              {entry.model}
              {photoNameOf(entry) && (
                <span className="gallery-photo-name"> · {photoNameOf(entry)}</span>
              )}
            </h2>
            <StatusBadge entry={entry} />
          </div>
          <p className="muted small gallery-date">
            <time dateTime={isoDateTime(createdMs)}>{when}</time>
            {entry.credits_consumed !== null && entry.credits_consumed > 0 && (
              <span className="gallery-credits"> · {entry.credits_consumed} credits</span>
            )}
          </p>
          {archiveNote(entry) && (
            <p className="small gallery-archive-note" role="note">
              {archiveNote(entry)}
            </p>
          )}
          {entry.status === 'completed' && entry.prompt && (
            <PromptVerdict prompt={entry.prompt} compact />
          )}
          {entry.status === 'failed' && entry.error && (
            <p className="small gallery-error" title={entry.error.message}>
              {entry.error.message}
            </p>
          )}

          {confirming ? (
            <div className="gallery-confirm" role="group" aria-labelledby={questionId}>
              <span id={questionId}>Hide this task?</span>
              <button
                type="button"
                className="small danger"
                onClick={confirm}
                disabled={hide.isPending}
                aria-label={hide.isPending ? undefined : `Yes, hide ${label}`}
              >
                {hide.isPending ? 'Hiding…' : 'Yes'}
              </button>
              <button
                type="button"
                className="small"
                ref={noRef}
                onClick={cancel}
                disabled={hide.isPending}
                aria-label={`No, keep ${label}`}
              >
                No
              </button>
              {hide.isError && !(hide.error instanceof NotFoundError) && (
                <p className="error small gallery-confirm-error" role="alert">
                  Could not hide it: {hide.error.message}
                </p>
              )}
            </div>
          ) : (
            <div className="gallery-actions">
              <Link
                href={`/tasks/${encodeURIComponent(entry.id)}`}
                className="button small gallery-open"
                aria-label={`Open ${label}`}
              >
                Open
              </Link>
              {canDownload && entry.model_url && (
                <a
                  className="button small"
                  href={entry.model_url}
                  download={glbFileName(entry)}
                  aria-label={`Download GLB of ${label}`}
                >
                  Download GLB
                </a>
              )}
              <ShareButton entry={entry} className="small" label={label} />
              <button
                type="button"
                className="small danger gallery-hide"
                ref={hideRef}
                onClick={ask}
                aria-label={`Hide ${label}`}
              >
                Hide
              </button>
            </div>
          )}
        </div>
      </article>
    </li>
  );
});

/**
 * The model's own picture when a browser has drawn one (`thumbnail_url`), with what it was made
 * from beside it: the input photo small in a corner, or the prompt beneath. Until then, the input.
 */
function Thumbnail({ entry, when }: { entry: LibraryEntry; when: string }) {
  const [modelBroken, setModelBroken] = useState(false);
  if (entry.thumbnail_url && !modelBroken) {
    const first = entry.images[0];
    const views = entry.images.length;
    return (
      <div className="gallery-thumb gallery-model">
        <img
          src={entry.thumbnail_url}
          alt={`3D model from the ${entry.model} task of ${when}`}
          loading="lazy"
          decoding="async"
          onError={() => setModelBroken(true)}
        />
        {first?.upload ? (
          <img
            className="gallery-input"
            src={first.upload}
            alt={`Input photo${views > 1 ? ` (1 of ${views})` : ''}`}
            loading="lazy"
            decoding="async"
            onError={(e) => (e.currentTarget.hidden = true)}
          />
        ) : entry.prompt?.trim() ? (
          <p className="gallery-input-prompt">
            <span className="visually-hidden">Prompt: </span>“{promptExcerpt(entry.prompt)}”
          </p>
        ) : null}
        {views > 1 && <span className="gallery-views small">{views} views</span>}
      </div>
    );
  }
  return <InputThumbnail entry={entry} when={when} />;
}

/** The input as the card's picture: the first photo, the prompt, or a placeholder. */
function InputThumbnail({ entry, when }: { entry: LibraryEntry; when: string }) {
  const first = entry.images[0];
  const views = entry.images.length;
  const [broken, setBroken] = useState(false);

  if (first?.upload && !broken) {
    return (
      <div className="gallery-thumb">
        <img
          src={first.upload}
          alt={`Input photo for ${entry.model} task from ${when}`}
          loading="lazy"
          decoding="async"
          onError={() => setBroken(true)}
        />
        {views > 1 && <span className="gallery-views small">{views} views</span>}
      </div>
    );
  }
  if (entry.prompt?.trim()) {
    return (
      <div className="gallery-thumb gallery-prompt">
        <p>
          <span className="visually-hidden">Prompt: </span>“{promptExcerpt(entry.prompt)}”
        </p>
      </div>
    );
  }
  return (
    <div className="gallery-thumb gallery-placeholder">
      <p className="muted small">
        {first ? (broken ? 'Photo not available' : 'Photo from a link') : 'No preview'}
      </p>
    </div>
  );
}
