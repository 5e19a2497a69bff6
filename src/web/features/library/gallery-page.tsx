import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { LoadMore } from '../../ui/load-more.tsx';
import { flushSync } from 'react-dom';
import { NotFoundError } from '../../../client/index.ts';
import type { LibraryEntry } from '../../../contract/index.ts';
import { Link } from '../../ui/link.tsx';
import { QueryState } from '../../ui/query-state.tsx';
import {
  archiveNote,
  formatDateTime,
  isoDateTime,
  promptExcerpt,
  taskLabel,
} from '../../lib/entry-format.ts';
import { glbFileName } from '../../lib/file-name.ts';
import { useHideTask, useLibrary, useUnhideTask } from '../../api/library-query.ts';
import { ShareButton } from '../../ui/share-button.tsx';
import { StatusBadge } from '../../ui/status-badge.tsx';
import './gallery.css';

/** Every task this key made through Kiln, as cards: look, open, download, hide. */
export default function GalleryPage() {
  const library = useLibrary();
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const [announcement, setAnnouncement] = useState('');
  // The task hidden last, for Undo.
  const [lastHidden, setLastHidden] = useState<string | null>(null);
  const unhide = useUnhideTask();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    document.title = 'Gallery · Kiln';
  }, []);

  const entries = useMemo(() => {
    const seen = new Set<string>();
    const out: LibraryEntry[] = [];
    for (const page of library.data?.pages ?? []) {
      for (const entry of page.data) {
        if (seen.has(entry.id) || hidden.has(entry.id)) continue;
        seen.add(entry.id);
        out.push(entry);
      }
    }
    return out;
  }, [library.data, hidden]);

  /** The card is gone: say so, and put focus on its neighbour rather than losing it. */
  const onHidden = (id: string) => {
    const index = entries.findIndex((e) => e.id === id);
    const neighbour = entries[index + 1] ?? entries[index - 1];
    flushSync(() => {
      setHidden((prev) => new Set(prev).add(id));
      setLastHidden(id);
      unhide.reset();
      // A trailing no-break space alternates so that a second hide is announced again.
      setAnnouncement((prev) => (prev === 'Task hidden.' ? 'Task hidden.\u00a0' : 'Task hidden.'));
    });
    const target = neighbour
      ? listRef.current?.querySelector<HTMLElement>(
          `[data-task-id="${CSS.escape(neighbour.id)}"] .gallery-open`,
        )
      : null;
    (target ?? headingRef.current)?.focus();
  };

  /** Undo: the task comes back where it was, and focus goes to it. */
  const undo = () => {
    const id = lastHidden;
    if (!id) return;
    unhide.mutate(id, {
      onSuccess: () => {
        flushSync(() => {
          setHidden((prev) => {
            const next = new Set(prev);
            next.delete(id);
            return next;
          });
          setLastHidden(null);
          setAnnouncement('Task shown again.');
        });
        listRef.current
          ?.querySelector<HTMLElement>(`[data-task-id="${CSS.escape(id)}"] .gallery-open`)
          ?.focus();
      },
    });
  };

  return (
    <main className="page gallery-page">
      <h1 ref={headingRef} tabIndex={-1}>
        Gallery
      </h1>
      <div role="status" className={lastHidden ? 'gallery-undo card' : 'visually-hidden'}>
        <span>{announcement}</span>
        {lastHidden && (
          <button type="button" className="small" onClick={undo} disabled={unhide.isPending}>
            {unhide.isPending ? 'Undoing…' : 'Undo'}
          </button>
        )}
        {unhide.isError && (
          <span className="error small">Could not undo: {unhide.error.message}</span>
        )}
      </div>

      <QueryState
        query={library}
        loading="Loading your gallery…"
        failed="The gallery could not be loaded"
        className={entries.length === 0 ? 'gallery-message gallery-empty' : 'gallery-message'}
        empty={
          entries.length === 0 && (
            <>
              <p className="gallery-empty-title">
                Nothing here yet — make your first model in the Studio.
              </p>
              <p>
                <Link href="/" className="button primary">
                  Go to the Studio
                </Link>
              </p>
            </>
          )
        }
      >
        {() => (
          <>
            <p className="muted small gallery-count">
              {entries.length === 1 ? '1 task' : `${entries.length} tasks`}
              {library.hasNextPage ? ' shown so far' : ''}, newest first.
            </p>
            <ul className="gallery-grid" ref={listRef}>
              {entries.map((entry) => (
                <GalleryCard key={entry.id} entry={entry} onHidden={onHidden} />
              ))}
            </ul>
          </>
        )}
      </QueryState>

      <LoadMore library={library} className="gallery-more" />
    </main>
  );
}

function GalleryCard({ entry, onHidden }: { entry: LibraryEntry; onHidden: (id: string) => void }) {
  const hide = useHideTask();
  const [confirming, setConfirming] = useState(false);
  const hideRef = useRef<HTMLButtonElement>(null);
  const noRef = useRef<HTMLButtonElement>(null);
  const questionId = useId();

  const createdMs = entry.created * 1000;
  const when = formatDateTime(createdMs);
  const label = taskLabel(entry, when);
  const canDownload = entry.status === 'completed' && entry.model_url !== null;

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

  return (
    <li className="card gallery-card" data-task-id={entry.id}>
      <Thumbnail entry={entry} when={when} />
      <div className="gallery-body">
        <div className="gallery-title">
          <h2>{entry.model}</h2>
          <StatusBadge entry={entry} />
        </div>
        <p className="muted small gallery-date">
          <time dateTime={isoDateTime(createdMs)}>{when}</time>
        </p>
        {archiveNote(entry) && (
          <p className="small gallery-archive-note" role="note">
            {archiveNote(entry)}
          </p>
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
    </li>
  );
}

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
